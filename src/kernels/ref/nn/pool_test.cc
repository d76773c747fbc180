#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::nn {
namespace {

using ge::ref::testing::OpTester;

OpTester Tester() { return OpTester(ge::ops::RegisterNnOps, ge::ref::RegisterNnRefKernels); }

std::vector<float> Iota(int n, float start = 0) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + i;
  return v;
}

ir::AttrMap Kernel(std::vector<int64_t> k) {
  ir::AttrMap a;
  a.Set("kernel_shape", ir::AttrValue::Ints(std::move(k)));
  return a;
}

TEST(NnMaxPool, PadsStridesCeilAndIndices) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(25, 1), {1, 1, 5, 5});
  ir::AttrMap a = Kernel({5, 5});
  a.Set("pads", ir::AttrValue::Ints({2, 2, 2, 2}));
  auto y = t.Run1("MaxPool", {x}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25, 25, 25,
                                                      23, 24, 25, 25, 25, 23, 24, 25, 25, 25}, {1, 1, 5, 5}), 0.0));
  // Indices with storage_order = 1 (column-major), from the ONNX argmax example.
  ir::AttrMap s = Kernel({2, 2});
  s.Set("strides", ir::AttrValue::Ints({2, 2}));
  s.Set("storage_order", ir::AttrValue::Int(1));
  auto outs = t.Run("MaxPool", {x}, s, 2);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({7, 9, 17, 19}, {1, 1, 2, 2}), 0.0));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<int64_t>({6, 16, 8, 18}, {1, 1, 2, 2}), 0.0));
  // ceil_mode: 4x4 input, 3x3 kernel, stride 2 -> 2x2.
  ir::AttrMap c = Kernel({3, 3});
  c.Set("strides", ir::AttrValue::Ints({2, 2}));
  c.Set("ceil_mode", ir::AttrValue::Int(1));
  y = t.Run1("MaxPool", {Tensor::FromVector<float>(Iota(16, 1), {1, 1, 4, 4})}, c);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({11, 12, 15, 16}, {1, 1, 2, 2}), 0.0));
}

TEST(NnMaxPool, DilationsUint8AndBatchIndices) {
  auto t = Tester();
  ir::AttrMap d = Kernel({2, 2});
  d.Set("dilations", ir::AttrValue::Ints({2, 2}));
  auto y = t.Run1("MaxPool", {Tensor::FromVector<float>(Iota(16, 1), {1, 1, 4, 4})}, d);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({11, 12, 15, 16}, {1, 1, 2, 2}), 0.0));
  std::vector<uint8_t> u = {1, 200, 3, 4};
  auto yu = t.Run1("MaxPool", {Tensor::FromVector(u, {1, 1, 2, 2})}, Kernel({2, 2}));
  ASSERT_TRUE(yu.ok());
  EXPECT_EQ(yu->data<uint8_t>()[0], 200);
  // Indices include the (n, c) plane offset.
  auto outs = t.Run("MaxPool", {Tensor::FromVector<float>({1, 2, 4, 3}, {1, 2, 2, 1})}, Kernel({2, 1}), 2);
  ASSERT_TRUE(outs.ok());
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<int64_t>({1, 2}, {1, 2, 1, 1}), 0.0));
}

TEST(NnAveragePool, CountIncludePadAndSame) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(25, 1), {1, 1, 5, 5});
  ir::AttrMap a = Kernel({3, 3});
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  auto y = t.Run1("AveragePool", {x}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_FLOAT_EQ(y->data<float>()[0], (1 + 2 + 6 + 7) / 4.0f);
  a.Set("count_include_pad", ir::AttrValue::Int(1));
  y = t.Run1("AveragePool", {x}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_FLOAT_EQ(y->data<float>()[0], (1 + 2 + 6 + 7) / 9.0f);
  ir::AttrMap s = Kernel({2, 2});
  s.Set("auto_pad", ir::AttrValue::String("SAME_UPPER"));
  y = t.Run1("AveragePool", {Tensor::FromVector<float>(Iota(4, 1), {1, 1, 2, 2})}, s);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({2.5f, 3, 3.5f, 4}, {1, 1, 2, 2}), 0.0));
  // 1-D and double
  auto yd = t.Run1("AveragePool", {Tensor::FromVector<double>({1, 2, 3, 4}, {1, 1, 4})}, Kernel({2}));
  ASSERT_TRUE(yd.ok());
  EXPECT_TRUE(TensorsMatch(*yd, Tensor::FromVector<double>({1.5, 2.5, 3.5}, {1, 1, 3}), 0.0));
}

TEST(NnPool, LpGlobalAndErrors) {
  auto t = Tester();
  ir::AttrMap a = Kernel({2});
  auto y = t.Run1("LpPool", {Tensor::FromVector<float>({3, 4, 0}, {1, 1, 3})}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({5, 4}, {1, 1, 2}), 0.0));
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, -1, -2, -3, -4}, {1, 2, 2, 2});
  auto ga = t.Run1("GlobalAveragePool", {x});
  ASSERT_TRUE(ga.ok());
  EXPECT_TRUE(TensorsMatch(*ga, Tensor::FromVector<float>({2.5f, -2.5f}, {1, 2, 1, 1}), 0.0));
  auto gm = t.Run1("GlobalMaxPool", {x});
  ASSERT_TRUE(gm.ok());
  EXPECT_TRUE(TensorsMatch(*gm, Tensor::FromVector<float>({4, -1}, {1, 2, 1, 1}), 0.0));
  auto gl = t.Run1("GlobalLpPool", {x});
  ASSERT_TRUE(gl.ok());
  EXPECT_NEAR(gl->data<float>()[0], std::sqrt(30.f), 1e-5);
  EXPECT_FALSE(t.Run1("MaxPool", {x}).ok());                        // no kernel_shape
  EXPECT_FALSE(t.Run1("MaxPool", {x}, Kernel({3, 3})).ok());        // window larger than input
  EXPECT_FALSE(t.Run1("AveragePool", {Tensor::FromVector<int32_t>({1}, {1, 1, 1})}, Kernel({1})).ok());
}

TEST(NnMaxUnpool, WithAndWithoutOutputShape) {
  auto t = Tester();
  ir::AttrMap a = Kernel({2, 2});
  a.Set("strides", ir::AttrValue::Ints({2, 2}));
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  Tensor i = Tensor::FromVector<int64_t>({5, 7, 13, 15}, {1, 1, 2, 2});
  auto y = t.Run1("MaxUnpool", {x, i}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}, {1, 1, 4, 4}), 0.0));
  y = t.Run1("MaxUnpool", {x, i, Tensor::FromVector<int64_t>({1, 1, 5, 5}, {4})}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->dims(), (Dims{1, 1, 5, 5}));
  // Indices address the default 4x4 result, which is padded at the end to 5x5.
  EXPECT_EQ(y->data<float>()[6], 1.f);
  EXPECT_EQ(y->data<float>()[18], 4.f);
  EXPECT_FALSE(t.Run1("MaxUnpool", {x, i, Tensor::FromVector<int64_t>({1, 1, 3, 3}, {4})}, a).ok());
  EXPECT_FALSE(t.Run1("MaxUnpool", {x, Tensor::FromVector<int64_t>({5, 7, 13, 16}, {1, 1, 2, 2})}, a).ok());
}

TEST(NnPool, InferenceWithUnknownDims) {
  auto t = Tester();
  const ops::OpSchema* s = t.op_registry().Find("", "MaxPool");
  ir::AttrMap a = Kernel({3, 3});
  a.Set("strides", ir::AttrValue::Ints({2, 2}));
  a.Set("auto_pad", ir::AttrValue::String("SAME_UPPER"));
  TensorDesc x(DataType::kFloat, Shape({kUnknownDim, 64, 112, kUnknownDim}));
  ops::InferContext ctx;
  ctx.attrs = &a;
  ctx.op_type = "MaxPool";
  ctx.inputs = {&x};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(2);
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, 64, 56, kUnknownDim}));
  EXPECT_EQ(ctx.outputs[1].dtype, DataType::kInt64);
}

}  // namespace
}  // namespace ge::ref::nn
