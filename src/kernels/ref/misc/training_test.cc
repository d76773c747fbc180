#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

constexpr const char* kDomain = "ai.onnx.preview.training";

class TrainingTest : public ::testing::Test {
 protected:
  TrainingTest() : t_(ops::RegisterMiscOps, RegisterMiscRefKernels) {}
  OpTester t_;
};

Tensor F(std::vector<float> v) { return Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())}); }

TEST_F(TrainingTest, Adagrad) {
  ir::AttrMap a;
  a.Set("norm_coefficient", ir::AttrValue::Float(0.001f));
  a.Set("epsilon", ir::AttrValue::Float(1e-5f));
  a.Set("decay_factor", ir::AttrValue::Float(0.1f));
  auto outs = t_.Run("Adagrad", {Tensor::Scalar<float>(0.1f), Tensor::Scalar<int64_t>(0), F({1.0f}), F({-1.0f}),
                                 F({2.0f})},
                     a, 2, 1, kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  // ONNX backend test values (test_adagrad).
  const double g = 0.001 * 1.0 - 1.0, h = 2.0 + g * g;
  EXPECT_NEAR((*outs)[1].tensor.data<float>()[0], h, 1e-6);
  EXPECT_NEAR((*outs)[0].tensor.data<float>()[0], 1.0 - 0.1 * g / (std::sqrt(h) + 1e-5), 1e-6);
}

TEST_F(TrainingTest, MomentumStandardAndNesterov) {
  ir::AttrMap a;
  a.Set("norm_coefficient", ir::AttrValue::Float(0.001f));
  a.Set("alpha", ir::AttrValue::Float(0.95f));
  a.Set("beta", ir::AttrValue::Float(0.1f));
  a.Set("mode", ir::AttrValue::String("standard"));
  std::vector<Tensor> in = {Tensor::Scalar<float>(0.1f), Tensor::Scalar<int64_t>(0), F({1.2f, 2.8f}),
                            F({-0.94f, -2.5f}), F({1.7f, 3.6f})};
  auto outs = t_.Run("Momentum", in, a, 2, 1, kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  // T == 0: beta is taken as 1.
  const double g0 = 0.001 * 1.2 - 0.94, v0 = 0.95 * 1.7 + g0;
  EXPECT_NEAR((*outs)[1].tensor.data<float>()[0], v0, 1e-5);
  EXPECT_NEAR((*outs)[0].tensor.data<float>()[0], 1.2 - 0.1 * v0, 1e-5);
  a.Set("mode", ir::AttrValue::String("nesterov"));
  in[1] = Tensor::Scalar<int64_t>(3);
  outs = t_.Run("Momentum", in, a, 2, 1, kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  const double v1 = 0.95 * 1.7 + 0.1 * g0;
  EXPECT_NEAR((*outs)[1].tensor.data<float>()[0], v1, 1e-5);
  EXPECT_NEAR((*outs)[0].tensor.data<float>()[0], 1.2 - 0.1 * (g0 + 0.95 * v1), 1e-5);
  a.Set("mode", ir::AttrValue::String("bogus"));
  EXPECT_FALSE(t_.Run("Momentum", in, a, 2, 1, kDomain).ok());
}

TEST_F(TrainingTest, AdamDoubleWithTwoTensors) {
  ir::AttrMap a;
  a.Set("alpha", ir::AttrValue::Float(0.5f));
  a.Set("beta", ir::AttrValue::Float(0.25f));
  a.Set("epsilon", ir::AttrValue::Float(0.0f));
  auto D = [](std::vector<double> v) { return Tensor::FromVector<double>(v, {static_cast<int64_t>(v.size())}); };
  auto outs = t_.Run("Adam",
                     {Tensor::Scalar<double>(1.0), Tensor::Scalar<int64_t>(1), D({1}), D({2, 3}), D({2}), D({4, 6}),
                      D({0}), D({0, 0}), D({0}), D({0, 0})},
                     a, 6, 1, kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  // v = 0.5 g, h = 0.75 g^2, r = sqrt(0.75) / 0.5 -> x - r * (0.5 g) / (sqrt(0.75) |g|) = x - sign(g)
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, D({0}), 0));
  EXPECT_NEAR((*outs)[1].tensor.data<double>()[1], 2.0, 1e-12);
  EXPECT_TRUE(TensorsMatch((*outs)[3].tensor, D({2, 3}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[5].tensor, D({12, 27}), 0));
  // Mismatched shapes, wrong output count.
  EXPECT_FALSE(t_.Run("Adam",
                      {Tensor::Scalar<double>(1.0), Tensor::Scalar<int64_t>(1), D({1}), D({2, 3}), D({0}), D({0})},
                      a, 3, 1, kDomain)
                   .ok());
  EXPECT_FALSE(t_.Run("Adam", {Tensor::Scalar<double>(1.0), Tensor::Scalar<int64_t>(1), D({1}), D({2}), D({0}),
                               D({0})},
                      a, 2, 1, kDomain)
                   .ok());
}

}  // namespace
}  // namespace ge::ref
