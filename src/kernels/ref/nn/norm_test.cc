#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::nn {
namespace {

using ge::ref::testing::OpTester;

OpTester Tester() { return OpTester(ge::ops::RegisterNnOps, ge::ref::RegisterNnRefKernels); }

TEST(NnBatchNorm, InferenceMatchesFormula) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({-1, 0, 1, 2, 3, 4}, {1, 2, 1, 3});
  Tensor s = Tensor::FromVector<float>({1.0f, 1.5f}, {2});
  Tensor b = Tensor::FromVector<float>({0, 1}, {2});
  Tensor mean = Tensor::FromVector<float>({0, 3}, {2});
  Tensor var = Tensor::FromVector<float>({1, 1.5f}, {2});
  auto y = t.Run1("BatchNormalization", {x, s, b, mean, var});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  std::vector<float> want(6);
  const float xs[] = {-1, 0, 1, 2, 3, 4};
  for (int i = 0; i < 6; ++i) {
    int c = i / 3;
    want[i] = (c ? 1.5f : 1.f) * (xs[i] - (c ? 3 : 0)) / std::sqrt((c ? 1.5f : 1.f) + 1e-5f) + (c ? 1 : 0);
  }
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector(want, {1, 2, 1, 3}), 1e-6));
}

TEST(NnBatchNorm, TrainingModeUpdatesRunningStats) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 3, 2, 6}, {2, 1, 2});  // channel 0 values 1,3,2,6: mean 3, var 3.5
  ir::AttrMap a;
  a.Set("training_mode", ir::AttrValue::Int(1));
  a.Set("epsilon", ir::AttrValue::Float(0.f));
  auto outs = t.Run("BatchNormalization",
                    {x, Tensor::FromVector<float>({2}, {1}), Tensor::FromVector<float>({1}, {1}),
                     Tensor::FromVector<float>({10}, {1}), Tensor::FromVector<float>({20}, {1})},
                    a, 3, 15);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  const Tensor& y = (*outs)[0].tensor;
  EXPECT_NEAR(y.data<float>()[0], 2 * (1 - 3) / std::sqrt(3.5) + 1, 1e-5);
  EXPECT_NEAR((*outs)[1].tensor.data<float>()[0], 10 * 0.9 + 3 * 0.1, 1e-5);
  EXPECT_NEAR((*outs)[2].tensor.data<float>()[0], 20 * 0.9 + 3.5 * 0.1, 1e-5);
  EXPECT_FALSE(t.Run1("BatchNormalization", {x, Tensor::FromVector<float>({1, 1}, {2}), Tensor::FromVector<float>({1}, {1}),
                                             Tensor::FromVector<float>({1}, {1}), Tensor::FromVector<float>({1}, {1})}).ok());
}

TEST(NnInstanceNorm, Example) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({-1, 0, 1, 2, 3, 4}, {1, 2, 1, 3});
  auto y = t.Run1("InstanceNormalization",
                  {x, Tensor::FromVector<float>({1, 1.5f}, {2}), Tensor::FromVector<float>({0, 1}, {2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  const float k = 1.f / std::sqrt(2.f / 3 + 1e-5f);
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({-k, 0, k, 1 - 1.5f * k, 1, 1 + 1.5f * k}, {1, 2, 1, 3}), 1e-5));
}

TEST(NnLayerNorm, AxisOutputsAndBroadcastScale) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 6, 8}, {2, 3});
  ir::AttrMap a;
  a.Set("epsilon", ir::AttrValue::Float(0.f));
  auto outs = t.Run("LayerNormalization", {x, Tensor::FromVector<float>({1, 1, 2}, {3}), Tensor::FromVector<float>({0, 0, 1}, {3})}, a, 3);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  const float k = std::sqrt(1.5f);
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({-k, 0, 2 * k + 1, -k, 0, 2 * k + 1}, {2, 3}), 1e-5));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({2, 6}, {2, 1}), 1e-6));
  EXPECT_TRUE(TensorsMatch((*outs)[2].tensor, Tensor::FromVector<float>({k, k / 2}, {2, 1}), 1e-6));
  // axis 0 normalizes everything; scale of shape [1] broadcasts.
  ir::AttrMap a0;
  a0.Set("axis", ir::AttrValue::Int(0));
  auto y = t.Run1("LayerNormalization", {Tensor::FromVector<double>({1, 3}, {2}), Tensor::FromVector<double>({2}, {1})}, a0);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_NEAR(y->data<double>()[0], -2 / std::sqrt(1 + 1e-5), 1e-6);
  ir::AttrMap bad;
  bad.Set("axis", ir::AttrValue::Int(2));
  EXPECT_FALSE(t.Run1("LayerNormalization", {x, Tensor::FromVector<float>({1, 1, 1}, {3})}, bad).ok());
  EXPECT_FALSE(t.Run1("LayerNormalization", {x, Tensor::FromVector<float>({1, 1}, {2})}).ok());
}

TEST(NnMvn, NormalizesOverAxes) {
  auto t = Tester();
  ir::AttrMap a;
  a.Set("axes", ir::AttrValue::Ints({1}));
  auto y = t.Run1("MeanVarianceNormalization", {Tensor::FromVector<float>({1, 3, 10, 10}, {2, 2})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({-1, 1, 0, 0}, {2, 2}), 1e-6));
}

TEST(NnLrn, MatchesFormula) {
  auto t = Tester();
  ir::AttrMap a;
  a.Set("size", ir::AttrValue::Int(3));
  a.Set("alpha", ir::AttrValue::Float(0.3f));
  a.Set("beta", ir::AttrValue::Float(0.5f));
  a.Set("bias", ir::AttrValue::Float(2.f));
  auto y = t.Run1("LRN", {Tensor::FromVector<float>({1, 2, 3}, {1, 3, 1, 1})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  auto f = [](float x, float sq) { return x / std::pow(2.f + 0.1f * sq, 0.5f); };
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({f(1, 5), f(2, 14), f(3, 13)}, {1, 3, 1, 1}), 1e-6));
  EXPECT_FALSE(t.Run1("LRN", {Tensor::FromVector<float>({1}, {1, 1, 1, 1})}).ok());  // size missing
}

TEST(NnNorm, InferenceWithUnknownDims) {
  auto t = Tester();
  const ops::OpSchema* s = t.op_registry().Find("", "LayerNormalization");
  ir::AttrMap a;
  a.Set("axis", ir::AttrValue::Int(-1));
  Shape xs({kUnknownDim, kUnknownDim, 768});
  xs.set_symbol(0, "batch");
  TensorDesc x(DataType::kFloat16, xs), sc(DataType::kFloat16, Shape({768}));
  ops::InferContext ctx;
  ctx.attrs = &a;
  ctx.op_type = "LayerNormalization";
  ctx.inputs = {&x, &sc};
  ctx.input_values = {nullptr, nullptr};
  ctx.outputs.resize(3);
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  EXPECT_EQ(ctx.outputs[1].shape.dims(), (Dims{kUnknownDim, kUnknownDim, 1}));
  EXPECT_EQ(ctx.outputs[1].dtype, DataType::kFloat);
  EXPECT_EQ(ctx.outputs[0].dtype, DataType::kFloat16);
}

}  // namespace
}  // namespace ge::ref::nn
