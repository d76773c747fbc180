#include "kernels/ref/nn/gemm.h"

#include <algorithm>
#include <vector>

#include "base/target_clones.h"

namespace ge::ref::nn {
namespace {

constexpr int kMr = 4;   // rows of C per micro-tile
constexpr int kNr = 16;  // columns of C per micro-tile (one packed B panel)

// C[4 x 16] = A[4 x K] * panel[K x 16]; accumulators live in registers across the whole K loop.
template <typename T>
__attribute__((always_inline)) inline void Micro4(int64_t k, const T* a, int64_t lda, const T* panel, T* c,
                                                   int64_t ldc) {
  T acc0[kNr] = {}, acc1[kNr] = {}, acc2[kNr] = {}, acc3[kNr] = {};
  const T* a0 = a;
  const T* a1 = a + lda;
  const T* a2 = a + 2 * lda;
  const T* a3 = a + 3 * lda;
#pragma GCC unroll 1
  for (int64_t p = 0; p < k; ++p) {
    const T* b = panel + p * kNr;
    const T x0 = a0[p], x1 = a1[p], x2 = a2[p], x3 = a3[p];
    for (int j = 0; j < kNr; ++j) {
      acc0[j] += x0 * b[j];
      acc1[j] += x1 * b[j];
      acc2[j] += x2 * b[j];
      acc3[j] += x3 * b[j];
    }
  }
  for (int j = 0; j < kNr; ++j) {
    c[j] = acc0[j];
    c[ldc + j] = acc1[j];
    c[2 * ldc + j] = acc2[j];
    c[3 * ldc + j] = acc3[j];
  }
}

template <typename T>
__attribute__((always_inline)) inline void Micro1(int64_t k, const T* a, const T* panel, T* c) {
  T acc[kNr] = {};
  for (int64_t p = 0; p < k; ++p) {
    const T* b = panel + p * kNr;
    const T x = a[p];
    for (int j = 0; j < kNr; ++j) acc[j] += x * b[j];
  }
  for (int j = 0; j < kNr; ++j) c[j] = acc[j];
}

template <typename T>
__attribute__((always_inline)) inline void GemmImpl(int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                                                     const T* b, int64_t ldb, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  std::vector<T> panel(static_cast<size_t>(std::max<int64_t>(k, 1)) * kNr);
  int64_t j0 = 0;
  for (; j0 + kNr <= n; j0 += kNr) {
    for (int64_t p = 0; p < k; ++p) {
      const T* src = b + p * ldb + j0;
      T* dst = panel.data() + p * kNr;
      for (int j = 0; j < kNr; ++j) dst[j] = src[j];
    }
    int64_t i = 0;
    for (; i + kMr <= m; i += kMr) Micro4(k, a + i * lda, lda, panel.data(), c + i * ldc + j0, ldc);
    for (; i < m; ++i) Micro1(k, a + i * lda, panel.data(), c + i * ldc + j0);
  }
  if (j0 < n) {
    const int64_t nr = n - j0;
    for (int64_t i = 0; i < m; ++i) {
      T acc[kNr] = {};
      const T* ai = a + i * lda;
      for (int64_t p = 0; p < k; ++p) {
        const T x = ai[p];
        const T* bp = b + p * ldb + j0;
        for (int64_t j = 0; j < nr; ++j) acc[j] += x * bp[j];
      }
      for (int64_t j = 0; j < nr; ++j) c[i * ldc + j0 + j] = acc[j];
    }
  }
}

}  // namespace

GE_TARGET_CLONES("avx2", "default") void Gemm(int64_t m, int64_t n, int64_t k, const float* a,
                                                             int64_t lda, const float* b, int64_t ldb, float* c,
                                                             int64_t ldc) {
  GemmImpl(m, n, k, a, lda, b, ldb, c, ldc);
}

GE_TARGET_CLONES("avx2", "default") void Gemm(int64_t m, int64_t n, int64_t k, const double* a,
                                                             int64_t lda, const double* b, int64_t ldb, double* c,
                                                             int64_t ldc) {
  GemmImpl(m, n, k, a, lda, b, ldb, c, ldc);
}

GE_TARGET_CLONES("avx2", "default") void Gemm(int64_t m, int64_t n, int64_t k, const int32_t* a,
                                                             int64_t lda, const int32_t* b, int64_t ldb, int32_t* c,
                                                             int64_t ldc) {
  GemmImpl(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace ge::ref::nn
