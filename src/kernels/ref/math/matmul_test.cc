#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "kernels/ref/families.h"
#include "kernels/ref/math/gemm.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester Tester() { return OpTester(ops::RegisterMathOps, RegisterMathRefKernels); }

std::vector<float> Iota(int64_t n, float start = 0.f, float step = 1.f) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * i;
  return v;
}

// Naive a[M,K] @ b[K,N] in double.
std::vector<double> Naive(const std::vector<float>& a, const std::vector<float>& b, int64_t m, int64_t n, int64_t k) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += static_cast<double>(a[i * k + p]) * b[p * n + j];
  return c;
}

TEST(MatMulTest, TwoByTwo) {
  auto t = Tester();
  auto y = t.Run1("MatMul", {Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2}), Tensor::FromVector<float>({5, 6, 7, 8}, {2, 2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({19, 22, 43, 50}, {2, 2}), 0.0));
}

TEST(MatMulTest, VectorOperandsDropDims) {
  auto t = Tester();
  Tensor v = Tensor::FromVector<float>({1, 2, 3}, {3});
  Tensor m = Tensor::FromVector<float>(Iota(6), {3, 2});
  auto y = t.Run1("MatMul", {v, m});  // [3] @ [3,2] -> [2]
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({16, 22}, {2}), 0.0));
  auto y2 = t.Run1("MatMul", {Tensor::FromVector<float>(Iota(6), {2, 3}), v});  // [2,3] @ [3] -> [2]
  ASSERT_TRUE(y2.ok());
  EXPECT_TRUE(TensorsMatch(*y2, Tensor::FromVector<float>({8, 26}, {2}), 0.0));
  auto y3 = t.Run1("MatMul", {v, v});  // dot -> scalar
  ASSERT_TRUE(y3.ok());
  EXPECT_EQ(y3->rank(), 0);
  EXPECT_EQ(y3->data<float>()[0], 14.f);
}

TEST(MatMulTest, BatchBroadcast) {
  auto t = Tester();
  // a [2,1,2,3], b [3,3,2] -> [2,3,2,2]
  std::vector<float> av = Iota(12, -3.f, 0.5f), bv = Iota(18, 1.f, -0.25f);
  auto y = t.Run1("MatMul", {Tensor::FromVector<float>(av, {2, 1, 2, 3}), Tensor::FromVector<float>(bv, {3, 3, 2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ASSERT_EQ(y->dims(), (Dims{2, 3, 2, 2}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      std::vector<float> a(av.begin() + i * 6, av.begin() + i * 6 + 6), b(bv.begin() + j * 6, bv.begin() + j * 6 + 6);
      auto want = Naive(a, b, 2, 2, 3);
      for (int e = 0; e < 4; ++e) EXPECT_NEAR(y->data<float>()[(i * 3 + j) * 4 + e], want[e], 1e-5);
    }
}

TEST(MatMulTest, LargeMatchesNaiveAndFoldsBatch) {
  auto t = Tester();
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  const int64_t B = 3, M = 37, K = 301, N = 70;
  std::vector<float> a(B * M * K), b(K * N);
  for (auto& v : a) v = dist(rng);
  for (auto& v : b) v = dist(rng);
  auto y = t.Run1("MatMul", {Tensor::FromVector<float>(a, {B, M, K}), Tensor::FromVector<float>(b, {K, N})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  auto want = Naive(a, b, B * M, N, K);
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({want.begin(), want.end()}, {B, M, N}), 1e-4));
}

TEST(MatMulTest, DtypeVariants) {
  auto t = Tester();
  auto yd = t.Run1("MatMul", {Tensor::FromVector<double>({1, 2, 3, 4}, {2, 2}), Tensor::FromVector<double>({1, 0, 0, 1}, {2, 2})});
  ASSERT_TRUE(yd.ok());
  EXPECT_TRUE(TensorsMatch(*yd, Tensor::FromVector<double>({1, 2, 3, 4}, {2, 2}), 0.0));
  auto yi = t.Run1("MatMul", {Tensor::FromVector<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3}), Tensor::FromVector<int64_t>({1, 2, 3}, {3, 1})});
  ASSERT_TRUE(yi.ok());
  EXPECT_TRUE(TensorsMatch(*yi, Tensor::FromVector<int64_t>({14, 32}, {2, 1}), 0.0));
  auto yu = t.Run1("MatMul", {Tensor::FromVector<uint32_t>({2, 3}, {1, 2}), Tensor::FromVector<uint32_t>({4, 5}, {2, 1})});
  ASSERT_TRUE(yu.ok());
  EXPECT_EQ(yu->data<uint32_t>()[0], 23u);
  std::vector<float16> h = {float16(1.5f), float16(2.f), float16(-1.f), float16(0.5f)};
  auto yh = t.Run1("MatMul", {Tensor::FromVector<float16>(h, {2, 2}), Tensor::FromVector<float16>(h, {2, 2})});
  ASSERT_TRUE(yh.ok());
  EXPECT_EQ(yh->dtype(), DataType::kFloat16);
  EXPECT_FLOAT_EQ(static_cast<float>(yh->data<float16>()[0]), 1.5f * 1.5f - 2.f);
  std::vector<bfloat16> bh = {bfloat16(1.f), bfloat16(2.f)};
  auto yb = t.Run1("MatMul", {Tensor::FromVector<bfloat16>(bh, {1, 2}), Tensor::FromVector<bfloat16>(bh, {2, 1})});
  ASSERT_TRUE(yb.ok());
  EXPECT_FLOAT_EQ(static_cast<float>(yb->data<bfloat16>()[0]), 5.f);
}

TEST(MatMulTest, BadInputs) {
  auto t = Tester();
  EXPECT_FALSE(t.Run1("MatMul", {Tensor::FromVector<float>(Iota(6), {2, 3}), Tensor::FromVector<float>(Iota(6), {2, 3})}).ok());
  EXPECT_FALSE(t.Run1("MatMul", {Tensor::Scalar<float>(1), Tensor::Scalar<float>(2)}).ok());
  EXPECT_FALSE(t.Run1("MatMul", {Tensor::FromVector<float>({1}, {1, 1}), Tensor::FromVector<double>({1}, {1, 1})}).ok());
  EXPECT_FALSE(t.Run1("MatMul", {Tensor::FromVector<int8_t>({1}, {1, 1}), Tensor::FromVector<int8_t>({1}, {1, 1})}).ok());
  // Batch dims that do not broadcast.
  EXPECT_FALSE(t.Run1("MatMul", {Tensor::FromVector<float>(Iota(8), {2, 2, 2}), Tensor::FromVector<float>(Iota(12), {3, 2, 2})}).ok());
}

TEST(MatMulTest, InferenceWithUnknownDims) {
  ops::OpRegistry reg;
  ops::RegisterMathOps(&reg);
  const ops::OpSchema* s = reg.Find("", "MatMul");
  ASSERT_NE(s, nullptr);
  Shape a({kUnknownDim, kUnknownDim, 64});
  a.set_symbol(0, "batch");
  TensorDesc da(DataType::kFloat, a), db(DataType::kFloat, Shape({64, 10}));
  ops::InferContext ctx;
  ir::AttrMap attrs;
  ctx.attrs = &attrs;
  ctx.inputs = {&da, &db};
  ctx.input_values = {nullptr, nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  ASSERT_EQ(ctx.outputs[0].shape.rank(), 3);
  EXPECT_EQ(ctx.outputs[0].shape.dim(1), kUnknownDim);
  EXPECT_EQ(ctx.outputs[0].shape.symbol(0), "batch");
  EXPECT_EQ(ctx.outputs[0].shape.dim(2), 10);
  TensorDesc du(DataType::kFloat, Shape::UnknownRank());
  ctx.inputs = {&du, &db};
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  EXPECT_TRUE(ctx.outputs[0].shape.unknown_rank());
  TensorDesc bad(DataType::kFloat, Shape({63, 10}));
  ctx.inputs = {&da, &bad};
  EXPECT_FALSE(ops::RunInference(*s, ctx).ok());
}

TEST(GemmTest, AllAttributes) {
  auto t = Tester();
  ir::AttrMap attrs;
  attrs.Set("transA", ir::AttrValue::Int(1));
  attrs.Set("transB", ir::AttrValue::Int(1));
  attrs.Set("alpha", ir::AttrValue::Float(0.5f));
  attrs.Set("beta", ir::AttrValue::Float(2.f));
  // A^T = [[1,2],[3,4],[5,6]] stored as A [2,3]; B^T = [[1,0],[0,1]]... B [2,2]
  Tensor a = Tensor::FromVector<float>({1, 3, 5, 2, 4, 6}, {2, 3});
  Tensor b = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});  // op(B) = [[1,3],[2,4]]
  Tensor c = Tensor::FromVector<float>({1, -1}, {2});        // broadcast over rows
  auto y = t.Run1("Gemm", {a, b, c}, attrs);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // op(A) @ op(B) = [[5,11],[11,25],[17,39]]; *0.5 + 2*[1,-1]
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({4.5f, 3.5f, 7.5f, 10.5f, 10.5f, 17.5f}, {3, 2}), 0.0));
}

TEST(GemmTest, NoBiasScalarBiasAndDtypes) {
  auto t = Tester();
  Tensor a = Tensor::FromVector<double>({1, 2, 3, 4}, {2, 2});
  auto y = t.Run1("Gemm", {a, a});
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<double>({7, 10, 15, 22}, {2, 2}), 0.0));
  auto y2 = t.Run1("Gemm", {a, a, Tensor::Scalar<double>(1)});
  ASSERT_TRUE(y2.ok());
  EXPECT_TRUE(TensorsMatch(*y2, Tensor::FromVector<double>({8, 11, 16, 23}, {2, 2}), 0.0));
  auto yi = t.Run1("Gemm", {Tensor::FromVector<int32_t>({1, 2}, {1, 2}), Tensor::FromVector<int32_t>({3, 4}, {2, 1}),
                            Tensor::FromVector<int32_t>({5}, {1, 1})});
  ASSERT_TRUE(yi.ok());
  EXPECT_EQ(yi->data<int32_t>()[0], 16);
}

TEST(GemmTest, BadInputs) {
  auto t = Tester();
  Tensor a = Tensor::FromVector<float>(Iota(6), {2, 3});
  EXPECT_FALSE(t.Run1("Gemm", {a, a}).ok());  // inner dims differ
  EXPECT_FALSE(t.Run1("Gemm", {a, Tensor::FromVector<float>(Iota(6), {3, 2}), Tensor::FromVector<float>(Iota(3), {3})}).ok());
  EXPECT_FALSE(t.Run1("Gemm", {Tensor::FromVector<float>(Iota(6), {6}), a}).ok());
}

TEST(DetTest, Values) {
  auto t = Tester();
  auto y = t.Run1("Det", {Tensor::FromVector<float>({1, 2, 3, 4, 1, 2, 2, 1, 0, 0, 1, 0}, {3, 2, 2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{3}));
  EXPECT_NEAR(y->data<float>()[0], -2.f, 1e-6);
  EXPECT_NEAR(y->data<float>()[1], -3.f, 1e-6);
  EXPECT_NEAR(y->data<float>()[2], 0.f, 1e-6);
  auto y3 = t.Run1("Det", {Tensor::FromVector<double>({2, 0, 1, 1, 3, 2, 1, 1, 1}, {3, 3})});
  ASSERT_TRUE(y3.ok());
  EXPECT_NEAR(y3->data<double>()[0], 2 * (3 - 2) - 0 + 1 * (1 - 3), 1e-12);
  EXPECT_FALSE(t.Run1("Det", {Tensor::FromVector<float>(Iota(6), {2, 3})}).ok());
}

}  // namespace
}  // namespace ge::ref
