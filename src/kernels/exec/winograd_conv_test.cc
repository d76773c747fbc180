// ge's Winograd F(2,3) kernel against the reference convolution: NHWC in and out, odd sizes (partial tiles),
// channel counts off the vector width and the 16-column panels, batch 2, bias, FusedConv's Sum and Relu; what it
// declines.
#include "kernels/exec/winograd_conv.h"

#include <gtest/gtest.h>

#include <random>

#include "base/testing/expect_match.h"
#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::exec::testing {
namespace {

// Uniform floats in [-1, 1), one fixed seed per tensor.
Tensor Random(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, -1, 1);
}

struct Case {
  Dims x;
  int64_t k;
  bool bias, sum, relu;
};

void Check(const Case& c, uint32_t seed) {
  Tensor x = Random(c.x, seed), w = Random({c.k, c.x[1], 3, 3}, seed + 1), b = Random({c.k}, seed + 2);
  const Dims yd = {c.x[0], c.k, c.x[2], c.x[3]};
  Tensor sum = Random(yd, seed + 3);
  ir::AttrMap attrs;
  attrs.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  ref::testing::OpTester nn(ops::RegisterNnOps, ref::RegisterNnRefKernels);
  auto base = nn.Run1("Conv", {x, w, c.bias ? b : Tensor()}, attrs);
  ASSERT_TRUE(base.ok()) << base.status().ToString();
  Tensor want = *base;
  for (int64_t i = 0; i < want.numel(); ++i) {
    float v = want.data<float>()[i] + (c.sum ? sum.data<float>()[i] : 0.f);
    want.data<float>()[i] = c.relu ? std::max(v, 0.f) : v;
  }
  const bool fused = c.sum || c.relu;
  if (c.relu) attrs.Set("activation", ir::AttrValue::String("Relu"));
  ir::Graph g("g");
  PrepareRequest r;
  auto nhwc = [](const Dims& d) {
    TensorDesc t(DataType::kFloat, Shape(d));
    t.format = Format::kNHWC;
    return t;
  };
  std::vector<ir::Value*> ins = {g.AddInput("x", nhwc(c.x)), g.AddConstant("w", w)};
  r.input_descs = {nhwc(c.x), TensorDesc(DataType::kFloat, Shape(w.dims()))};
  r.const_inputs = {nullptr, &w};
  if (c.bias || c.sum) {
    ins.push_back(c.bias ? g.AddConstant("b", b) : nullptr);
    r.input_descs.push_back(c.bias ? TensorDesc(DataType::kFloat, Shape({c.k})) : TensorDesc());
    r.const_inputs.push_back(c.bias ? &b : nullptr);
  }
  if (c.sum) {
    ins.push_back(g.AddInput("sum", nhwc(yd)));
    r.input_descs.push_back(nhwc(yd));
    r.const_inputs.push_back(nullptr);
  }
  r.output_descs = {nhwc(yd)};
  ir::Node* node = g.AddNode(fused ? "FusedConv" : "Conv", "conv", ins, {g.AddValue("y", nhwc(yd))}, fused ? "ge" : "");
  node->attrs() = attrs;
  r.node = node;
  std::unique_ptr<PreparedKernel> k = PrepareWinogradConv(r);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->impl_name(), "exec.winograd_f23_avx2");
  Tensor xs = PermuteNchwNhwc(x, true), ss = PermuteNchwNhwc(sum, true);
  Tensor ys = Tensor::Create(DataType::kFloat, yd).value();
  auto binding = k->NewBinding();
  ASSERT_TRUE(binding.ok());
  (*binding)->io.inputs[0] = xs.raw_data();
  if (c.sum) (*binding)->io.inputs[3] = ss.raw_data();
  (*binding)->io.outputs[0] = ys.raw_data();
  rt::TaskContext ctx;
  ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
  EXPECT_TRUE(TensorsMatch(PermuteNchwNhwc(ys, false), want, Tolerance{1e-4, 1e-4}))
      << DimsToString(c.x) << " k " << c.k;
}

TEST(WinogradConv, MatchesTheDirectConvolution) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  const Case cases[] = {
      {{1, 16, 8, 8}, 16, false, false, false},  {{1, 13, 7, 9}, 20, true, false, false},
      {{2, 32, 5, 6}, 33, true, true, true},      {{1, 8, 1, 1}, 8, true, false, true},
      {{1, 64, 14, 14}, 64, true, true, false},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) Check(c, seed += 10);
}

TEST(WinogradConv, Declines) {
  Tensor w = Random({8, 8, 3, 3}, 1);
  ir::Graph g("g");
  TensorDesc plain(DataType::kFloat, Shape({1, 8, 6, 6}));
  PrepareRequest r;
  r.input_descs = {plain, TensorDesc(DataType::kFloat, Shape(w.dims()))};
  r.const_inputs = {nullptr, &w};
  r.output_descs = {plain};
  ir::Node* node = g.AddNode("Conv", "conv", {g.AddInput("x", plain), g.AddConstant("w", w)}, {g.AddValue("y", plain)});
  node->attrs().Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  r.node = node;
  EXPECT_EQ(PrepareWinogradConv(r), nullptr);  // plain NCHW
  node->attrs().Set("strides", ir::AttrValue::Ints({2, 2}));
  EXPECT_EQ(PrepareWinogradConv(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
