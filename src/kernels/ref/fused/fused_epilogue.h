// The element-wise tail of the ge:: fused ops, in the order and with the rounding of the unfused ONNX ops: each
// step computes in the compute type C (float for float16/bfloat16, else the storage type T) and rounds to T, as
// the separate Add / activation nodes would store it. The activation formulas are the elementwise family's
// (activation_kernels.cc), expression for expression, so on the reference kernels fused and unfused graphs agree
// bit for bit. Gelu follows torch.onnx's export Div(x, sqrt2) -> Erf -> Add 1 -> Mul x -> Mul 0.5; the other
// exported GELU forms differ from it in rounding only.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "base/data_type.h"
#include "ops/fused/fused_activation.h"

namespace ge::ref::fused {

template <typename T>
using Compute = typename ComputeTypeOf<T>::type;

// c as the storage type T would hold it, back in the compute type.
template <typename T>
inline Compute<T> Round(Compute<T> c) {
  if constexpr (std::is_same_v<T, Compute<T>>) {
    return c;
  } else {
    return static_cast<Compute<T>>(T(static_cast<float>(c)));
  }
}

template <typename C>
inline C SigmoidOf(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  C e = std::exp(x);
  return e / (C(1) + e);
}

// act(x) for x already rounded to T; the caller rounds the result. p0, p1: ActivationSpec::param.
template <typename T, ge::fused::Activation K>
inline Compute<T> Activate(Compute<T> x, float p0, float p1) {
  using C = Compute<T>;
  using A = ge::fused::Activation;
  if constexpr (K == A::kRelu) {
    return x < 0 ? C(0) : x;
  } else if constexpr (K == A::kLeakyRelu) {
    return x < 0 ? x * p0 : x;
  } else if constexpr (K == A::kClip) {
    return std::min(std::max(x, static_cast<C>(p0)), static_cast<C>(p1));
  } else if constexpr (K == A::kSigmoid) {
    return SigmoidOf(x);
  } else if constexpr (K == A::kTanh) {
    return std::tanh(x);
  } else if constexpr (K == A::kHardSigmoid) {
    return std::max(C(0), std::min(C(1), p0 * x + p1));
  } else if constexpr (K == A::kHardSwish) {
    const C alpha = static_cast<C>(1.0f / 6.0f);
    return x * std::max(C(0), std::min(C(1), alpha * x + C(0.5)));
  } else if constexpr (K == A::kElu) {
    return x < 0 ? p0 * std::expm1(x) : x;
  } else if constexpr (K == A::kGelu) {
    const C sqrt2 = static_cast<C>(static_cast<T>(1.4142135623730951));
    const C e1 = Round<T>(Round<T>(std::erf(Round<T>(x / sqrt2))) + C(1));
    return Round<T>(x * e1) * C(0.5);
  } else if constexpr (K == A::kSilu) {
    return x * Round<T>(SigmoidOf(x));
  } else {
    return x;
  }
}

// y[i] = act(y[i] + add[...]) over n elements; add indexes by i, or by i % period when period > 0.
template <typename T, ge::fused::Activation K>
void EpilogueLoop(const ge::fused::ActivationSpec& a, const T* add, int64_t period, T* y, int64_t n) {
  using C = Compute<T>;
  const float p0 = a.param[0], p1 = a.param[1];
  if (add == nullptr) {
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(Activate<T, K>(static_cast<C>(y[i]), p0, p1));
    return;
  }
  const int64_t row = period > 0 ? period : n;
  for (int64_t start = 0; start < n; start += row) {
    const T* add_row = period > 0 ? add : add + start;
    T* y_row = y + start;
    for (int64_t j = 0; j < row; ++j) {
      const C v = Round<T>(static_cast<C>(y_row[j]) + static_cast<C>(add_row[j]));
      y_row[j] = static_cast<T>(Activate<T, K>(v, p0, p1));
    }
  }
}

// y = act(y + add) for the n elements of y. add: nullptr for none, else n elements, or `period` elements repeated
// along y when period > 0 (a bias over the last dim).
template <typename T>
void ApplyEpilogue(const ge::fused::ActivationSpec& a, const T* add, int64_t period, T* y, int64_t n) {
  using A = ge::fused::Activation;
  switch (a.kind) {
    case A::kNone:
      if (add != nullptr) EpilogueLoop<T, A::kNone>(a, add, period, y, n);
      return;
    case A::kRelu: return EpilogueLoop<T, A::kRelu>(a, add, period, y, n);
    case A::kLeakyRelu: return EpilogueLoop<T, A::kLeakyRelu>(a, add, period, y, n);
    case A::kClip: return EpilogueLoop<T, A::kClip>(a, add, period, y, n);
    case A::kSigmoid: return EpilogueLoop<T, A::kSigmoid>(a, add, period, y, n);
    case A::kTanh: return EpilogueLoop<T, A::kTanh>(a, add, period, y, n);
    case A::kHardSigmoid: return EpilogueLoop<T, A::kHardSigmoid>(a, add, period, y, n);
    case A::kHardSwish: return EpilogueLoop<T, A::kHardSwish>(a, add, period, y, n);
    case A::kElu: return EpilogueLoop<T, A::kElu>(a, add, period, y, n);
    case A::kGelu: return EpilogueLoop<T, A::kGelu>(a, add, period, y, n);
    case A::kSilu: return EpilogueLoop<T, A::kSilu>(a, add, period, y, n);
  }
}

}  // namespace ge::ref::fused
