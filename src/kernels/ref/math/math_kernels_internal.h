// Per-topic registration of the math reference kernels (called by RegisterMathRefKernels) and small helpers.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/ref/kernel_registry.h"

namespace ge::ref {

// The kernels ge::FusedMatMul and ge::FusedGemm extend (kernels/ref/fused).
Status RefMatMul(KernelContext& ctx);
Status RefGemm(KernelContext& ctx);

void RegisterMatMulRefKernels(KernelRegistry* r);    // MatMul, Gemm, Det
void RegisterQLinearRefKernels(KernelRegistry* r);   // MatMulInteger, QLinearMatMul
void RegisterQuantizeRefKernels(KernelRegistry* r);  // QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
void RegisterRnnRefKernels(KernelRegistry* r);       // RNN, GRU, LSTM
void RegisterSignalRefKernels(KernelRegistry* r);    // DFT, STFT, windows, MelWeightMatrix

namespace math {

// n elements of p converted to C (float16/bfloat16 go through float).
template <typename C, typename T>
std::vector<C> ConvertTo(const T* p, int64_t n) {
  std::vector<C> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<C>(p[i]);
  return out;
}

}  // namespace math
}  // namespace ge::ref

namespace ge::ref::math {

// Writes n values of src (float or double) into dst of the tensor's element type.
template <typename T, typename C>
void ConvertFrom(const C* src, int64_t n, T* dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
}

}  // namespace ge::ref::math
