// fast_math.h against the exact functions (double libm): tanh and erf within 3 ulp, the GELU within its bounds, in
// the baseline form (one lane, multiply then add) and in the fused forms of the AVX-512 and AVX2 loops (where the
// CPU has them); those two give the same bits. A sample of every float (every 1021st bit pattern) and a dense grid
// over the range where the functions are not constant; then the special values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/exec/fast_exp.h"
#include "kernels/exec/fast_math.h"

#pragma GCC diagnostic ignored "-Wpsabi"  // lanes never cross a call: the loops below are flattened

namespace ge::exec {
namespace {

#define GE_LANES_FN(Name, Fn) \
  struct Name {               \
    template <typename V>     \
    V operator()(V x) const { \
      return Fn(x);           \
    }                         \
  };
GE_LANES_FN(TanhFn, TanhLanes)
GE_LANES_FN(ErfFn, ErfLanes)
GE_LANES_FN(GeluFn, GeluLanes)
GE_LANES_FN(ExpFn, ExpLanes)
#undef GE_LANES_FN

template <int W, typename F>
inline void Apply(const std::vector<float>& x, std::vector<float>* y, F f) {
  using V = FloatLanes<W>;
  y->assign(x.size(), 0.0f);
  for (size_t i = 0; i < x.size(); i += W) {
    V v{};
    const size_t n = std::min<size_t>(W, x.size() - i);
    std::memcpy(&v, x.data() + i, n * sizeof(float));
    const V r = f(v);
    std::memcpy(y->data() + i, &r, n * sizeof(float));
  }
}
template <typename F>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), flatten)) void ApplyAvx512(const std::vector<float>& x,
                                                                                        std::vector<float>* y, F f) {
  Apply<16>(x, y, f);
}
template <typename F>
__attribute__((target("avx2,fma"), flatten)) void ApplyAvx2(const std::vector<float>& x, std::vector<float>* y, F f) {
  Apply<8>(x, y, f);
}
template <typename F>
__attribute__((flatten)) void ApplyOneLane(const std::vector<float>& x, std::vector<float>* y, F f) {
  Apply<1>(x, y, f);
}

// The forms to check: name and results.
template <typename F>
std::vector<std::pair<std::string, std::vector<float>>> AllForms(const std::vector<float>& x, F f) {
  std::vector<std::pair<std::string, std::vector<float>>> out;
  out.emplace_back("one lane", std::vector<float>());
  ApplyOneLane(x, &out.back().second, f);
  if (__builtin_cpu_supports("avx512f")) {
    out.emplace_back("avx512", std::vector<float>());
    ApplyAvx512(x, &out.back().second, f);
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    out.emplace_back("avx2", std::vector<float>());
    ApplyAvx2(x, &out.back().second, f);
  }
  return out;
}

// |got - want| in units of the last place of want's binade (float's denormal spacing below).
double UlpError(float got, double want) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) == std::isnan(got) ? 0 : 1e30;
  int e = 0;
  std::frexp(std::fabs(want), &e);
  return std::fabs(static_cast<double>(got) - want) / std::ldexp(1.0, std::max(e - 24, -149));
}

std::vector<float> Inputs() {
  std::vector<float> v;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 1021) {
    float x;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&x, &b, sizeof(x));
    v.push_back(x);
  }
  for (float x = -12.0f; x <= 12.0f; x += 0.000731f) v.push_back(x);
  return v;
}

// FastExp's bound against the exact exp where the result is a normal float, fused or not.
constexpr double kExpUlp = 1.5;

double ExactGelu(double x) { return std::isinf(x) ? (x > 0 ? x : 0) : 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

TEST(FastMath, TanhAndErfWithinThreeUlp) {
  const std::vector<float> x = Inputs();
  for (const auto& [name, want_fn, fn_name] :
       {std::make_tuple(std::string("tanh"), &::tanh, 0), std::make_tuple(std::string("erf"), &::erf, 1)}) {
    const auto forms = fn_name == 0 ? AllForms(x, TanhFn()) : AllForms(x, ErfFn());
    for (const auto& [form, y] : forms) {
      double worst = 0;
      float at = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        const double e = UlpError(y[i], want_fn(static_cast<double>(x[i])));
        if (e > worst) worst = e, at = x[i];
      }
      EXPECT_LE(worst, 3.0) << name << " (" << form << ") at " << at;
    }
  }
}

TEST(FastMath, GeluWithinItsBounds) {
  const std::vector<float> x = Inputs();
  for (const auto& [form, y] : AllForms(x, GeluFn())) {
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = ExactGelu(x[i]);
      if (std::isnan(want) || std::isinf(want)) continue;  // the special values' test
      // x (1 + erf) overflows above half the largest float, in the unfused nodes as here.
      if (std::fabs(x[i]) > std::numeric_limits<float>::max() / 2) continue;
      const double err = std::fabs(y[i] - want);
      const bool ok = std::fabs(want) > 1e-4 ? err <= 3e-5 * std::fabs(want) : err <= 1e-7;
      ASSERT_TRUE(ok) << form << ": gelu(" << x[i] << ") = " << y[i] << ", exact " << want;
    }
  }
}

TEST(FastMath, FusedFormsGiveTheSameBits) {
  const std::vector<float> x = Inputs();
  auto check = [&](const char* what, const auto& forms) {
    for (size_t f = 1; f < forms.size(); ++f) {
      for (size_t i = 0; i < x.size(); ++i) {
        const float a = forms[f].second[i], b = forms[1].second[i];
        ASSERT_TRUE(std::memcmp(&a, &b, sizeof(a)) == 0 || (std::isnan(a) && std::isnan(b)))
            << what << ": " << forms[f].first << " and " << forms[1].first << " differ at " << x[i];
      }
    }
  };
  check("tanh", AllForms(x, TanhFn()));
  check("erf", AllForms(x, ErfFn()));
  check("gelu", AllForms(x, GeluFn()));
}

TEST(FastMath, ExpLanesIsFastExpWithItsMultiplyAddsFused) {
  const std::vector<float> x = Inputs();
  for (const auto& [form, y] : AllForms(x, ExpFn())) {
    double worst = 0;
    float at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float fast = FastExp(x[i]);
      if (form == "one lane") {
        ASSERT_TRUE(std::memcmp(&y[i], &fast, sizeof(fast)) == 0 || (std::isnan(y[i]) && std::isnan(fast)))
            << "at " << x[i];
      }
      const double want = std::exp(static_cast<double>(x[i]));
      if (want < std::numeric_limits<float>::min() || want > std::numeric_limits<float>::max()) continue;
      const double e = UlpError(y[i], want);
      if (e > worst) worst = e, at = x[i];
    }
    EXPECT_LE(worst, kExpUlp) << form << " at " << at;
  }
}

TEST(FastMath, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float denormal = 3e-39f;
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, denormal, -denormal, 100.0f, -100.0f};
  const auto tanh = AllForms(x, TanhFn()), erf = AllForms(x, ErfFn()), gelu = AllForms(x, GeluFn());
  for (size_t f = 0; f < tanh.size(); ++f) {
    SCOPED_TRACE(tanh[f].first);
    const std::vector<float>& t = tanh[f].second;
    const std::vector<float>& e = erf[f].second;
    const std::vector<float>& g = gelu[f].second;
    EXPECT_TRUE(t[0] == 0.0f && !std::signbit(t[0]) && t[1] == 0.0f && std::signbit(t[1]));
    EXPECT_TRUE(e[0] == 0.0f && !std::signbit(e[0]) && e[1] == 0.0f && std::signbit(e[1]));
    EXPECT_EQ(t[2], 1.0f);
    EXPECT_EQ(t[3], -1.0f);
    EXPECT_EQ(e[2], 1.0f);
    EXPECT_EQ(e[3], -1.0f);
    EXPECT_TRUE(std::isnan(t[4]) && std::isnan(e[4]) && std::isnan(g[4]));
    EXPECT_EQ(t[5], denormal);
    EXPECT_EQ(t[6], -denormal);
    EXPECT_EQ(e[5], static_cast<float>(denormal * 1.1283791670955126));
    EXPECT_EQ(t[7], 1.0f);
    EXPECT_EQ(e[8], -1.0f);
    EXPECT_EQ(g[2], inf);
    EXPECT_TRUE(std::isnan(g[3]));  // -inf * 0, as the unfused nodes give
    EXPECT_EQ(g[7], 100.0f);
    EXPECT_EQ(g[8], 0.0f);
  }
}

}  // namespace
}  // namespace ge::exec
