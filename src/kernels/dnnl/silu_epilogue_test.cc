// SiluInPlace against x / (1 + exp(-x)) in double: each loop (AVX-512, AVX2, scalar) at every length of vector
// body and tail, one and two threads, and the edges (signed zeros, infinities, NaN, large magnitudes, denormals).
#include "kernels/dnnl/silu_epilogue.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ge::dnnl_kernels {
namespace {

double SiluDouble(double x) { return x / (1.0 + std::exp(-x)); }

// Within a few float ulps of the double result (absolute 1e-30 near zero, where the clamped exp differs).
void ExpectSilu(float x, float got) {
  const double want = SiluDouble(x);
  const double tol = std::max(4.0 * std::numeric_limits<float>::epsilon() * std::fabs(want), 1e-30);
  EXPECT_NEAR(got, want, tol) << "x = " << x;
}

// Each loop this CPU has: AVX-512, AVX2 + FMA, scalar.
class SiluLoops : public ::testing::TestWithParam<IsaLevel> {};

TEST_P(SiluLoops, MatchDoublePrecisionOnRandomValuesAtEveryTailLength) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-30.0f, 30.0f);
  for (int64_t n = 0; n <= 40; ++n) {
    std::vector<float> x(static_cast<size_t>(n));
    for (float &v : x) v = dist(rng);
    std::vector<float> y = x;
    SiluInPlace(y.data(), n, 1, GetParam());
    for (int64_t i = 0; i < n; ++i) ExpectSilu(x[i], y[i]);
  }
}

TEST_P(SiluLoops, Edges) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {0.0f,    -0.0f, 1e-40f, -1e-40f, 88.0f, 100.0f, -50.0f, -79.0f, -85.0f,
                          -200.0f, inf,   -inf,   nan,     1e30f, -1e30f, 3.5f,   -3.5f};
  std::vector<float> y = x;
  SiluInPlace(y.data(), static_cast<int64_t>(y.size()), 1, GetParam());
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 0.0f);
  for (size_t i = 2; i < 10; ++i) ExpectSilu(x[i], y[i]);
  EXPECT_EQ(y[10], inf);
  EXPECT_EQ(y[11], -inf);  // -inf * sigmoid(-inf): the limit of x * sigmoid(x)
                           // is 0, the product of limits -inf * 0
  EXPECT_TRUE(std::isnan(y[12]));
  EXPECT_FLOAT_EQ(y[13], 1e30f);
  EXPECT_LE(std::fabs(y[14]), 1e-4f);  // -1e30 * (~1e-35): a tiny negative, the
                                       // true value underflows to -0
  ExpectSilu(x[15], y[15]);
  ExpectSilu(x[16], y[16]);
}

INSTANTIATE_TEST_SUITE_P(EachIsa, SiluLoops,
                         ::testing::Values(IsaLevel::kX86_64_V4, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2));

TEST(SiluInPlace, TwoThreadsGiveTheSameBitsAsOne) {
  std::mt19937 rng(11);
  std::normal_distribution<float> dist(0.0f, 4.0f);
  const int64_t n = 100003;  // several chunks and a tail
  std::vector<float> x(static_cast<size_t>(n));
  for (float &v : x) v = dist(rng);
  std::vector<float> one = x, two = x;
  SiluInPlace(one.data(), n, 1);
  SiluInPlace(two.data(), n, 2);
  EXPECT_EQ(one, two);
  for (int64_t i = 0; i < n; i += 97) ExpectSilu(x[i], one[i]);
}

}  // namespace
}  // namespace ge::dnnl_kernels
