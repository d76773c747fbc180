#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

TEST(DnnlEltwise, UnaryOps) {
  std::mt19937 rng(51);
  const std::vector<std::pair<std::string, ir::AttrMap>> ops = {
      {"Relu", {}},
      {"LeakyRelu", Attrs({{"alpha", AV::Float(0.3f)}})},
      {"LeakyRelu", {}},
      {"Elu", Attrs({{"alpha", AV::Float(0.5f)}})},
      {"Sigmoid", {}},
      {"Tanh", {}},
      {"HardSigmoid", Attrs({{"alpha", AV::Float(0.3f)}, {"beta", AV::Float(0.4f)}})},
      {"HardSigmoid", {}},
      {"HardSwish", {}},
      {"Abs", {}},
      {"Exp", {}},
      {"Softplus", {}},
  };
  for (const auto& [op, attrs] : ops) {
    SCOPED_TRACE(op);
    ExpectDnnlMatchesRef(Case(op, {RandomTensor({2, 3, 17}, rng)}, {}, attrs));
  }
  ExpectDnnlMatchesRef(Case("Sqrt", {RandomTensor({4, 9}, rng, 0, 5)}));
  ExpectDnnlMatchesRef(Case("Log", {RandomTensor({4, 9}, rng, 0.01, 5)}));
  ExpectDnnlMatchesRef(Case("Relu", {RandomTensor({}, rng)}));  // a scalar
}

TEST(DnnlEltwise, Clip) {
  std::mt19937 rng(52);
  Tensor x = RandomTensor({3, 11}, rng);
  ExpectDnnlMatchesRef(Case("Clip", {x, Tensor::Scalar<float>(-1.f), Tensor::Scalar<float>(2.f)}, {false, true, true}));
  ExpectDnnlMatchesRef(Case("Clip", {x, Tensor(), Tensor::Scalar<float>(0.5f)}, {false, false, true}));
  ExpectDnnlMatchesRef(Case("Clip", {x, Tensor::Scalar<float>(0.f)}, {false, true}));
  ExpectDnnlMatchesRef(Case("Clip", {x}));
  Case old("Clip", {x}, {}, Attrs({{"min", AV::Float(-0.5f)}, {"max", AV::Float(0.5f)}}));
  old.opset = 6;
  ExpectDnnlMatchesRef(old);
  // Bounds that are not constants, and min > max.
  ExpectDeclined(Case("Clip", {x, Tensor::Scalar<float>(-1.f), Tensor::Scalar<float>(2.f)}, {false, false, true}));
  ExpectDeclined(Case("Clip", {x, Tensor::Scalar<float>(2.f), Tensor::Scalar<float>(1.f)}, {false, true, true}));
}

TEST(DnnlEltwise, InPlace) {
  std::mt19937 rng(53);
  const Case c("HardSigmoid", {RandomTensor({5, 7}, rng)});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  (*p)->binding->io.outputs[0] = (*p)->binding->io.inputs[0];
  ASSERT_TRUE((*p)->Run().ok());
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok());
  ExpectNear((*p)->inputs[0], (*want)[0].tensor, 1e-6, "in place");
}

TEST(DnnlBinary, BroadcastPatterns) {
  std::mt19937 rng(54);
  const std::vector<std::pair<Dims, Dims>> shapes = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}}, {{2, 3, 4}, {}}, {{2, 3, 4}, {2, 1, 4}},
      {{2, 3, 4}, {1, 3, 1}}, {{4}, {2, 3, 4}}, {{}, {2, 3}},    {{1, 3, 1}, {2, 3, 4}},
  };
  for (const char* op : {"Add", "Sub", "Mul", "Max", "Min"}) {
    for (const auto& [a, b] : shapes) {
      SCOPED_TRACE(std::string(op) + DimsToString(a) + DimsToString(b));
      ExpectDnnlMatchesRef(Case(op, {RandomTensor(a, rng), RandomTensor(b, rng)}));
    }
  }
  ExpectDnnlMatchesRef(Case("Div", {RandomTensor({2, 3, 4}, rng), RandomTensor({3, 1}, rng, 0.5, 2)}));
  ExpectDnnlMatchesRef(Case("Div", {RandomTensor({2, 3, 4}, rng), RandomTensor({2, 3, 4}, rng, 0.5, 2)}));
}

// [N, C, H, W] stored NCHW <-> stored NHWC (the logical dims stay [N, C, H, W]).
Tensor ToNhwc(const Tensor& x, bool to_nhwc) {
  const Dims& d = x.dims();
  Tensor y = Tensor::Create(DataType::kFloat, d).value();
  const float* src = x.data<float>();
  float* dst = y.data<float>();
  for (int64_t n = 0; n < d[0]; ++n) {
    for (int64_t c = 0; c < d[1]; ++c) {
      for (int64_t p = 0; p < d[2] * d[3]; ++p) {
        const int64_t nchw = (n * d[1] + c) * d[2] * d[3] + p, nhwc = (n * d[2] * d[3] + p) * d[1] + c;
        if (to_nhwc) {
          dst[nhwc] = src[nchw];
        } else {
          dst[nchw] = src[nhwc];
        }
      }
    }
  }
  return y;
}

// Squeeze-and-excitation's scale: an NHWC activation times a per-channel [N|1, C, 1, 1] operand (either input
// order) runs on ge's kernel over the stored dims; other NHWC binaries stay on oneDNN.
TEST(DnnlBinary, NhwcPerChannelOperand) {
  std::mt19937 rng(58);
  for (const char* op : {"Mul", "Add", "Sub", "Div"}) {
    for (const Dims& s_dims : {Dims{1, 5, 1, 1}, Dims{2, 5, 1, 1}, Dims{5, 1, 1}}) {
      for (bool swap : {false, true}) {
        if (swap && (std::string(op) == "Sub" || std::string(op) == "Div")) continue;
        SCOPED_TRACE(std::string(op) + DimsToString(s_dims) + (swap ? " swapped" : ""));
        const Tensor x = RandomTensor({2, 5, 3, 4}, rng);
        const Tensor s = RandomTensor(s_dims, rng, 0.5, 2);
        Case logical(op, swap ? std::vector<Tensor>{s, x} : std::vector<Tensor>{x, s});
        auto want = RunRef(logical);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        Case stored(op, swap ? std::vector<Tensor>{s, ToNhwc(x, true)} : std::vector<Tensor>{ToNhwc(x, true), s});
        stored.input_formats =
            swap ? std::vector<Format>{Format::kND, Format::kNHWC} : std::vector<Format>{Format::kNHWC, Format::kND};
        stored.output_formats = {Format::kNHWC};
        auto p = PrepareCase(stored);
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        ASSERT_NE((*p)->kernel, nullptr);
        EXPECT_STREQ((*p)->kernel->impl_name(), "exec.binary_f32");
        ASSERT_TRUE((*p)->Run().ok());
        ExpectNear(ToNhwc((*p)->outputs[0], false), (*want)[0].tensor, 1e-6, "per-channel");
      }
    }
  }
  // Same dims on both sides: oneDNN's.
  Case same("Add", {RandomTensor({1, 4, 2, 2}, rng), RandomTensor({1, 4, 2, 2}, rng)});
  same.input_formats = {Format::kNHWC, Format::kNHWC};
  same.output_formats = {Format::kNHWC};
  auto p = PrepareCase(same);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  EXPECT_EQ(std::string((*p)->kernel->impl_name()).rfind("dnnl.binary", 0), 0u) << (*p)->kernel->impl_name();
  // An NHWC activation times a per-channel operand into a plain output (a chain's last node): not ge's NHWC kernel,
  // whose stored dims would write the output in NHWC order.
  const Tensor x = RandomTensor({2, 5, 3, 4}, rng), sc = RandomTensor({1, 5, 1, 1}, rng, 0.5, 2);
  auto want = RunRef(Case("Mul", {x, sc}));
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  Case to_plain("Mul", {ToNhwc(x, true), sc});
  to_plain.input_formats = {Format::kNHWC, Format::kND};
  to_plain.output_formats = {Format::kNCHW};
  auto q = PrepareCase(to_plain);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  ASSERT_NE((*q)->kernel, nullptr);
  EXPECT_STRNE((*q)->kernel->impl_name(), "exec.binary_f32");
  ASSERT_TRUE((*q)->Run().ok());
  ExpectNear((*q)->outputs[0], (*want)[0].tensor, 1e-6, "into a plain output");
}

// Operands of one shape in different layouts (RAFT: an NHWC chain's activation times a plain one): the plain
// operand is reordered into the output's layout rather than left to oneDNN's reference loop.
TEST(DnnlBinary, MixedLayoutOperandsAvoidTheReferenceLoop) {
  std::mt19937 rng(59);
  for (bool nhwc_first : {true, false}) {
    SCOPED_TRACE(nhwc_first ? "NHWC first" : "plain first");
    const Tensor a = RandomTensor({1, 24, 5, 7}, rng), b = RandomTensor({1, 24, 5, 7}, rng);
    auto want = RunRef(Case("Mul", {a, b}));
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    Case stored("Mul", nhwc_first ? std::vector<Tensor>{ToNhwc(a, true), b} : std::vector<Tensor>{a, ToNhwc(b, true)});
    stored.input_formats =
        nhwc_first ? std::vector<Format>{Format::kNHWC, Format::kND} : std::vector<Format>{Format::kND, Format::kNHWC};
    stored.output_formats = {Format::kND};
    auto p = PrepareCase(stored);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_NE((*p)->kernel, nullptr);
    EXPECT_EQ(std::string((*p)->kernel->impl_name()).find("ref"), std::string::npos) << (*p)->kernel->impl_name();
    ASSERT_TRUE((*p)->Run().ok());
    ExpectNear((*p)->outputs[0], (*want)[0].tensor, 1e-6, "mixed layouts");
  }
}

TEST(DnnlBinary, Declines) {
  std::mt19937 rng(55);
  // Both operands broadcast; Div whose first operand broadcasts; three-input Max; integers.
  ExpectDeclined(Case("Add", {RandomTensor({2, 1, 4}, rng), RandomTensor({1, 3, 1}, rng)}));
  ExpectDeclined(Case("Div", {RandomTensor({4}, rng), RandomTensor({2, 3, 4}, rng)}));
  ExpectDeclined(Case("Max", {RandomTensor({4}, rng), RandomTensor({4}, rng), RandomTensor({4}, rng)}));
  Tensor i = Tensor::Create(DataType::kInt64, {3}).value();
  ExpectDeclined(Case("Add", {i, i}));
}

// Plain Concats go to ge's exec.concat (row copies); one in the NHWC layout of a convolution chain stays on oneDNN.
TEST(DnnlConcatSum, ConcatAxes) {
  std::mt19937 rng(56);
  for (int64_t axis : {0, 1, 2, -1}) {
    SCOPED_TRACE(axis);
    Dims a = {2, 3, 4}, b = {2, 3, 4};
    const int ax = static_cast<int>(axis < 0 ? axis + 3 : axis);
    b[ax] = 5;
    ExpectDnnlMatchesRef(Case("Concat", {RandomTensor(a, rng), RandomTensor(b, rng), RandomTensor(a, rng)}, {},
                              Attrs({{"axis", AV::Int(axis)}})),
                         1e-4, nullptr, "exec.concat");
  }
  ExpectDnnlMatchesRef(Case("Concat", {RandomTensor({1, 64, 7, 7}, rng), RandomTensor({1, 32, 7, 7}, rng)}, {},
                            Attrs({{"axis", AV::Int(1)}})),
                       1e-4, nullptr, "exec.concat");
  ExpectDnnlMatchesRef(Case("Concat", {RandomTensor({3, 5}, rng)}, {}, Attrs({{"axis", AV::Int(0)}})), 1e-4, nullptr,
                       "exec.concat");
  const Tensor x = RandomTensor({1, 16, 5, 6}, rng), y = RandomTensor({1, 8, 5, 6}, rng);
  auto want = RunRef(Case("Concat", {x, y}, {}, Attrs({{"axis", AV::Int(1)}})));
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  Case nhwc("Concat", {ToNhwc(x, true), ToNhwc(y, true)}, {}, Attrs({{"axis", AV::Int(1)}}));
  nhwc.input_formats = {Format::kNHWC, Format::kNHWC};
  nhwc.output_formats = {Format::kNHWC};
  auto p = PrepareCase(nhwc);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  EXPECT_EQ(std::string((*p)->kernel->impl_name()).rfind("dnnl.concat", 0), 0u) << (*p)->kernel->impl_name();
  ASSERT_TRUE((*p)->Run().ok());
  ExpectNear(ToNhwc((*p)->outputs[0], false), (*want)[0].tensor, 0, "NHWC concat");
}

// A plain output with an NHWC input (a U-Net's skip connection beside an upsampled plain value): each input is
// reordered into its slice of the output; batch 2 makes the slices strided.
TEST(DnnlConcatSum, MixedLayoutsIntoAPlainOutput) {
  std::mt19937 rng(60);
  for (int64_t n : {1, 2}) {
    SCOPED_TRACE(n);
    const Tensor x = RandomTensor({n, 16, 5, 6}, rng), y = RandomTensor({n, 7, 5, 6}, rng);
    auto want = RunRef(Case("Concat", {x, y, x}, {}, Attrs({{"axis", AV::Int(1)}})));
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    Case mixed("Concat", {ToNhwc(x, true), y, x}, {}, Attrs({{"axis", AV::Int(1)}}));
    mixed.input_formats = {Format::kNHWC, Format::kND, Format::kND};
    mixed.output_formats = {Format::kND};
    auto p = PrepareCase(mixed);
    ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
    EXPECT_EQ(std::string((*p)->kernel->impl_name()).rfind("dnnl.concat", 0), 0u) << (*p)->kernel->impl_name();
    std::fill((*p)->outputs[0].data<float>(), (*p)->outputs[0].data<float>() + (*p)->outputs[0].numel(), NAN);
    ASSERT_TRUE((*p)->Run().ok());
    ExpectNear((*p)->outputs[0], (*want)[0].tensor, 0, "mixed concat");
  }
}

TEST(DnnlConcatSum, Sum) {
  std::mt19937 rng(57);
  ExpectDnnlMatchesRef(Case("Sum", {RandomTensor({2, 3, 4}, rng)}));
  ExpectDnnlMatchesRef(Case("Sum", {RandomTensor({2, 3, 4}, rng), RandomTensor({2, 3, 4}, rng)}));
  ExpectDnnlMatchesRef(Case("Sum", {RandomTensor({5, 6}, rng), RandomTensor({5, 6}, rng), RandomTensor({5, 6}, rng),
                                    RandomTensor({5, 6}, rng)}));
  ExpectDeclined(Case("Sum", {RandomTensor({2, 3, 4}, rng), RandomTensor({4}, rng)}));  // broadcast
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
