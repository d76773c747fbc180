#include "kernels/exec/packed_gemm.h"

#include <algorithm>
#include <cstring>

#include "base/isa.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GE_PACKED_GEMM_X86 1
#endif

namespace ge::exec {

PackedMatrix PackB(const float* b, int64_t k, int64_t n, int64_t ldb, bool trans) {
  PackedMatrix p;
  p.k = k;
  p.n = n;
  const int64_t panels = (n + kPanel - 1) / kPanel;
  p.data.assign(static_cast<size_t>(panels * k * kPanel), 0.f);
  for (int64_t q = 0; q < panels; ++q) {
    float* dst = p.data.data() + q * k * kPanel;
    for (int64_t kk = 0; kk < k; ++kk) {
      for (int64_t j = 0; j < kPanel && q * kPanel + j < n; ++j) {
        const int64_t col = q * kPanel + j;
        dst[kk * kPanel + j] = trans ? b[col * ldb + kk] : b[kk * ldb + col];
      }
    }
  }
  return p;
}

bool PackedGemmAvailable() {
#ifdef GE_PACKED_GEMM_X86
  const uint64_t need = kIsaAvx2 | kIsaFma;
  return (HostIsa().features & need) == need;
#else
  return false;
#endif
}

#ifdef GE_PACKED_GEMM_X86
namespace {

// Stores one row of a tile: bias, activation, and a partial store for the last panel.
__attribute__((target("avx2,fma"))) inline void StoreRow(__m256 v0, __m256 v1, __m256 bias0, __m256 bias1,
                                                         GemmActivation act, float* row, int64_t cols) {
  v0 = _mm256_add_ps(v0, bias0);
  v1 = _mm256_add_ps(v1, bias1);
  if (act == GemmActivation::kRelu) {
    v0 = _mm256_max_ps(_mm256_setzero_ps(), v0);  // NaN stays NaN (max returns its second operand then)
    v1 = _mm256_max_ps(_mm256_setzero_ps(), v1);
  }
  if (cols == kPanel) {
    _mm256_storeu_ps(row, v0);
    _mm256_storeu_ps(row + 8, v1);
    return;
  }
  float tmp[kPanel];
  _mm256_storeu_ps(tmp, v0);
  _mm256_storeu_ps(tmp + 8, v1);
  std::memcpy(row, tmp, static_cast<size_t>(cols) * sizeof(float));
}

// MR rows of C x one 16-column panel, accumulated over all of K in twelve named registers (an array of
// accumulators would live on the stack).
template <int MR>
__attribute__((target("avx2,fma"))) void Tile(const float* a, int64_t lda, const float* panel, int64_t k,
                                              const float* bias, GemmActivation act, float* c, int64_t ldc,
                                              int64_t cols) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
  __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  const float* a0 = a;
  const float* a1 = a + lda;
  const float* a2 = a + 2 * lda;
  const float* a3 = a + 3 * lda;
  const float* a4 = a + 4 * lda;
  const float* a5 = a + 5 * lda;
  for (int64_t kk = 0; kk < k; ++kk) {
    const __m256 b0 = _mm256_loadu_ps(panel + kk * kPanel);
    const __m256 b1 = _mm256_loadu_ps(panel + kk * kPanel + 8);
    __m256 av = _mm256_broadcast_ss(a0 + kk);
    c00 = _mm256_fmadd_ps(av, b0, c00);
    c01 = _mm256_fmadd_ps(av, b1, c01);
    if constexpr (MR > 1) {
      av = _mm256_broadcast_ss(a1 + kk);
      c10 = _mm256_fmadd_ps(av, b0, c10);
      c11 = _mm256_fmadd_ps(av, b1, c11);
    }
    if constexpr (MR > 2) {
      av = _mm256_broadcast_ss(a2 + kk);
      c20 = _mm256_fmadd_ps(av, b0, c20);
      c21 = _mm256_fmadd_ps(av, b1, c21);
    }
    if constexpr (MR > 3) {
      av = _mm256_broadcast_ss(a3 + kk);
      c30 = _mm256_fmadd_ps(av, b0, c30);
      c31 = _mm256_fmadd_ps(av, b1, c31);
    }
    if constexpr (MR > 4) {
      av = _mm256_broadcast_ss(a4 + kk);
      c40 = _mm256_fmadd_ps(av, b0, c40);
      c41 = _mm256_fmadd_ps(av, b1, c41);
    }
    if constexpr (MR > 5) {
      av = _mm256_broadcast_ss(a5 + kk);
      c50 = _mm256_fmadd_ps(av, b0, c50);
      c51 = _mm256_fmadd_ps(av, b1, c51);
    }
  }
  float bias_buf[kPanel] = {};
  if (bias != nullptr) std::memcpy(bias_buf, bias, static_cast<size_t>(cols) * sizeof(float));
  const __m256 bias0 = _mm256_loadu_ps(bias_buf), bias1 = _mm256_loadu_ps(bias_buf + 8);
  StoreRow(c00, c01, bias0, bias1, act, c, cols);
  if constexpr (MR > 1) StoreRow(c10, c11, bias0, bias1, act, c + ldc, cols);
  if constexpr (MR > 2) StoreRow(c20, c21, bias0, bias1, act, c + 2 * ldc, cols);
  if constexpr (MR > 3) StoreRow(c30, c31, bias0, bias1, act, c + 3 * ldc, cols);
  if constexpr (MR > 4) StoreRow(c40, c41, bias0, bias1, act, c + 4 * ldc, cols);
  if constexpr (MR > 5) StoreRow(c50, c51, bias0, bias1, act, c + 5 * ldc, cols);
}

using TileFn = void (*)(const float*, int64_t, const float*, int64_t, const float*, GemmActivation, float*, int64_t,
                        int64_t);
constexpr TileFn kTiles[] = {nullptr, Tile<1>, Tile<2>, Tile<3>, Tile<4>, Tile<5>, Tile<6>};
constexpr int kRows = 6;

}  // namespace
#endif

#ifdef GE_PACKED_GEMM_X86
namespace {

// MR rows of C x one or two 16-column panels (kTwo), accumulated over all of K.
template <int MR, bool kTwo>
__attribute__((target("avx512f"))) void Tile512(const float* a, int64_t lda, const float* p0, const float* p1,
                                                int64_t k, const float* bias, float* c, int64_t ldc, int64_t cols) {
  constexpr int kVec = kTwo ? 2 : 1;
  __m512 acc[MR][kVec];
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < kVec; ++v) acc[r][v] = _mm512_setzero_ps();
  }
  for (int64_t kk = 0; kk < k; ++kk) {
    __m512 b[kVec];
    b[0] = _mm512_loadu_ps(p0 + kk * kPanel);
    if constexpr (kTwo) b[1] = _mm512_loadu_ps(p1 + kk * kPanel);
    for (int r = 0; r < MR; ++r) {
      const __m512 av = _mm512_set1_ps(a[r * lda + kk]);
      for (int v = 0; v < kVec; ++v) acc[r][v] = _mm512_fmadd_ps(av, b[v], acc[r][v]);
    }
  }
  for (int v = 0; v < kVec; ++v) {
    const int64_t n = std::min<int64_t>(kPanel, cols - v * kPanel);
    const __mmask16 mask = n >= kPanel ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1);
    const __m512 bv = bias != nullptr ? _mm512_maskz_loadu_ps(mask, bias + v * kPanel) : _mm512_setzero_ps();
    for (int r = 0; r < MR; ++r) _mm512_mask_storeu_ps(c + r * ldc + v * kPanel, mask, _mm512_add_ps(acc[r][v], bv));
  }
}

using Tile512Fn = void (*)(const float*, int64_t, const float*, const float*, int64_t, const float*, float*, int64_t,
                           int64_t);
constexpr Tile512Fn kTiles512[2][7] = {{nullptr, Tile512<1, false>, Tile512<2, false>, Tile512<3, false>,
                                        Tile512<4, false>, Tile512<5, false>, Tile512<6, false>},
                                       {nullptr, Tile512<1, true>, Tile512<2, true>, Tile512<3, true>, Tile512<4, true>,
                                        Tile512<5, true>, Tile512<6, true>}};

}  // namespace
#endif

void PackedGemmAvx512(int64_t m0, int64_t m1, const float* a, int64_t lda, const PackedMatrix& b, const float* bias,
                      float* c, int64_t ldc) {
#ifdef GE_PACKED_GEMM_X86
  const int64_t panels = (b.n + kPanel - 1) / kPanel;
  for (int64_t q = 0; q < panels; q += 2) {
    const bool two = q + 1 < panels;
    const float* p0 = b.panels() + q * b.k * kPanel;
    const float* p1 = two ? p0 + b.k * kPanel : nullptr;
    const int64_t col0 = q * kPanel, cols = std::min<int64_t>((two ? 2 : 1) * kPanel, b.n - col0);
    for (int64_t i = m0; i < m1; i += 6) {
      const int rows = static_cast<int>(std::min<int64_t>(6, m1 - i));
      kTiles512[two ? 1 : 0][rows](a + i * lda, lda, p0, p1, b.k, bias != nullptr ? bias + col0 : nullptr,
                                   c + i * ldc + col0, ldc, cols);
    }
  }
#endif
}

void PackedGemm(int64_t m0, int64_t m1, int64_t p0, int64_t p1, const float* a, int64_t lda, const PackedMatrix& b,
                const float* bias, GemmActivation act, float* c, int64_t ldc) {
#ifdef GE_PACKED_GEMM_X86
  for (int64_t q = p0; q < p1; ++q) {
    const float* panel = b.panels() + q * b.k * kPanel;
    const int64_t col0 = q * kPanel, cols = std::min(kPanel, b.n - col0);
    for (int64_t i = m0; i < m1; i += kRows) {
      const int rows = static_cast<int>(std::min<int64_t>(kRows, m1 - i));
      kTiles[rows](a + i * lda, lda, panel, b.k, bias != nullptr ? bias + col0 : nullptr, act, c + i * ldc + col0, ldc,
                   cols);
    }
  }
#else
  (void)m0, (void)m1, (void)p0, (void)p1, (void)a, (void)lda, (void)b, (void)bias, (void)act, (void)c, (void)ldc;
#endif
}

}  // namespace ge::exec
