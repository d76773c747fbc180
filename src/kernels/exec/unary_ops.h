// Per-element functors of the fast unary kernels. Each computes exactly what the reference kernel computes for the
// same storage type (same formula, same compute type), so results are bit-identical to ref except Exp, Sigmoid, Tanh,
// Erf and ge::Gelu on float32, which use the lanes forms of fast_math.h (Exp: FastExp's polynomial, within 1.5 ulp;
// Tanh, Erf: within 3 ulp), run by the kernel's loop a vector block at a time (`Lanes`): libm's expf, tanhf and erff
// are calls a loop cannot vectorize, 10-30x slower. Integer variants wrap like ref (Neg/Abs of the minimum value).
// Parameters come from UnaryParams, filled once at Prepare.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/exec/fast_exp.h"
#include "kernels/exec/fast_math.h"

namespace ge::exec {

struct UnaryParams {
  double alpha = 0, beta = 0, gamma = 0;  // attribute values (floats in the model; cast to T by the functor)
  double lo = 0, hi = 0;                  // Clip bounds, already in T's range
  double exponent = 0;                    // Pow with a constant scalar exponent
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // the Lanes forms are inlined into flattened loops (unary_kernel.cc)
namespace unary {

template <typename T>
inline T WrapNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(x)));
}

template <typename T>
inline T ExpOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return FastExp(x);
  } else {
    return std::exp(x);
  }
}

#define GE_EXEC_UNARY(Name, expr)        \
  struct Name {                          \
    explicit Name(const UnaryParams&) {} \
    template <typename T>                \
    T operator()(T x) const {            \
      return (expr);                     \
    }                                    \
  };

GE_EXEC_UNARY(Relu, x < T(0) ? T(0) : x)
template <typename T>
inline T TanhOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return FastTanh(x);
  } else {
    return std::tanh(x);
  }
}

template <typename T>
inline T ErfOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return FastErf(x);
  } else {
    return std::erf(x);
  }
}

struct Tanh {
  explicit Tanh(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return TanhOf(x);
  }
  template <typename V>
  V Lanes(V x) const {
    return TanhLanes(x);
  }
};
// ge::Gelu (the erf GELU): float with GeluLanes, otherwise ref's rounding steps (ref/fused/fused_epilogue.h). Where
// ref's 1 + erf cancels (x below about -3) the float result is closer to the exact value than ref's, which differs
// from it by up to ~1e-7 absolute.
struct Gelu {
  explicit Gelu(const UnaryParams&) {}
  template <typename V>
  V Lanes(V x) const {
    return GeluLanes(x);
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return FastGelu(x);
    } else {
      const T e1 = std::erf(x / static_cast<T>(1.4142135623730951)) + T(1);
      return (x * e1) * T(0.5);
    }
  }
};
struct Exp {
  explicit Exp(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return ExpOf(x);
  }
  template <typename V>
  V Lanes(V x) const {
    return ExpLanes(x);
  }
};
GE_EXEC_UNARY(Log, std::log(x))
GE_EXEC_UNARY(Sqrt, std::sqrt(x))
GE_EXEC_UNARY(Reciprocal, T(1) / x)
GE_EXEC_UNARY(Floor, std::floor(x))
GE_EXEC_UNARY(Ceil, std::ceil(x))
GE_EXEC_UNARY(Round, std::nearbyint(x))  // half to even, as ref
struct Erf {
  explicit Erf(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return ErfOf(x);
  }
  template <typename V>
  V Lanes(V x) const {
    return ErfLanes(x);
  }
};
// log(1 + exp(x)) without overflow, as ref.
GE_EXEC_UNARY(Softplus, x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)))
GE_EXEC_UNARY(Square, x* x)  // Pow(x, 2): exact in double, so equal to ref's double computation
GE_EXEC_UNARY(Copy, x)       // Pow(x, 1)
#undef GE_EXEC_UNARY

struct Neg {
  explicit Neg(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      return -x;
    } else {
      return WrapNeg(x);
    }
  }
};

struct Abs {
  explicit Abs(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fabs(x);
    } else {
      return x < 0 ? WrapNeg(x) : x;
    }
  }
};

// 1, -1, 0 for +-0, NaN stays NaN.
struct Sign {
  explicit Sign(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      return x > T(0) ? T(1) : (x < T(0) ? T(-1) : (x == x ? T(0) : x));
    } else {
      return static_cast<T>(static_cast<int>(x > T(0)) - static_cast<int>(x < T(0)));
    }
  }
};

// Branch-free form of ref's: x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x)); SigmoidLanes is this on lanes.
struct Sigmoid {
  explicit Sigmoid(const UnaryParams&) {}
  template <typename V>
  V Lanes(V x) const {
    return SigmoidLanes(x);
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      const float e = FastExp(-std::fabs(x));
      const float s = 1.0f / (1.0f + e);
      return x >= 0.0f ? s : e * s;
    } else {
      if (x >= 0) return T(1) / (T(1) + std::exp(-x));
      const T e = std::exp(x);
      return e / (T(1) + e);
    }
  }
};

// The attribute-parameterised ops store their parameters as float (as ref reads them) and compute in T.
struct LeakyRelu {
  explicit LeakyRelu(const UnaryParams& p) : alpha(static_cast<float>(p.alpha)) {}
  template <typename T>
  T operator()(T x) const {
    return x < T(0) ? x * static_cast<T>(alpha) : x;
  }
  float alpha;
};

struct Elu {
  explicit Elu(const UnaryParams& p) : alpha(static_cast<float>(p.alpha)) {}
  template <typename T>
  T operator()(T x) const {
    return x < T(0) ? static_cast<T>(alpha) * std::expm1(x) : x;
  }
  float alpha;
};

struct Selu {
  explicit Selu(const UnaryParams& p) : alpha(static_cast<float>(p.alpha)), gamma(static_cast<float>(p.gamma)) {}
  template <typename T>
  T operator()(T x) const {
    const T a = static_cast<T>(alpha), g = static_cast<T>(gamma);
    return x > T(0) ? g * x : g * (a * std::exp(x) - a);
  }
  float alpha, gamma;
};

struct HardSigmoid {
  explicit HardSigmoid(const UnaryParams& p) : alpha(static_cast<float>(p.alpha)), beta(static_cast<float>(p.beta)) {}
  template <typename T>
  T operator()(T x) const {
    return std::max(T(0), std::min(T(1), static_cast<T>(alpha) * x + static_cast<T>(beta)));
  }
  float alpha, beta;
};

struct HardSwish {
  explicit HardSwish(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    const T sixth = static_cast<T>(1.0f / 6.0f);
    return x * std::max(T(0), std::min(T(1), sixth * x + T(0.5)));
  }
};

// min(max(x, lo), hi), NaN passes through; with lo > hi every element becomes hi (as ref).
struct Clip {
  explicit Clip(const UnaryParams& p) : lo(p.lo), hi(p.hi) {}
  template <typename T>
  T operator()(T x) const {
    return std::min(std::max(x, static_cast<T>(lo)), static_cast<T>(hi));
  }
  double lo, hi;
};

// Pow with a constant exponent: ref computes in double and rounds to the base type.
struct PowGeneric {
  explicit PowGeneric(const UnaryParams& p) : e(p.exponent) {}
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(std::pow(static_cast<double>(x), e));
  }
  double e;
};

// Pow(x, 0.5) for float: sqrt rounded once equals pow in double rounded to float; pow(-0, .5) = +0 and
// pow(-inf, .5) = +inf, where sqrt gives -0 and NaN.
struct PowHalf {
  explicit PowHalf(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x == -std::numeric_limits<T>::infinity() ? std::numeric_limits<T>::infinity() : std::sqrt(x) + T(0);
  }
};

}  // namespace unary
#pragma GCC diagnostic pop
}  // namespace ge::exec
