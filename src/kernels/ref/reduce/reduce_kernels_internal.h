// Per-topic registration functions of the reduce kernel family and small numeric helpers they share.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "base/data_type.h"
#include "kernels/ref/kernel_registry.h"

namespace ge::ref {

void RegisterReductionRefKernels(KernelRegistry* r);  // Reduce*, ArgMax, ArgMin
void RegisterSoftmaxRefKernels(KernelRegistry* r);    // Softmax, LogSoftmax, Hardmax, CumSum
void RegisterTopKRefKernels(KernelRegistry* r);       // TopK
void RegisterLossRefKernels(KernelRegistry* r);       // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void RegisterEinsumRefKernels(KernelRegistry* r);     // Einsum

namespace reduce_util {

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// Wide accumulator: double for floating types, int64 / uint64 for integers (sums wrap like the integer type).
template <typename T>
using WideOf = std::conditional_t<kIsFloat<T>, double, std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

// Converts a computed value to the storage type. Floating values bound for an integer type saturate (NaN -> 0)
// instead of invoking undefined behaviour.
template <typename T, typename A>
inline T StoreAs(A v) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<T> && std::is_floating_point_v<A>) {
    if (std::isnan(v)) return T(0);
    if (v <= static_cast<A>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<A>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

// Wrapping integer arithmetic (signed overflow is undefined in C++); plain arithmetic for floating types.
template <typename A>
inline A WrapAdd(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<A>;
    return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename A>
inline A WrapMul(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<A>;
    return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

}  // namespace reduce_util
}  // namespace ge::ref
