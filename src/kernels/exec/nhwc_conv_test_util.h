// Test helpers for ge's own NHWC convolution kernels (nhwc_conv.h): random operands, the reference answer
// act(Conv(X, W) + B + Sum) from the reference kernels, the Conv / ge::FusedConv request over NHWC descs, and a
// binding of a prepared kernel to NHWC copies of the operands.
#pragma once
#include <memory>
#include <random>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/nhwc_conv.h"

namespace ge::exec::testing {

// Uniform floats in [-1, 1), one fixed seed per tensor.
inline Tensor RandomUnit(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, -1, 1);
}

inline TensorDesc NhwcDesc(const Dims& d) {
  TensorDesc t(DataType::kFloat, Shape(d));
  t.format = Format::kNHWC;
  return t;
}

struct NhwcConvTest {
  Tensor x, w, b, sum, want;  // logical NCHW; want = act(Conv(x, w) + b + sum), Clip to [-0.5, 2]
  Tensor xs, ss, ys;          // x and sum stored NHWC, and an NHWC output buffer
  bool bias = false, has_sum = false;
  std::unique_ptr<ir::Graph> graph;
  PrepareRequest request;

  // A binding of `k` to xs, w, b, ss -> ys (ss -> ss when sum_in_place).
  std::unique_ptr<KernelBinding> Bind(const PreparedKernel& k, bool sum_in_place = false) {
    auto binding = k.NewBinding();
    EXPECT_TRUE(binding.ok());
    if (!binding.ok()) return nullptr;
    (*binding)->io.inputs[0] = xs.raw_data();
    (*binding)->io.inputs[1] = w.raw_data();
    if (bias) (*binding)->io.inputs[2] = b.raw_data();
    if (has_sum) (*binding)->io.inputs[3] = ss.raw_data();
    (*binding)->io.outputs[0] = sum_in_place ? ss.raw_data() : ys.raw_data();
    return std::move(*binding);
  }
};

// `window`: the window attributes (pads or auto_pad, strides); W is [k, IC, kh, kw]. Fails the test (and returns
// nullptr) when the reference kernel fails.
inline std::unique_ptr<NhwcConvTest> MakeNhwcConvTest(const Dims& x_dims, int64_t k, int64_t kh, int64_t kw,
                                                      ir::AttrMap window, bool bias, bool sum, ConvAct act,
                                                      uint32_t seed) {
  auto t = std::make_unique<NhwcConvTest>();
  t->bias = bias;
  t->has_sum = sum;
  t->x = RandomUnit(x_dims, seed);
  t->w = RandomUnit({k, x_dims[1], kh, kw}, seed + 1);
  t->b = RandomUnit({k}, seed + 2);
  ir::AttrMap attrs = window;
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
  std::vector<ir::Value*> ins = {g.AddInput("x", NhwcDesc(x_dims)), g.AddConstant("w", t->w)};
  r.input_descs = {NhwcDesc(x_dims), TensorDesc(DataType::kFloat, Shape(t->w.dims()))};
  r.const_inputs = {nullptr, &t->w};
  if (bias || sum) {
    ins.push_back(bias ? g.AddConstant("b", t->b) : nullptr);
    r.input_descs.push_back(bias ? TensorDesc(DataType::kFloat, Shape({k})) : TensorDesc());
    r.const_inputs.push_back(bias ? &t->b : nullptr);
  }
  if (sum) {
    ins.push_back(g.AddInput("sum", NhwcDesc(yd)));
    r.input_descs.push_back(NhwcDesc(yd));
    r.const_inputs.push_back(nullptr);
  }
  r.output_descs = {NhwcDesc(yd)};
  ir::Node* node = g.AddNode(fused ? "FusedConv" : "Conv", "conv", ins, {g.AddValue("y", NhwcDesc(yd))},
                             fused ? "ge" : "");
  node->attrs() = attrs;
  r.node = node;
  t->xs = PermuteNchwNhwc(t->x, true);
  t->ss = PermuteNchwNhwc(t->sum, true);
  t->ys = Tensor::Create(DataType::kFloat, yd).value();
  return t;
}

}  // namespace ge::exec::testing
