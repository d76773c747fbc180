#include <gtest/gtest.h>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester Tester() { return OpTester(ops::RegisterMathOps, RegisterMathRefKernels); }

TEST(QuantizeLinearTest, PerTensorRoundsHalfToEven) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({0, 2, 3, 1000, -254, -1000, 1, 5}, {8});
  auto y = t.Run1("QuantizeLinear", {x, Tensor::Scalar<float>(2), Tensor::Scalar<uint8_t>(128)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // 1/2 -> 0 and 5/2 -> 2 (half to even); 3/2 -> 2.
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<uint8_t>({128, 129, 130, 255, 1, 0, 128, 130}, {8}), 0.0));
  auto y8 = t.Run1("QuantizeLinear", {x, Tensor::Scalar<float>(2), Tensor::Scalar<int8_t>(-1)});
  ASSERT_TRUE(y8.ok());
  EXPECT_TRUE(TensorsMatch(*y8, Tensor::FromVector<int8_t>({-1, 0, 1, 127, -128, -128, -1, 1}, {8}), 0.0));
  auto ydef = t.Run1("QuantizeLinear", {Tensor::FromVector<float>({-1, 3}, {2}), Tensor::Scalar<float>(1)});
  ASSERT_TRUE(ydef.ok());
  EXPECT_EQ(ydef->dtype(), DataType::kUint8);
  EXPECT_TRUE(TensorsMatch(*ydef, Tensor::FromVector<uint8_t>({0, 3}, {2}), 0.0));
}

TEST(QuantizeLinearTest, PerAxis) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({0, 2, 3, 1000, -254, -1000, 1, 5, 9, 10, 11, 12}, {1, 3, 4});
  Tensor scale = Tensor::FromVector<float>({1, 2, 4}, {3});
  Tensor zp = Tensor::FromVector<uint8_t>({84, 24, 196}, {3});
  auto y = t.Run1("QuantizeLinear", {x, scale, zp});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<uint8_t>({84, 86, 87, 255, 0, 0, 24, 26, 198, 198, 199, 199}, {1, 3, 4}), 0.0));
  ir::AttrMap attrs;
  attrs.Set("axis", ir::AttrValue::Int(2));
  EXPECT_FALSE(t.Run1("QuantizeLinear", {x, scale, zp}, attrs).ok());  // 3 scales for an axis of 4
}

TEST(DequantizeLinearTest, PerTensorAndPerAxis) {
  auto t = Tester();
  auto y = t.Run1("DequantizeLinear", {Tensor::FromVector<uint8_t>({0, 3, 128, 255}, {4}), Tensor::Scalar<float>(2),
                                       Tensor::Scalar<uint8_t>(128)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({-256, -250, 0, 254}, {4}), 0.0));
  auto ya = t.Run1("DequantizeLinear", {Tensor::FromVector<int8_t>({1, 2, 3, 4}, {2, 2}), Tensor::FromVector<float>({1, 10}, {2}),
                                        Tensor::FromVector<int8_t>({0, 1}, {2})});
  ASSERT_TRUE(ya.ok());
  EXPECT_TRUE(TensorsMatch(*ya, Tensor::FromVector<float>({1, 10, 3, 30}, {2, 2}), 0.0));
  auto yi = t.Run1("DequantizeLinear", {Tensor::FromVector<int32_t>({-5, 7}, {2}), Tensor::Scalar<float>(0.5f)});
  ASSERT_TRUE(yi.ok());
  EXPECT_TRUE(TensorsMatch(*yi, Tensor::FromVector<float>({-2.5f, 3.5f}, {2}), 0.0));
  EXPECT_FALSE(t.Run1("DequantizeLinear", {Tensor::FromVector<float>({1}, {1}), Tensor::Scalar<float>(1)}).ok());
  EXPECT_FALSE(t.Run1("DequantizeLinear", {Tensor::FromVector<uint8_t>({1}, {1}), Tensor::Scalar<float>(1),
                                           Tensor::Scalar<int8_t>(0)}).ok());
}

TEST(DynamicQuantizeLinearTest, SpecExamples) {
  auto t = Tester();
  auto out = t.Run("DynamicQuantizeLinear", {Tensor::FromVector<float>({0, 2, -3, -2.5f, 1.34f, 0.5f}, {6})}, {}, 3);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(TensorsMatch((*out)[0].tensor, Tensor::FromVector<uint8_t>({153, 255, 0, 26, 221, 179}, {6}), 0.0));
  EXPECT_NEAR((*out)[1].tensor.data<float>()[0], 0.0196078438f, 1e-9);
  EXPECT_EQ((*out)[2].tensor.data<uint8_t>()[0], 153);
  auto zeros = t.Run("DynamicQuantizeLinear", {Tensor::FromVector<float>({0, 0}, {2})}, {}, 3);
  ASSERT_TRUE(zeros.ok());
  EXPECT_EQ((*zeros)[1].tensor.data<float>()[0], 0.f);
}

TEST(MatMulIntegerTest, SpecExampleAndPerRowZeroPoint) {
  auto t = Tester();
  Tensor a = Tensor::FromVector<uint8_t>({11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}, {4, 3});
  Tensor b = Tensor::FromVector<uint8_t>({1, 4, 2, 5, 3, 6}, {3, 2});
  auto y = t.Run1("MatMulInteger", {a, b, Tensor::FromVector<uint8_t>({12}, {1}), Tensor::FromVector<uint8_t>({0}, {1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<int32_t>({-38, -83, -44, -98, -50, -113, -56, -128}, {4, 2}), 0.0));
  // Per-row a zero point [M] and per-column b zero point [N].
  auto y2 = t.Run1("MatMulInteger", {a, b, Tensor::FromVector<uint8_t>({12, 0, 0, 0}, {4}), Tensor::FromVector<uint8_t>({1, 0}, {2})});
  ASSERT_TRUE(y2.ok()) << y2.status().ToString();
  // Row 0: (a-12) @ (b - [1,0]) = [-1,-5,-9] @ [[0,4],[1,5],[2,6]] = [-23, -83]
  EXPECT_EQ(y2->data<int32_t>()[0], -23);
  EXPECT_EQ(y2->data<int32_t>()[1], -83);
  // Row 1: [10,6,2] @ ... = [10, 98]
  EXPECT_EQ(y2->data<int32_t>()[2], 10);
  EXPECT_FALSE(t.Run1("MatMulInteger", {a, b, Tensor::FromVector<uint8_t>({1, 2, 3}, {3})}).ok());
}

TEST(QLinearMatMulTest, SpecExample) {
  auto t = Tester();
  Tensor a = Tensor::FromVector<uint8_t>({208, 236, 0, 238, 3, 214, 255, 29}, {2, 4});
  Tensor b = Tensor::FromVector<uint8_t>({152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247}, {4, 3});
  auto y = t.Run1("QLinearMatMul",
                  {a, Tensor::FromVector<float>({0.0066f}, {1}), Tensor::FromVector<uint8_t>({113}, {1}), b,
                   Tensor::FromVector<float>({0.00705f}, {1}), Tensor::FromVector<uint8_t>({114}, {1}),
                   Tensor::FromVector<float>({0.0107f}, {1}), Tensor::FromVector<uint8_t>({118}, {1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<uint8_t>({168, 115, 255, 1, 66, 151}, {2, 3}), 0.0));
}

TEST(QuantizeInferenceTest, UnknownDimsAndOutputDtype) {
  ops::OpRegistry reg;
  ops::RegisterMathOps(&reg);
  TensorDesc x(DataType::kFloat, Shape({kUnknownDim, 3})), s(DataType::kFloat, Shape()), zp(DataType::kInt8, Shape());
  ops::InferContext ctx;
  ir::AttrMap attrs;
  ctx.attrs = &attrs;
  ctx.inputs = {&x, &s, &zp};
  ctx.input_values = {nullptr, nullptr, nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "QuantizeLinear"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].dtype, DataType::kInt8);
  EXPECT_EQ(ctx.outputs[0].shape.dim(0), kUnknownDim);
  TensorDesc bad_scale(DataType::kFloat, Shape({4}));
  ctx.inputs = {&x, &bad_scale, nullptr};
  EXPECT_FALSE(ops::RunInference(*reg.Find("", "QuantizeLinear"), ctx).ok());  // axis 1 has 3 channels
}

}  // namespace
}  // namespace ge::ref
