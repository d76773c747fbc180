#include <gtest/gtest.h>

#include <limits>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

class RandomTest : public ::testing::Test {
 protected:
  RandomTest() : t_(ops::RegisterMiscOps, RegisterMiscRefKernels) {}
  OpTester t_;
};

TEST_F(RandomTest, UniformShapeRangeAndSeed) {
  ir::AttrMap a;
  a.Set("shape", ir::AttrValue::Ints({3, 4}));
  a.Set("low", ir::AttrValue::Float(2.0f));
  a.Set("high", ir::AttrValue::Float(3.0f));
  a.Set("seed", ir::AttrValue::Float(5.0f));
  auto x = t_.Run1("RandomUniform", {}, a);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->dims(), (Dims{3, 4}));
  EXPECT_EQ(x->dtype(), DataType::kFloat);
  for (int64_t i = 0; i < x->numel(); ++i) {
    EXPECT_GE(x->data<float>()[i], 2.0f);
    EXPECT_LE(x->data<float>()[i], 3.0f);
  }
  auto y = t_.Run1("RandomUniform", {}, a);
  EXPECT_TRUE(TensorsMatch(*x, *y, 0));  // same seed, same values
  a.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kDouble)));
  EXPECT_EQ(t_.Run1("RandomUniform", {}, a)->dtype(), DataType::kDouble);
  a.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kInt32)));
  EXPECT_FALSE(t_.Run1("RandomUniform", {}, a).ok());
  ir::AttrMap noshape;
  EXPECT_FALSE(t_.Run1("RandomUniform", {}, noshape).ok());
}

TEST_F(RandomTest, NormalLikeKeepsShapeAndDtype) {
  Tensor in = Tensor::Create(DataType::kFloat16, {2, 500}).value();
  ir::AttrMap a;
  a.Set("mean", ir::AttrValue::Float(10.0f));
  a.Set("scale", ir::AttrValue::Float(0.5f));
  auto x = t_.Run1("RandomNormalLike", {in}, a);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->dtype(), DataType::kFloat16);
  EXPECT_EQ(x->dims(), (Dims{2, 500}));
  double sum = 0;
  for (int64_t i = 0; i < x->numel(); ++i) sum += x->GetAsDouble(i);
  EXPECT_NEAR(sum / x->numel(), 10.0, 0.1);
  EXPECT_FALSE(t_.Run1("RandomNormalLike", {Tensor::FromVector<int32_t>({1}, {1})}).ok());  // int without dtype
}

TEST_F(RandomTest, BernoulliExtremesAndDtype) {
  Tensor p = Tensor::FromVector<double>({0, 1, 0, 1, 0.5}, {5});
  ir::AttrMap a;
  a.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kInt32)));
  auto x = t_.Run1("Bernoulli", {p}, a);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->dtype(), DataType::kInt32);
  EXPECT_EQ(x->data<int32_t>()[0], 0);
  EXPECT_EQ(x->data<int32_t>()[1], 1);
  EXPECT_EQ(x->data<int32_t>()[2], 0);
  EXPECT_EQ(x->data<int32_t>()[3], 1);
  EXPECT_TRUE(x->data<int32_t>()[4] == 0 || x->data<int32_t>()[4] == 1);
  auto same = t_.Run1("Bernoulli", {p});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->dtype(), DataType::kDouble);
  EXPECT_FALSE(t_.Run1("Bernoulli", {Tensor::FromVector<float>({1.5f}, {1})}).ok());
}

TEST_F(RandomTest, MultinomialPicksOnlyPossibleClasses) {
  const float ninf = -std::numeric_limits<float>::infinity();
  Tensor logits = Tensor::FromVector<float>({ninf, 0, ninf, 0, ninf, ninf}, {2, 3});
  ir::AttrMap a;
  a.Set("sample_size", ir::AttrValue::Int(10));
  a.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kInt64)));
  auto x = t_.Run1("Multinomial", {logits}, a);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->dims(), (Dims{2, 10}));
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(x->data<int64_t>()[k], 1);
    EXPECT_EQ(x->data<int64_t>()[10 + k], 0);
  }
  EXPECT_FALSE(t_.Run1("Multinomial", {Tensor::FromVector<float>({1, 2}, {2})}).ok());  // not 2-D
}

TEST_F(RandomTest, InferenceWithUnknownDims) {
  ops::InferContext ctx;
  ir::AttrMap attrs;
  attrs.Set("sample_size", ir::AttrValue::Int(4));
  ctx.attrs = &attrs;
  ctx.op_type = "Multinomial";
  TensorDesc x(DataType::kFloat, Shape({kUnknownDim, 7}));
  ctx.inputs = {&x};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(t_.op_registry().Find("", "Multinomial")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim, 4}));
  ctx.op_type = "RandomUniformLike";
  ASSERT_TRUE(t_.op_registry().Find("", "RandomUniformLike")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim, 7}));
}

}  // namespace
}  // namespace ge::ref
