// ge::SqueezeExcite's kernel: plain and NHWC layouts against the reference kernel (EfficientNet's SiLU/Sigmoid and
// MobileNetV3's Relu/HardSigmoid, with and without biases, batch 2), on a pool at EfficientNet's shapes; the
// reference kernel against the unfused definition computed here; requests the kernel leaves to ref.
#include <cmath>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/squeeze_excite_kernel.h"
#include "kernels/ref/families.h"

namespace ge::exec::testing {
namespace {

Tensor Random(const Dims& dims, uint32_t seed, double lo = -1, double hi = 1) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, lo, hi);
}

ir::AttrMap Acts(const char* act, const char* gate, std::vector<float> gate_params = {}) {
  ir::AttrMap a;
  if (*act) a.Set("activation", ir::AttrValue::String(act));
  if (*gate) a.Set("gate_activation", ir::AttrValue::String(gate));
  if (!gate_params.empty()) a.Set("gate_activation_params", ir::AttrValue::Floats(gate_params));
  return a;
}

// in: X [N, C, H, W] (NCHW values), W1 [R, C, 1, 1], B1 or invalid, W2 [C, R, 1, 1], B2 or invalid.
void Check(const std::vector<Tensor>& in, const ir::AttrMap& attrs, Format layout, rt::IntraOpPool* pool = nullptr) {
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  auto want = t.Run("SqueezeExcite", in, attrs, 1, 1, "ge");
  ASSERT_TRUE(want.ok()) << want.status().ToString();

  ir::Graph g("g");
  std::vector<ir::Value*> ins;
  PrepareRequest r;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i].valid()) {
      ins.push_back(nullptr);
      r.input_descs.emplace_back();
      r.const_inputs.push_back(nullptr);
      continue;
    }
    TensorDesc d(DataType::kFloat, Shape(in[i].dims()));
    if (i == 0) d.format = layout;
    ins.push_back(i == 0 ? g.AddInput("x", d) : g.AddConstant("c" + std::to_string(i), in[i]));
    r.input_descs.push_back(d);
    r.const_inputs.push_back(i == 0 ? nullptr : &in[i]);
  }
  TensorDesc yd(DataType::kFloat, Shape(in[0].dims()));
  yd.format = layout;
  ir::Node* node = g.AddNode("SqueezeExcite", "se", ins, {g.AddValue("y", yd)}, "ge");
  node->attrs() = attrs;
  r.node = node;
  r.output_descs = {yd};
  // Each vector width of the passes (the model's target caps it): AVX-512 where the CPU has it, AVX2, baseline;
  // all give the same bits.
  std::vector<float> first;
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    SCOPED_TRACE(IsaLevelName(isa));
    r.max_isa = isa;
    std::unique_ptr<PreparedKernel> k = PrepareSqueezeExcite(r);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->impl_name(), "exec.squeeze_excite");
    const bool nhwc = layout == Format::kNHWC;
    Tensor x = nhwc ? PermuteNchwNhwc(in[0], true) : in[0];
    Tensor y = Tensor::Create(DataType::kFloat, in[0].dims()).value();
    auto binding = k->NewBinding();
    ASSERT_TRUE(binding.ok());
    (*binding)->io.inputs[0] = x.raw_data();
    (*binding)->io.outputs[0] = y.raw_data();
    rt::TaskContext ctx;
    ctx.pool = pool;
    for (int run = 0; run < 2; ++run) {  // a second run on the same binding: no state carried over
      ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
      ExpectTensorNear(nhwc ? PermuteNchwNhwc(y, false) : y, (*want)[0].tensor, 1e-6, "run " + std::to_string(run));
    }
    const std::vector<float> got(y.data<float>(), y.data<float>() + y.numel());
    if (first.empty()) {
      first = got;
    } else {
      EXPECT_TRUE(std::memcmp(first.data(), got.data(), got.size() * sizeof(float)) == 0) << "differs from AVX-512's";
    }
  }
}

TEST(SqueezeExciteKernel, PlainAndNhwcMatchRef) {
  for (Format layout : {Format::kND, Format::kNHWC}) {
    SCOPED_TRACE(FormatName(layout));
    // EfficientNet: SiLU, then a Sigmoid gate.
    Check({Random({1, 16, 7, 9}, 1, -3, 3), Random({4, 16, 1, 1}, 2), Random({4}, 3), Random({16, 4, 1, 1}, 4),
           Random({16}, 5)},
          Acts("Silu", "Sigmoid"), layout);
    // MobileNetV3: Relu, then HardSigmoid (alpha 1/6, beta 0.5), batch 2.
    Check({Random({2, 24, 5, 5}, 6, -3, 3), Random({8, 24, 1, 1}, 7), Random({8}, 8), Random({24, 8, 1, 1}, 9),
           Random({24}, 10)},
          Acts("Relu", "HardSigmoid", {1.f / 6, 0.5f}), layout);
    // An empty image (no pixels: the means are 0) and a single pixel.
    Check({Random({1, 8, 0, 3}, 32), Random({2, 8, 1, 1}, 33), Random({2}, 34), Random({8, 2, 1, 1}, 35)},
          Acts("Relu", "Sigmoid"), layout);
    Check({Random({1, 8, 1, 1}, 36), Random({2, 8, 1, 1}, 37), Random({2}, 38), Random({8, 2, 1, 1}, 39)},
          Acts("Relu", "Sigmoid"), layout);
    // No biases, no activations.
    Check({Random({1, 8, 3, 3}, 11), Random({2, 8, 1, 1}, 12), Tensor(), Random({8, 2, 1, 1}, 13)}, Acts("", ""),
          layout);
  }
}

// EfficientNet's largest blocks (96 channels at 56x56 after the stride, 240 at 28x28): pooled in several pixel blocks
// on a pool, scaled in parallel.
TEST(SqueezeExciteKernel, EfficientNetShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  for (Format layout : {Format::kND, Format::kNHWC}) {
    Check({Random({1, 96, 56, 56}, 14, -3, 3), Random({4, 96, 1, 1}, 15), Random({4}, 16), Random({96, 4, 1, 1}, 17),
           Random({96}, 18)},
          Acts("Silu", "Sigmoid"), layout, pool->get());
    Check({Random({1, 240, 28, 28}, 19, -3, 3), Random({10, 240, 1, 1}, 20), Random({10}, 21),
           Random({240, 10, 1, 1}, 22), Random({240}, 23)},
          Acts("Silu", "Sigmoid"), layout, pool->get());
  }
}

// MobileNetV3's widest block (960 channels squeezed to 240, 7x7) and odd sizes: dot products over whole lanes,
// lanes and a tail, and a tail alone.
TEST(SqueezeExciteKernel, WideAndOddBlocks) {
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  for (Format layout : {Format::kND, Format::kNHWC}) {
    // Weights scaled by 1/sqrt(fan-in) as trained ones are: unit-sized ones saturate the Sigmoid far into its
    // tail, where the products summed in another order than the reference's differ in relative terms.
    Check({Random({1, 960, 7, 7}, 40, -3, 3), Random({240, 960, 1, 1}, 41, -0.06f, 0.06f), Random({240}, 42),
           Random({960, 240, 1, 1}, 43, -0.12f, 0.12f), Random({960}, 44)},
          Acts("Relu", "Sigmoid"), layout, pool->get());
    Check({Random({2, 37, 5, 3}, 45, -3, 3), Random({5, 37, 1, 1}, 46), Random({5}, 47), Random({37, 5, 1, 1}, 48),
           Random({37}, 49)},
          Acts("Relu", "Sigmoid"), layout, pool->get());
    Check({Random({1, 11, 4, 4}, 50, -3, 3), Random({3, 11, 1, 1}, 51), Tensor(), Random({11, 3, 1, 1}, 52), Tensor()},
          Acts("Relu", "Sigmoid"), layout, nullptr);
  }
}

// The reference kernel against the block written out: mean, two dot products with their activations, the product.
TEST(SqueezeExciteKernel, RefMatchesTheDefinition) {
  const Tensor x = Random({1, 3, 2, 2}, 24, -2, 2), w1 = Random({2, 3, 1, 1}, 25), b1 = Random({2}, 26);
  const Tensor w2 = Random({3, 2, 1, 1}, 27), b2 = Random({3}, 28);
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  auto got = t.Run("SqueezeExcite", {x, w1, b1, w2, b2}, Acts("Relu", "Sigmoid"), 1, 1, "ge");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const float* xv = x.data<float>();
  double p[3], h[2], s[3];
  for (int c = 0; c < 3; ++c) p[c] = (xv[4 * c] + xv[4 * c + 1] + xv[4 * c + 2] + xv[4 * c + 3]) / 4.0;
  for (int r = 0; r < 2; ++r) {
    double a = b1.data<float>()[r];
    for (int c = 0; c < 3; ++c) a += w1.data<float>()[r * 3 + c] * p[c];
    h[r] = a < 0 ? 0 : a;
  }
  for (int c = 0; c < 3; ++c) {
    double a = b2.data<float>()[c];
    for (int r = 0; r < 2; ++r) a += w2.data<float>()[c * 2 + r] * h[r];
    s[c] = 1 / (1 + std::exp(-a));
  }
  const float* y = (*got)[0].tensor.data<float>();
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(y[i], xv[i] * s[i / 4], 1e-6) << i;
}

TEST(SqueezeExciteKernel, OtherRequestsStayOnRef) {
  const Tensor x = Random({1, 8, 3, 3}, 29), w1 = Random({2, 8, 1, 1}, 30), w2 = Random({8, 2, 1, 1}, 31);
  auto p = PrepareCase([&] {
    OpCase c("SqueezeExcite", {x, w1, Tensor(), w2}, {false, false, false, true}, Acts("Relu", "Sigmoid"));
    c.domain = "ge";
    return c;
  }());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "ref");  // W1 is not a constant
  ASSERT_TRUE((*p)->Run().ok());
}

}  // namespace
}  // namespace ge::exec::testing
