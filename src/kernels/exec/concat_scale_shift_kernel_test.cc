// ge::ConcatScaleShift's kernel: plain and NHWC layouts, bit for bit against the reference kernel at every ISA
// variant (Relu and none, one and several inputs, batch 2, NaN / -0 / infinities), DenseNet's shapes on a pool; the
// reference kernel against the definition; requests left to ref.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/exec/concat_scale_shift_kernel.h"
#include "kernels/exec/exec_test_util.h"
#include "kernels/ref/families.h"

namespace ge::exec::testing {
namespace {

Tensor Random(const Dims& dims, uint32_t seed, double lo = -2, double hi = 2) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, lo, hi);
}

ir::AttrMap Act(const char* act) {
  ir::AttrMap a;
  if (*act) a.Set("activation", ir::AttrValue::String(act));
  return a;
}

// in: scale, shift, then X1..Xk (NCHW values).
void Check(const std::vector<Tensor>& in, const ir::AttrMap& attrs, Format layout, rt::IntraOpPool* pool = nullptr) {
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  auto want = t.Run("ConcatScaleShift", in, attrs, 1, 1, "ge");
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  const bool nhwc = layout == Format::kNHWC;
  ir::Graph g("g");
  std::vector<ir::Value*> ins;
  PrepareRequest r;
  std::vector<Tensor> stored;
  for (size_t i = 0; i < in.size(); ++i) {
    TensorDesc d(DataType::kFloat, Shape(in[i].dims()));
    if (i >= 2) d.format = layout;
    ins.push_back(i < 2 ? g.AddConstant("p" + std::to_string(i), in[i]) : g.AddInput("x" + std::to_string(i), d));
    r.input_descs.push_back(d);
    r.const_inputs.push_back(i < 2 ? &in[i] : nullptr);
    stored.push_back(i >= 2 && nhwc ? PermuteNchwNhwc(in[i], true) : in[i]);
  }
  TensorDesc yd(DataType::kFloat, Shape(w.dims()));
  yd.format = layout;
  ir::Node* node = g.AddNode("ConcatScaleShift", "css", ins, {g.AddValue("y", yd)}, "ge");
  node->attrs() = attrs;
  r.node = node;
  r.output_descs = {yd};
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    SCOPED_TRACE(IsaLevelName(isa));
    r.max_isa = isa;
    std::unique_ptr<PreparedKernel> k = PrepareConcatScaleShift(r);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->impl_name(), "exec.concat_scale_shift");
    Tensor y = Tensor::Create(DataType::kFloat, w.dims()).value();
    auto binding = k->NewBinding();
    ASSERT_TRUE(binding.ok());
    for (size_t i = 0; i < in.size(); ++i) (*binding)->io.inputs[i] = stored[i].raw_data();
    (*binding)->io.outputs[0] = y.raw_data();
    rt::TaskContext ctx;
    ctx.pool = pool;
    ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
    const Tensor got = nhwc ? PermuteNchwNhwc(y, false) : y;
    ExpectTensorNear(got, w, 0.0, "exact");
    // Bits too (ExpectTensorNear takes -0 for +0): the same zeros as the reference kernel.
    EXPECT_EQ(std::memcmp(got.raw_data(), w.raw_data(), static_cast<size_t>(w.numel()) * sizeof(float)), 0);
  }
}

TEST(ConcatScaleShiftKernel, PlainAndNhwcMatchRefExactly) {
  for (Format layout : {Format::kND, Format::kNHWC}) {
    SCOPED_TRACE(FormatName(layout));
    // A dense layer: the block input and two layers' outputs, Relu.
    Check(
        {Random({40}, 1), Random({40}, 2), Random({1, 8, 5, 6}, 3), Random({1, 16, 5, 6}, 4), Random({1, 16, 5, 6}, 5)},
        Act("Relu"), layout);
    Check({Random({24}, 6), Random({24}, 7), Random({2, 24, 3, 3}, 8)}, Act(""), layout);  // one input, batch 2
    Check({Random({5}, 9), Random({5}, 10), Random({2, 3, 4, 1}, 11), Random({2, 2, 4, 1}, 12)}, Act("Relu"), layout);
    Check({Random({5}, 30), Random({5}, 31), Random({1, 3, 0, 2}, 32), Random({1, 2, 0, 2}, 33)}, Act("Relu"),
          layout);  // no pixels
    Check({Random({3}, 34), Random({3}, 35), Random({1, 0, 2, 2}, 36), Random({1, 3, 2, 2}, 37)}, Act("Relu"),
          layout);  // an input without channels
  }
  // Special values: NaN and -0 pass Relu as the reference keeps them, infinities scale.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::FromVector<float>({nan, -0.0f, inf, -inf, 1e-40f, -3.f, 2.f, 0.f}, {1, 2, 2, 2});
  for (Format layout : {Format::kND, Format::kNHWC}) {
    Check({Tensor::FromVector<float>({1.f, -2.f}, {2}), Tensor::FromVector<float>({0.f, 0.f}, {2}), x}, Act("Relu"),
          layout);
  }
}

TEST(ConcatScaleShiftKernel, DenseNetShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  for (Format layout : {Format::kND, Format::kNHWC}) {
    std::vector<Tensor> in = {Random({160}, 13), Random({160}, 14), Random({1, 64, 56, 56}, 15)};
    for (int i = 0; i < 3; ++i) in.push_back(Random({1, 32, 56, 56}, 16 + i));
    Check(in, Act("Relu"), layout, pool->get());
  }
}

TEST(ConcatScaleShiftKernel, RefMatchesTheDefinition) {
  const Tensor a = Random({3}, 20), b = Random({3}, 21), x1 = Random({1, 1, 2, 2}, 22), x2 = Random({1, 2, 2, 2}, 23);
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  auto got = t.Run("ConcatScaleShift", {a, b, x1, x2}, Act("Relu"), 1, 1, "ge");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ((*got)[0].tensor.dims(), (Dims{1, 3, 2, 2}));
  const float* y = (*got)[0].tensor.data<float>();
  for (int c = 0; c < 3; ++c) {
    for (int p = 0; p < 4; ++p) {
      const float x = c == 0 ? x1.data<float>()[p] : x2.data<float>()[(c - 1) * 4 + p];
      const float m = x * a.data<float>()[c];
      const float v = m + b.data<float>()[c];
      EXPECT_EQ(y[c * 4 + p], v < 0 ? 0.f : v) << c << "," << p;
    }
  }
}

TEST(ConcatScaleShiftKernel, OtherRequestsStayOnRef) {
  OpCase c("ConcatScaleShift", {Random({4}, 24), Random({4}, 25), Random({1, 4, 2, 2}, 26)}, {false, true, false},
           Act("Relu"));
  c.domain = "ge";
  auto p = PrepareCase(c);  // scale is not a constant
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "ref");
  ASSERT_TRUE((*p)->Run().ok());
  OpCase sig("ConcatScaleShift", {Random({4}, 27), Random({4}, 28), Random({1, 4, 2, 2}, 29)}, {true, true, false},
             Act("Sigmoid"));
  sig.domain = "ge";
  auto q = PrepareCase(sig);  // an activation the fast loops do not have
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  EXPECT_STREQ((*q)->kernel->impl_name(), "ref");
}

}  // namespace
}  // namespace ge::exec::testing
