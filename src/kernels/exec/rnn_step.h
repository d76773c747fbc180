// The per-step pieces shared by ge's RNN kernels (exec.lstm, exec.gru): the matrix-vector product of a hidden state
// with recurrent weights packed into column panels (one panel of 8 x kAcc columns in kAcc AVX2 accumulators, its
// rows read once per step), and loads and stores of the lanes the gate math runs on. x86-64 builds only
// (GE_RNN_STEP_X86).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "kernels/exec/fast_math.h"
#define GE_RNN_STEP_X86 1
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // lanes never cross a call: their users are flattened

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

#ifdef GE_RNN_STEP_X86
// AVX-512: one panel of 16 * kVec columns for kRows rows of h (row r at h + r * h_stride): out row r (at
// out + r * out_stride) = init row r (same stride; may alias out, or null: zeros) + h row r @ panel. kRows of 1 or
// 2 keep two sets of accumulators (even and odd rows of the panel) so that the fused multiply-adds do not wait on
// each other.
template <int kVec, int kRows>
__attribute__((target("avx512f"))) void PanelRows512(const float* h, int64_t h_stride, const float* panel, int64_t k,
                                                     const float* init, int64_t init_stride, float* out,
                                                     int64_t out_stride) {
  constexpr int kCols = 16 * kVec, kSets = kRows <= 2 ? 2 : 1;
  __m512 acc[kSets][kRows][kVec];
  for (int s = 0; s < kSets; ++s) {
    for (int r = 0; r < kRows; ++r) {
      for (int v = 0; v < kVec; ++v) {
        acc[s][r][v] =
            s == 0 && init != nullptr ? _mm512_loadu_ps(init + r * init_stride + 16 * v) : _mm512_setzero_ps();
      }
    }
  }
  int64_t i = 0;
  for (; i + kSets <= k; i += kSets) {
    for (int s = 0; s < kSets; ++s) {
      const float* row = panel + (i + s) * kCols;
      __m512 b[kVec];
      for (int v = 0; v < kVec; ++v) b[v] = _mm512_loadu_ps(row + 16 * v);
      for (int r = 0; r < kRows; ++r) {
        const __m512 hr = _mm512_set1_ps(h[r * h_stride + i + s]);
        for (int v = 0; v < kVec; ++v) acc[s][r][v] = _mm512_fmadd_ps(hr, b[v], acc[s][r][v]);
      }
    }
  }
  for (; i < k; ++i) {
    const float* row = panel + i * kCols;
    for (int r = 0; r < kRows; ++r) {
      const __m512 hr = _mm512_set1_ps(h[r * h_stride + i]);
      for (int v = 0; v < kVec; ++v) acc[0][r][v] = _mm512_fmadd_ps(hr, _mm512_loadu_ps(row + 16 * v), acc[0][r][v]);
    }
  }
  for (int r = 0; r < kRows; ++r) {
    for (int v = 0; v < kVec; ++v) {
      __m512 sum = acc[0][r][v];
      if constexpr (kSets == 2) sum = _mm512_add_ps(sum, acc[1][r][v]);
      _mm512_storeu_ps(out + r * out_stride + 16 * v, sum);
    }
  }
}

// PanelRows512 over `rows` rows of h, four at a time.
template <int kVec>
void PanelMatVecRows512(const float* h, int64_t h_stride, int64_t rows, const float* panel, int64_t k,
                        const float* init, int64_t init_stride, float* out, int64_t out_stride) {
  int64_t r = 0;
  auto at = [&](const float* p, int64_t stride) { return p != nullptr ? p + r * stride : nullptr; };
  for (; r + 4 <= rows; r += 4) {
    PanelRows512<kVec, 4>(h + r * h_stride, h_stride, panel, k, at(init, init_stride), init_stride,
                          out + r * out_stride, out_stride);
  }
  if (r + 2 <= rows) {
    PanelRows512<kVec, 2>(h + r * h_stride, h_stride, panel, k, at(init, init_stride), init_stride,
                          out + r * out_stride, out_stride);
    r += 2;
  }
  if (r < rows) {
    PanelRows512<kVec, 1>(h + r * h_stride, h_stride, panel, k, at(init, init_stride), init_stride,
                          out + r * out_stride, out_stride);
  }
}
#endif

#ifdef GE_RNN_STEP_X86
// The gate math runs fast_math.h's SigmoidLanes and TanhLanes (within 3 ulp) on W floats: 8 in AVX2 lanes, 16 in
// AVX-512 ones; the functions that use them are `flatten` with that target so the fused forms are inlined.
#define GE_RNN_AVX512_TARGET "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"

// The first min(count, W) floats of p (count may be <= 0), zeros after.
template <int W>
inline FloatLanes<W> LoadN(const float* p, int64_t count) {
  FloatLanes<W> v{};
  if (count >= W) {
    std::memcpy(&v, p, sizeof(v));
  } else if (count > 0) {
    std::memcpy(&v, p, static_cast<size_t>(count) * sizeof(float));
  }
  return v;
}
template <int W>
inline void StoreN(float* p, FloatLanes<W> v, int64_t count) {
  if (count >= W) {
    std::memcpy(p, &v, sizeof(v));
  } else if (count > 0) {
    std::memcpy(p, &v, static_cast<size_t>(count) * sizeof(float));
  }
}
#endif

}  // namespace ge::exec::rnn

#pragma GCC diagnostic pop
