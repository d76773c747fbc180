// Depthwise convolution over plain layouts (exec.depthwise_conv_plain) against the reference Conv (plus Sum and the
// activation) over 1-D and 2-D geometries: kernels 1-7, strides 1-3, dilations, asymmetric pads and auto_pad, row
// lengths around the vector width, bias or not, FusedConv's Sum with Relu / Clip, batch 2, a thread pool; requests it
// leaves to others.
#include <algorithm>
#include <cmath>

#include "kernels/exec/depthwise_conv_plain_kernel.h"
#include "kernels/exec/nhwc_conv_test_util.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap Window(std::vector<int64_t> strides, std::vector<int64_t> pads = {}, std::vector<int64_t> dilations = {},
                   const char* auto_pad = nullptr) {
  ir::AttrMap a;
  a.Set("strides", ir::AttrValue::Ints(std::move(strides)));
  if (!pads.empty()) a.Set("pads", ir::AttrValue::Ints(std::move(pads)));
  if (!dilations.empty()) a.Set("dilations", ir::AttrValue::Ints(std::move(dilations)));
  if (auto_pad != nullptr) a.Set("auto_pad", ir::AttrValue::String(auto_pad));
  return a;
}

struct DepthwiseCase {
  Tensor x, w, b, sum, want, y;
  std::unique_ptr<ir::Graph> graph;
  ir::Node* node = nullptr;
  PrepareRequest request;
};

// x: [N, C, spatial...]; k: the window's dims. W is [C, 1, k...]; want = act(Conv(x, W) + b + sum).
std::unique_ptr<DepthwiseCase> MakeCase(const Dims& x_dims, const Dims& k, ir::AttrMap attrs, bool bias, bool sum,
                                        ConvAct act, uint32_t seed) {
  auto t = std::make_unique<DepthwiseCase>();
  const int64_t c = x_dims[1];
  Dims wd = {c, 1};
  wd.insert(wd.end(), k.begin(), k.end());
  t->x = RandomUnit(x_dims, seed);
  t->w = RandomUnit(wd, seed + 1);
  t->b = RandomUnit({c}, seed + 2);
  attrs.Set("group", ir::AttrValue::Int(c));
  ref::testing::OpTester nn(ops::RegisterNnOps, ref::RegisterNnRefKernels);
  auto base = nn.Run1("Conv", {t->x, t->w, bias ? t->b : Tensor()}, attrs);
  EXPECT_TRUE(base.ok()) << base.status().ToString();
  if (!base.ok()) return nullptr;
  t->want = *base;
  const Dims yd = t->want.dims();
  t->sum = RandomUnit(yd, seed + 3);
  for (int64_t i = 0; i < t->want.numel(); ++i) {
    float v = t->want.data<float>()[i] + (sum ? t->sum.data<float>()[i] : 0.f);
    if (act == ConvAct::kRelu) v = std::max(v, 0.f);
    if (act == ConvAct::kClip) v = std::min(std::max(v, -0.5f), 2.f);
    t->want.data<float>()[i] = v;
  }
  const bool fused = sum || act != ConvAct::kNone;
  if (act == ConvAct::kRelu) attrs.Set("activation", ir::AttrValue::String("Relu"));
  if (act == ConvAct::kClip) {
    attrs.Set("activation", ir::AttrValue::String("Clip"));
    attrs.Set("activation_params", ir::AttrValue::Floats({-0.5f, 2.f}));
  }
  t->graph = std::make_unique<ir::Graph>("g");
  ir::Graph& g = *t->graph;
  PrepareRequest& r = t->request;
  const TensorDesc xdesc(DataType::kFloat, Shape(x_dims)), ydesc(DataType::kFloat, Shape(yd));
  std::vector<ir::Value*> ins = {g.AddInput("x", xdesc), g.AddConstant("w", t->w)};
  r.input_descs = {xdesc, TensorDesc(DataType::kFloat, Shape(wd))};
  r.const_inputs = {nullptr, &t->w};
  if (bias || sum) {
    ins.push_back(bias ? g.AddConstant("b", t->b) : nullptr);
    r.input_descs.push_back(bias ? TensorDesc(DataType::kFloat, Shape({c})) : TensorDesc());
    r.const_inputs.push_back(bias ? &t->b : nullptr);
  }
  if (sum) {
    ins.push_back(g.AddInput("sum", ydesc));
    r.input_descs.push_back(ydesc);
    r.const_inputs.push_back(nullptr);
  }
  r.output_descs = {ydesc};
  ir::Node* node = g.AddNode(fused ? "FusedConv" : "Conv", "conv", ins, {g.AddValue("y", ydesc)}, fused ? "ge" : "");
  node->attrs() = attrs;
  r.node = node;
  t->node = node;
  t->y = Tensor::Create(DataType::kFloat, yd).value();
  return t;
}

void Check(const Dims& x, const Dims& k, const ir::AttrMap& attrs, bool bias, bool sum, ConvAct act, uint32_t seed,
           rt::IntraOpPool* pool = nullptr) {
  SCOPED_TRACE(DimsToString(x) + " k " + DimsToString(k));
  auto t = MakeCase(x, k, attrs, bias, sum, act, seed);
  ASSERT_NE(t, nullptr);
  std::unique_ptr<PreparedKernel> kernel = PrepareDepthwiseConvPlain(t->request);
  if (PickLoopIsa(IsaLevel::kNone) != LoopIsa::kAvx512) {
    EXPECT_EQ(kernel, nullptr);
    return;
  }
  ASSERT_NE(kernel, nullptr);
  EXPECT_STREQ(kernel->impl_name(), "exec.depthwise_conv_plain");
  auto binding = kernel->NewBinding();
  ASSERT_TRUE(binding.ok());
  (*binding)->io.inputs[0] = t->x.raw_data();
  (*binding)->io.inputs[1] = t->w.raw_data();
  if (bias) (*binding)->io.inputs[2] = t->b.raw_data();
  if (sum) (*binding)->io.inputs[3] = t->sum.raw_data();
  (*binding)->io.outputs[0] = t->y.raw_data();
  rt::TaskContext ctx;
  ctx.pool = pool;
  ASSERT_TRUE(kernel->fn()(binding->get(), ctx).ok());
  EXPECT_TRUE(TensorsMatch(t->y, t->want, Tolerance{1e-5, 1e-5, true}));
}

TEST(DepthwiseConvPlainKernel, TwoDimWindowsMatchRef) {
  uint32_t seed = 1;
  for (int64_t w : {5, 16, 17, 33, 56}) {
    Check({1, 3, 7, w}, {3, 3}, Window({1, 1}, {1, 1, 1, 1}), true, false, ConvAct::kNone, seed += 4);
    Check({2, 4, 9, w}, {3, 3}, Window({2, 2}, {1, 1, 1, 1}), true, false, ConvAct::kNone, seed += 4);
    Check({1, 5, 8, w}, {5, 5}, Window({2, 2}, {2, 1, 2, 3}), false, false, ConvAct::kNone, seed += 4);
    Check({1, 2, 9, w}, {3, 3}, Window({3, 3}, {1, 1, 1, 1}), true, false, ConvAct::kNone, seed += 4);
    Check({1, 3, 10, w}, {3, 3}, Window({1, 1}, {2, 2, 2, 2}, {2, 2}), true, false, ConvAct::kNone, seed += 4);
    Check({1, 3, 6, w}, {1, 1}, Window({1, 1}), true, false, ConvAct::kNone, seed += 4);
    Check({1, 3, 7, w}, {7, 7}, Window({1, 1}, {3, 3, 3, 3}), true, false, ConvAct::kNone, seed += 4);
    Check({1, 4, 9, w}, {3, 3}, Window({2, 2}, {}, {}, "SAME_UPPER"), true, false, ConvAct::kNone, seed += 4);
    Check({1, 4, 9, w}, {3, 3}, Window({1, 1}, {1, 1, 1, 1}), true, true, ConvAct::kRelu, seed += 4);
    Check({1, 4, 9, w}, {3, 3}, Window({2, 2}, {1, 1, 1, 1}), false, false, ConvAct::kClip, seed += 4);
  }
}

TEST(DepthwiseConvPlainKernel, OneDimWindowsMatchRef) {
  uint32_t seed = 500;
  for (int64_t len : {1, 7, 16, 31, 100}) {
    Check({1, 6, len}, {3}, Window({1}, {1, 1}), true, false, ConvAct::kNone, seed += 4);
    Check({2, 3, len}, {3}, Window({2}, {1, 1}), true, true, ConvAct::kRelu, seed += 4);
    Check({1, 3, len}, {5}, Window({3}, {2, 2}), false, false, ConvAct::kNone, seed += 4);
    Check({1, 4, len}, {31}, Window({1}, {15, 15}), true, false, ConvAct::kClip, seed += 4);  // conformer's
    Check({1, 4, len}, {3}, Window({1}, {2, 2}, {2}), true, false, ConvAct::kNone, seed += 4);
  }
}

// Relu(NaN) = Clip(NaN) = NaN, as in the reference kernels: a NaN bias makes its channel NaN.
TEST(DepthwiseConvPlainKernel, ReluAndClipKeepNaN) {
  for (ConvAct act : {ConvAct::kRelu, ConvAct::kClip}) {
    auto t = MakeCase({1, 3, 5, 20}, {3, 3}, Window({1, 1}, {1, 1, 1, 1}), true, false, act, 40);
    ASSERT_NE(t, nullptr);
    std::unique_ptr<PreparedKernel> kernel = PrepareDepthwiseConvPlain(t->request);
    if (kernel == nullptr) GTEST_SKIP() << "no AVX-512 here";
    t->b.data<float>()[1] = std::nanf("");
    auto binding = kernel->NewBinding();
    ASSERT_TRUE(binding.ok());
    (*binding)->io.inputs[0] = t->x.raw_data();
    (*binding)->io.inputs[1] = t->w.raw_data();
    (*binding)->io.inputs[2] = t->b.raw_data();
    (*binding)->io.outputs[0] = t->y.raw_data();
    rt::TaskContext ctx;
    ASSERT_TRUE(kernel->fn()(binding->get(), ctx).ok());
    for (int64_t i = 0; i < t->y.numel(); ++i) {
      const bool nan_channel = i / 100 == 1;
      EXPECT_EQ(std::isnan(t->y.data<float>()[i]), nan_channel) << i;
    }
  }
}

TEST(DepthwiseConvPlainKernel, LargeShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  Check({1, 96, 112, 112}, {3, 3}, Window({2, 2}, {1, 1, 1, 1}), true, false, ConvAct::kNone, 900, pool->get());
  Check({1, 32, 112, 112}, {3, 3}, Window({1, 1}, {1, 1, 1, 1}), true, true, ConvAct::kClip, 901, pool->get());
  Check({2, 256, 500}, {31}, Window({1}, {15, 15}), true, false, ConvAct::kNone, 902, pool->get());
}

TEST(DepthwiseConvPlainKernel, OtherRequestsAreLeftToOthers) {
  auto t = MakeCase({1, 4, 9, 9}, {3, 3}, Window({1, 1}, {1, 1, 1, 1}), true, false, ConvAct::kNone, 7);
  ASSERT_NE(t, nullptr);
  if (PickLoopIsa(IsaLevel::kNone) != LoopIsa::kAvx512) GTEST_SKIP() << "no AVX-512 here";
  EXPECT_NE(PrepareDepthwiseConvPlain(t->request), nullptr);
  PrepareRequest v3 = t->request;
  v3.max_isa = IsaLevel::kX86_64_V3;  // an AVX2 target: oneDNN's kernels
  EXPECT_EQ(PrepareDepthwiseConvPlain(v3), nullptr);
  PrepareRequest nhwc = t->request;
  nhwc.input_descs[0].format = nhwc.output_descs[0].format = Format::kNHWC;
  EXPECT_EQ(PrepareDepthwiseConvPlain(nhwc), nullptr);
  PrepareRequest bf16 = t->request;
  bf16.allow_bf16 = true;
  EXPECT_EQ(PrepareDepthwiseConvPlain(bf16), nullptr);
  PrepareRequest varying = t->request;
  varying.const_inputs[1] = nullptr;  // weights that are not constant
  EXPECT_EQ(PrepareDepthwiseConvPlain(varying), nullptr);
  t->node->attrs().Set("group", ir::AttrValue::Int(2));  // grouped, not depthwise
  EXPECT_EQ(PrepareDepthwiseConvPlain(t->request), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
