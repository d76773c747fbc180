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

// ONNX's apply_adam (ai.onnx.preview.training Adam) for one element, in double: g += norm_coefficient * x before
// the moments, x *= 1 - norm_coefficient_post after the step.
struct AdamElement {
  double x, v, h;
};
AdamElement AdamSpec(double r, int64_t t, double x, double g, double v, double h, double norm, double norm_post,
                     double alpha, double beta, double eps) {
  const double g_reg = norm * x + g;
  const double v_new = alpha * v + (1 - alpha) * g_reg;
  const double h_new = beta * h + (1 - beta) * g_reg * g_reg;
  const double r_adj = t > 0 ? r * std::sqrt(1 - std::pow(beta, t)) / (1 - std::pow(alpha, t)) : r;
  return {(1 - norm_post) * (x - r_adj * v_new / (std::sqrt(h_new) + eps)), v_new, h_new};
}

TEST_F(TrainingTest, AdamAddsNormCoefficientTimesXToTheGradientAndScalesXByOneMinusNormCoefficientPost) {
  ir::AttrMap a;
  a.Set("alpha", ir::AttrValue::Float(0.5f));
  a.Set("beta", ir::AttrValue::Float(0.75f));
  a.Set("epsilon", ir::AttrValue::Float(0.5f));
  a.Set("norm_coefficient", ir::AttrValue::Float(0.5f));
  a.Set("norm_coefficient_post", ir::AttrValue::Float(0.25f));
  auto D = [](std::vector<double> v) { return Tensor::FromVector<double>(v, {static_cast<int64_t>(v.size())}); };
  auto outs = t_.Run("Adam",
                     {Tensor::Scalar<double>(0.5), Tensor::Scalar<int64_t>(1), D({2}), D({-4}), D({1}), D({3}), D({1}),
                      D({0}), D({4}), D({0})},
                     a, 6, 1, kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  // By hand. Tensor 1: g = 0.5 * 2 + 1 = 2, v = 0.5 + 0.5 * 2 = 1.5, h = 3 + 0.25 * 4 = 4, r = 0.5 * sqrt(0.25) /
  // 0.5 = 0.5, x = 0.75 * (2 - 0.5 * 1.5 / (2 + 0.5)) = 1.275. Tensor 2: g = -2 + 3 = 1, v = 0.5, h = 0.25,
  // x = 0.75 * (-4 - 0.5 * 0.5 / (0.5 + 0.5)) = -3.1875.
  EXPECT_NEAR((*outs)[0].tensor.data<double>()[0], 1.275, 1e-12);
  EXPECT_NEAR((*outs)[1].tensor.data<double>()[0], -3.1875, 1e-12);
  EXPECT_NEAR((*outs)[2].tensor.data<double>()[0], 1.5, 1e-12);
  EXPECT_NEAR((*outs)[3].tensor.data<double>()[0], 0.5, 1e-12);
  EXPECT_NEAR((*outs)[4].tensor.data<double>()[0], 4.0, 1e-12);
  EXPECT_NEAR((*outs)[5].tensor.data<double>()[0], 0.25, 1e-12);

  // Float, with bias correction (T = 3) and ONNX's test_adam coefficients but a larger norm_coefficient.
  const float alpha = 0.95f, beta = 0.1f, eps = 1e-7f, norm = 0.3f, norm_post = 0.05f;
  ir::AttrMap f;
  f.Set("alpha", ir::AttrValue::Float(alpha));
  f.Set("beta", ir::AttrValue::Float(beta));
  f.Set("epsilon", ir::AttrValue::Float(eps));
  f.Set("norm_coefficient", ir::AttrValue::Float(norm));
  f.Set("norm_coefficient_post", ir::AttrValue::Float(norm_post));
  const std::vector<float> x{1.2f, 2.8f, -3.5f}, g{-0.94f, -2.5f, 0.75f}, v{1.7f, 3.6f, -0.2f}, h{0.1f, 0.1f, 2.0f};
  outs = t_.Run("Adam", {Tensor::Scalar<float>(0.1f), Tensor::Scalar<int64_t>(3), F(x), F(g), F(v), F(h)}, f, 3, 1,
                kDomain);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  for (size_t k = 0; k < x.size(); ++k) {
    const AdamElement want = AdamSpec(0.1f, 3, x[k], g[k], v[k], h[k], norm, norm_post, alpha, beta, eps);
    EXPECT_NEAR((*outs)[0].tensor.data<float>()[k], want.x, 1e-5 * (1 + std::fabs(want.x))) << "X[" << k << "]";
    EXPECT_NEAR((*outs)[1].tensor.data<float>()[k], want.v, 1e-5 * (1 + std::fabs(want.v))) << "V[" << k << "]";
    EXPECT_NEAR((*outs)[2].tensor.data<float>()[k], want.h, 1e-5 * (1 + std::fabs(want.h))) << "H[" << k << "]";
  }
}

}  // namespace
}  // namespace ge::ref
