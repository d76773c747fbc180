#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester Tester() { return OpTester(ops::RegisterMathOps, RegisterMathRefKernels); }

TEST(DftTest, PowerOfTwoAndDirectLengths) {
  auto t = Tester();
  auto y = t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 4}, {1, 4, 1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({10, 0, -2, 2, -2, 0, -2, -2}, {1, 4, 2}), 1e-6));
  auto y3 = t.Run1("DFT", {Tensor::FromVector<double>({1, 2, 3}, {1, 3, 1})});
  ASSERT_TRUE(y3.ok());
  const double s = std::sqrt(3.0) / 2;
  EXPECT_TRUE(TensorsMatch(*y3, Tensor::FromVector<double>({6, 0, -1.5, s, -1.5, -s}, {1, 3, 2}), 1e-12));
}

TEST(DftTest, InverseRoundTripOnesidedAndLength) {
  auto t = Tester();
  Tensor spec = Tensor::FromVector<float>({10, 0, -2, 2, -2, 0, -2, -2}, {1, 4, 2});
  ir::AttrMap inv;
  inv.Set("inverse", ir::AttrValue::Int(1));
  auto x = t.Run1("DFT", {spec}, inv);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_TRUE(TensorsMatch(*x, Tensor::FromVector<float>({1, 0, 2, 0, 3, 0, 4, 0}, {1, 4, 2}), 1e-6));

  ir::AttrMap one;
  one.Set("onesided", ir::AttrValue::Int(1));
  auto h = t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 4}, {1, 4, 1})}, one);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->dims(), (Dims{1, 3, 2}));
  // dft_length 6 zero-pads [1,2,3,4] (DC = 10); dft_length 2 truncates to [1,2] -> [3, -1].
  auto p = t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 4}, {1, 4, 1}), Tensor::Scalar<int64_t>(6)});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->dims(), (Dims{1, 6, 2}));
  EXPECT_NEAR(p->data<float>()[0], 10.f, 1e-6);
  auto tr = t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 4}, {1, 4, 1}), Tensor::Scalar<int32_t>(2)});
  ASSERT_TRUE(tr.ok());
  EXPECT_TRUE(TensorsMatch(*tr, Tensor::FromVector<float>({3, 0, -1, 0}, {1, 2, 2}), 1e-6));
}

TEST(DftTest, AxisSelectsDimension) {
  auto t = Tester();
  // [1, 2, 2, 1]: along axis 2 each row [a, b] -> [a+b, a-b].
  ir::AttrMap a;
  a.Set("axis", ir::AttrValue::Int(2));
  auto y = t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 5}, {1, 2, 2, 1})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({3, 0, -1, 0, 8, 0, -2, 0}, {1, 2, 2, 2}), 1e-6));
  a.Set("axis", ir::AttrValue::Int(3));
  EXPECT_FALSE(t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3, 5}, {1, 2, 2, 1})}, a).ok());
  EXPECT_FALSE(t.Run1("DFT", {Tensor::FromVector<float>({1, 2, 3}, {1, 1, 3})}).ok());  // last dim 3
}

TEST(StftTest, FramesMatchDft) {
  auto t = Tester();
  std::vector<float> sig(16);
  for (int i = 0; i < 16; ++i) sig[i] = static_cast<float>(i);
  auto y = t.Run1("STFT", {Tensor::FromVector<float>(sig, {1, 16, 1}), Tensor::Scalar<int64_t>(4), Tensor(),
                           Tensor::Scalar<int64_t>(8)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ASSERT_EQ(y->dims(), (Dims{1, 3, 5, 2}));
  EXPECT_NEAR(y->data<float>()[0], 28.f, 1e-5);
  EXPECT_NEAR(y->data<float>()[10], 60.f, 1e-5);
  // A window of ones of length 8 gives the same result.
  auto yw = t.Run1("STFT", {Tensor::FromVector<float>(sig, {1, 16, 1}), Tensor::Scalar<int64_t>(4),
                            Tensor::FromVector<float>(std::vector<float>(8, 1.f), {8})});
  ASSERT_TRUE(yw.ok());
  EXPECT_TRUE(TensorsMatch(*yw, *y, 1e-6));
  EXPECT_FALSE(t.Run1("STFT", {Tensor::FromVector<float>(sig, {1, 16, 1}), Tensor::Scalar<int64_t>(0), Tensor(),
                               Tensor::Scalar<int64_t>(8)}).ok());
}

TEST(WindowTest, HannHammingBlackman) {
  auto t = Tester();
  auto hann = t.Run1("HannWindow", {Tensor::Scalar<int64_t>(4)});
  ASSERT_TRUE(hann.ok()) << hann.status().ToString();
  EXPECT_TRUE(TensorsMatch(*hann, Tensor::FromVector<float>({0, 0.5f, 1, 0.5f}, {4}), 1e-7));
  ir::AttrMap sym;
  sym.Set("periodic", ir::AttrValue::Int(0));
  auto hs = t.Run1("HannWindow", {Tensor::Scalar<int32_t>(5)}, sym);
  ASSERT_TRUE(hs.ok());
  EXPECT_TRUE(TensorsMatch(*hs, Tensor::FromVector<float>({0, 0.5f, 1, 0.5f, 0}, {5}), 1e-7));
  auto ham = t.Run1("HammingWindow", {Tensor::Scalar<int64_t>(2)});
  ASSERT_TRUE(ham.ok());
  EXPECT_NEAR(ham->data<float>()[0], 4.0 / 46.0, 1e-7);
  EXPECT_NEAR(ham->data<float>()[1], 1.0, 1e-7);
  sym.Set("output_datatype", ir::AttrValue::Int(11));
  auto bl = t.Run1("BlackmanWindow", {Tensor::Scalar<int64_t>(3)}, sym);
  ASSERT_TRUE(bl.ok());
  EXPECT_EQ(bl->dtype(), DataType::kDouble);
  EXPECT_NEAR(bl->data<double>()[1], 1.0, 1e-12);
  EXPECT_NEAR(bl->data<double>()[0], 0.0, 1e-12);
  EXPECT_FALSE(t.Run1("HannWindow", {Tensor::Scalar<int64_t>(-1)}).ok());
  EXPECT_FALSE(t.Run1("HannWindow", {Tensor::Scalar<float>(4)}).ok());
}

TEST(MelWeightMatrixTest, SpecExample) {
  auto t = Tester();
  auto y = t.Run1("MelWeightMatrix", {Tensor::Scalar<int32_t>(8), Tensor::Scalar<int32_t>(16), Tensor::Scalar<int32_t>(8192),
                                      Tensor::Scalar<float>(0), Tensor::Scalar<float>(4096)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  std::vector<float> want(9 * 8, 0.f);
  const int ones[][2] = {{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}};
  for (auto& rc : ones) want[rc[0] * 8 + rc[1]] = 1.f;
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>(want, {9, 8}), 0.0));
  EXPECT_FALSE(t.Run1("MelWeightMatrix", {Tensor::Scalar<int32_t>(0), Tensor::Scalar<int32_t>(16), Tensor::Scalar<int32_t>(8192),
                                          Tensor::Scalar<float>(0), Tensor::Scalar<float>(4096)}).ok());
}

TEST(SignalInferenceTest, UnknownInputs) {
  ops::OpRegistry reg;
  ops::RegisterMathOps(&reg);
  TensorDesc x(DataType::kFloat, Shape({kUnknownDim, 10, kUnknownDim, 1})), len(DataType::kInt64, Shape());
  ops::InferContext ctx;
  ir::AttrMap attrs;
  attrs.Set("onesided", ir::AttrValue::Int(1));
  ctx.attrs = &attrs;
  ctx.inputs = {&x};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "DFT"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, 6, kUnknownDim, 2}));
  ctx.inputs = {&x, &len};
  ctx.input_values = {nullptr, nullptr};
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "DFT"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, kUnknownDim, kUnknownDim, 2}));
  TensorDesc size(DataType::kInt32, Shape());
  ctx.inputs = {&size};
  ctx.input_values = {nullptr};
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "HannWindow"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim}));
}

}  // namespace
}  // namespace ge::ref
