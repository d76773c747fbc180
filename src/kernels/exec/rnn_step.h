// The per-step pieces shared by ge's RNN kernels (exec.lstm, exec.gru): the matrix-vector product of a hidden state
// with recurrent weights packed into column panels (one panel of 8 x kAcc columns in kAcc AVX2 accumulators, its
// rows read once per step), and the scalar gate functions on FastExp. x86-64 builds only (GE_RNN_STEP_X86).
#pragma once
#include <cstdint>

#include "kernels/exec/fast_exp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GE_RNN_STEP_X86 1
#endif

namespace ge::exec::rnn {

#ifdef GE_RNN_STEP_X86
// For each of `num_panels` panels ([k][8 * kAcc] floats each, one after another): out[8 * kAcc] = base + h @ panel,
// base being `init`'s 8 * kAcc floats (may alias out) or zeros when init is null. out and init advance by
// 8 * kAcc per panel.
template <int kAcc>
__attribute__((target("avx2,fma"))) void PanelMatVec(const float* h, const float* panels, int64_t k, int64_t num_panels,
                                                     const float* init, float* out) {
  constexpr int64_t kCols = 8 * kAcc;
  for (int64_t p = 0; p < num_panels; ++p) {
    const float* panel = panels + p * k * kCols;
    __m256 acc[kAcc];
    for (int a = 0; a < kAcc; ++a) {
      acc[a] = init != nullptr ? _mm256_loadu_ps(init + p * kCols + 8 * a) : _mm256_setzero_ps();
    }
    for (int64_t i = 0; i < k; ++i) {
      const __m256 hi = _mm256_broadcast_ss(h + i);
      const float* row = panel + i * kCols;
      for (int a = 0; a < kAcc; ++a) acc[a] = _mm256_fmadd_ps(hi, _mm256_loadu_ps(row + 8 * a), acc[a]);
    }
    for (int a = 0; a < kAcc; ++a) _mm256_storeu_ps(out + p * kCols + 8 * a, acc[a]);
  }
}
#endif

inline float Sigmoid(float x) { return 1.f / (1.f + FastExp(-x)); }

// 1 - 2 / (exp(2x) + 1): exact limits at +-inf (exp overflows to inf or underflows to 0), NaN stays NaN. Below
// |x| = 1/4, where that difference cancels, the odd Taylor polynomial to x^9 (relative error < 1e-8).
inline float Tanh(float x) {
  const float x2 = x * x;
  float p = 62.f / 2835.f;
  p = p * x2 - 17.f / 315.f;
  p = p * x2 + 2.f / 15.f;
  p = p * x2 - 1.f / 3.f;
  p = p * x2 + 1.f;
  const float small = x * p;
  const float large = 1.f - 2.f / (FastExp(2.f * x) + 1.f);
  return x2 < 0.0625f ? small : large;
}

}  // namespace ge::exec::rnn
