#include "base/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>

namespace ge {
namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Tensor F(const std::vector<float>& v) { return Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())}); }

TEST(Compare, NanMatchesOnlyNan) {
  EXPECT_TRUE(CompareTensors(F({1, kNan}), F({1, kNan}), Tolerance::Abs(1e-3)).ok());
  Status s = CompareTensors(F({1, kNan}), F({1, 2}), Tolerance::Abs(1e9));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("element 1 is nan, expected 2"), std::string::npos) << s.message();
  EXPECT_FALSE(CompareTensors(F({1, 2}), F({1, kNan}), Tolerance::Abs(1e9)).ok());
}

TEST(Compare, InfinityMatchesOnlyTheSameInfinity) {
  EXPECT_TRUE(CompareTensors(F({kInf, -kInf}), F({kInf, -kInf}), Tolerance::Rel(1e-3)).ok());
  // A finite value never matches an expected infinity, however large the tolerance.
  Status s = CompareTensors(F({0, 3e38f}), F({0, kInf}), Tolerance{1e30, 1e30});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("element 1 is 3.0000000"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("expected inf"), std::string::npos) << s.message();
  EXPECT_FALSE(CompareTensors(F({-kInf}), F({kInf}), Tolerance{1e30, 1e30}).ok());
  EXPECT_FALSE(CompareTensors(F({kInf}), F({1}), Tolerance{1e30, 1e30}).ok());
}

TEST(Compare, ToleranceIsAtolPlusRtolOfWant) {
  EXPECT_TRUE(CompareTensors(F({1.1f}), F({1}), Tolerance{0.05, 0.051}).ok());
  EXPECT_FALSE(CompareTensors(F({1.1f}), F({1}), Tolerance{0.05, 0.04}).ok());
  // rtol_of_larger: relative to max(|got|, |want|).
  EXPECT_TRUE(CompareTensors(F({2}), F({1}), Tolerance{0, 0.5, true}).ok());
  EXPECT_FALSE(CompareTensors(F({2}), F({1}), Tolerance{0, 0.5, false}).ok());
}

TEST(Compare, ReportsFirstIndexCountAndMaxDiff) {
  Status s = CompareTensors(F({0, 1, 5, 9}), F({0, 2, 5, 7}), Tolerance::Exact(), "out");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "out: element 1 is 1, expected 2 (2 of 4 elements differ, max |diff| 2)");
}

TEST(Compare, DtypeAndShapeFirst) {
  EXPECT_NE(CompareTensors(F({1}), Tensor::FromVector<double>({1}, {1}), {}).message().find("dtype float32"),
            std::string::npos);
  EXPECT_NE(CompareTensors(F({1, 2}), Tensor::FromVector<float>({1, 2}, {2, 1}), {}).message().find("shape [2]"),
            std::string::npos);
}

TEST(Compare, IntegersAreExactBeyondDoublePrecision) {
  const int64_t big = (int64_t{1} << 60) + 1;
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<int64_t>({big}, {1}), Tensor::FromVector<int64_t>({big - 1}, {1}),
                              Tolerance::Abs(0.5))
                   .ok());
  EXPECT_TRUE(
      CompareTensors(Tensor::FromVector<uint8_t>({1, 2}, {2}), Tensor::FromVector<uint8_t>({1, 2}, {2}), {}).ok());
}

TEST(Compare, ComplexComparesRealAndImaginaryParts) {
  using C = std::complex<float>;
  // Same magnitude, different phase: must differ.
  Status s = CompareTensors(Tensor::FromVector<C>({C(0, 1)}, {1}), Tensor::FromVector<C>({C(1, 0)}, {1}),
                            Tolerance::Abs(1e-3));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("real part"), std::string::npos) << s.message();
  EXPECT_TRUE(CompareTensors(Tensor::FromVector<C>({C(1, kInf)}, {1}), Tensor::FromVector<C>({C(1, kInf)}, {1}), {})
                  .ok());
}

TEST(Compare, StringsExact) {
  Status s = CompareTensors(Tensor::FromVector<std::string>({"a", "b"}, {2}),
                            Tensor::FromVector<std::string>({"a", "c"}, {2}), {});
  EXPECT_NE(s.message().find("element 1 is \"b\", expected \"c\""), std::string::npos) << s.message();
}

TEST(Compare, RelativeL2TreatsNonFiniteStrictly) {
  double e = -1;
  EXPECT_TRUE(CompareRelativeL2(F({1, 2, kNan, kInf}), F({1, 2, kNan, kInf}), 1e-6, "", &e).ok());
  EXPECT_EQ(e, 0);
  EXPECT_FALSE(CompareRelativeL2(F({1, 2, kNan}), F({1, 2, 3}), 1e9).ok());
  EXPECT_FALSE(CompareRelativeL2(F({1, 2, 3}), F({1, 2, kInf}), 1e9).ok());
  Status s = CompareRelativeL2(F({1, 0}), F({1, 1}), 0.1);
  EXPECT_NE(s.message().find("relative L2 error"), std::string::npos) << s.message();
}

TEST(Compare, FloatsSpan) {
  const float got[] = {1, kNan}, want[] = {1, 1};
  EXPECT_FALSE(CompareFloats(got, want, 2, Tolerance::Abs(1)).ok());
  EXPECT_TRUE(CompareFloats(got, want, 1, {}).ok());
}

}  // namespace
}  // namespace ge
