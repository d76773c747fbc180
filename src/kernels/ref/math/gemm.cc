// Packed, blocked GEMM in the style of BLIS/GotoBLAS: op(B) is packed into KC x NR column panels and alpha*op(A)
// into MC x KC row panels; an MR x NR register-blocked micro-kernel accumulates into C. The macro-kernel is
// compiled twice on x86-64 GCC (baseline SSE2 and x86-64-v3, i.e. AVX2/FMA) and picked at load time by the CPU.
#include "kernels/ref/math/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/target_clones.h"

namespace ge::ref::math {
namespace {

#define GE_MATH_MULTIVERSION GE_TARGET_CLONES("arch=x86-64-v3", "default")

// 32-byte GCC/Clang vector types: one AVX register under the Haswell clone, two SSE registers otherwise.
typedef float VecF __attribute__((vector_size(32)));
typedef double VecD __attribute__((vector_size(32)));

template <typename T> struct Blocking;
template <> struct Blocking<float> {
  using Vec = VecF;
  static constexpr int kMR = 6, kNR = 16;
  static constexpr int64_t kKC = 256, kMC = 120, kNC = 2048;
};
template <> struct Blocking<double> {
  using Vec = VecD;
  static constexpr int kMR = 6, kNR = 8;
  static constexpr int64_t kKC = 256, kMC = 96, kNC = 1024;
};

// acc[MR x NR] = sum_p ap[p][:] (outer) bp[p][:], then C[:mr, :nr] += acc. Two vectors span NR.
template <typename T, int MR, int NR>
__attribute__((always_inline)) inline void MicroKernel(int64_t kc, const T* ap, const T* bp, T* c, int64_t ldc,
                                                       int mr, int nr) {
  using Vec = typename Blocking<T>::Vec;
  constexpr int kLanes = static_cast<int>(sizeof(Vec) / sizeof(T));
  static_assert(NR == 2 * kLanes, "micro-kernel spans two vectors");
  Vec neg_zero;  // x + -0.0 == x for every x, so the broadcast below folds to a plain broadcast
  for (int l = 0; l < kLanes; ++l) neg_zero[l] = T(-0.0);
  Vec acc[MR][2];
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = Vec{};
  for (int64_t p = 0; p < kc; ++p) {
    Vec b0, b1;
    std::memcpy(&b0, bp + p * NR, sizeof(Vec));
    std::memcpy(&b1, bp + p * NR + kLanes, sizeof(Vec));
    const T* ak = ap + p * MR;
    for (int i = 0; i < MR; ++i) {
      const Vec a = neg_zero + ak[i];
      acc[i][0] += a * b0;
      acc[i][1] += a * b1;
    }
  }
  if (mr == MR && nr == NR) {
    for (int i = 0; i < MR; ++i) {
      Vec c0, c1;
      std::memcpy(&c0, c + i * ldc, sizeof(Vec));
      std::memcpy(&c1, c + i * ldc + kLanes, sizeof(Vec));
      c0 += acc[i][0];
      c1 += acc[i][1];
      std::memcpy(c + i * ldc, &c0, sizeof(Vec));
      std::memcpy(c + i * ldc + kLanes, &c1, sizeof(Vec));
    }
  } else {
    for (int i = 0; i < mr; ++i)
      for (int j = 0; j < nr; ++j) c[i * ldc + j] += j < kLanes ? acc[i][0][j] : acc[i][1][j - kLanes];
  }
}

// C[mc, nc] += packed A (mc x kc, MR-row panels) @ packed B (kc x nc, NR-column panels).
template <typename T>
__attribute__((always_inline)) inline void MacroKernel(int64_t mc, int64_t nc, int64_t kc, const T* ap, const T* bp,
                                                       T* c, int64_t ldc) {
  constexpr int MR = Blocking<T>::kMR, NR = Blocking<T>::kNR;
  for (int64_t jr = 0; jr < nc; jr += NR) {
    const int nr = static_cast<int>(std::min<int64_t>(NR, nc - jr));
    for (int64_t ir = 0; ir < mc; ir += MR) {
      const int mr = static_cast<int>(std::min<int64_t>(MR, mc - ir));
      MicroKernel<T, MR, NR>(kc, ap + ir * kc, bp + jr * kc, c + ir * ldc + jr, ldc, mr, nr);
    }
  }
}

GE_MATH_MULTIVERSION void MacroKernelF32(int64_t mc, int64_t nc, int64_t kc, const float* ap, const float* bp,
                                         float* c, int64_t ldc) {
  MacroKernel<float>(mc, nc, kc, ap, bp, c, ldc);
}
GE_MATH_MULTIVERSION void MacroKernelF64(int64_t mc, int64_t nc, int64_t kc, const double* ap, const double* bp,
                                         double* c, int64_t ldc) {
  MacroKernel<double>(mc, nc, kc, ap, bp, c, ldc);
}
void RunMacro(int64_t mc, int64_t nc, int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc) {
  MacroKernelF32(mc, nc, kc, ap, bp, c, ldc);
}
void RunMacro(int64_t mc, int64_t nc, int64_t kc, const double* ap, const double* bp, double* c, int64_t ldc) {
  MacroKernelF64(mc, nc, kc, ap, bp, c, ldc);
}

// Packs alpha * op(A)[i0:i0+mc, p0:p0+kc] as MR-row panels, each stored k-major: out[panel][p][r].
template <typename T>
void PackA(bool trans, const T* a, int64_t lda, int64_t i0, int64_t p0, int64_t mc, int64_t kc, T alpha, T* out) {
  constexpr int MR = Blocking<T>::kMR;
  for (int64_t ir = 0; ir < mc; ir += MR) {
    T* panel = out + ir * kc;
    const int mr = static_cast<int>(std::min<int64_t>(MR, mc - ir));
    for (int r = 0; r < MR; ++r) {
      if (r >= mr) {
        for (int64_t p = 0; p < kc; ++p) panel[p * MR + r] = T(0);
        continue;
      }
      const int64_t i = i0 + ir + r;
      if (!trans) {
        const T* row = a + i * lda + p0;
        for (int64_t p = 0; p < kc; ++p) panel[p * MR + r] = alpha * row[p];
      } else {
        const T* col = a + p0 * lda + i;
        for (int64_t p = 0; p < kc; ++p) panel[p * MR + r] = alpha * col[p * lda];
      }
    }
  }
}

// Packs op(B)[p0:p0+kc, j0:j0+nc] as NR-column panels, each stored k-major: out[panel][p][c].
template <typename T>
void PackB(bool trans, const T* b, int64_t ldb, int64_t p0, int64_t j0, int64_t kc, int64_t nc, T* out) {
  constexpr int NR = Blocking<T>::kNR;
  for (int64_t jr = 0; jr < nc; jr += NR) {
    T* panel = out + jr * kc;
    const int nr = static_cast<int>(std::min<int64_t>(NR, nc - jr));
    if (!trans) {
      for (int64_t p = 0; p < kc; ++p) {
        const T* row = b + (p0 + p) * ldb + j0 + jr;
        T* dst = panel + p * NR;
        for (int c = 0; c < nr; ++c) dst[c] = row[c];
        for (int c = nr; c < NR; ++c) dst[c] = T(0);
      }
    } else {
      for (int c = 0; c < NR; ++c) {
        if (c >= nr) {
          for (int64_t p = 0; p < kc; ++p) panel[p * NR + c] = T(0);
          continue;
        }
        const T* row = b + (j0 + jr + c) * ldb + p0;
        for (int64_t p = 0; p < kc; ++p) panel[p * NR + c] = row[p];
      }
    }
  }
}

// Few rows: packing B would cost as much as the product, so multiply directly.
template <typename T>
void SmallM(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
            const T* b, int64_t ldb, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* crow = c + i * ldc;
    if (!trans_b) {
      for (int64_t p = 0; p < k; ++p) {
        const T av = alpha * (trans_a ? a[p * lda + i] : a[i * lda + p]);
        const T* brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    } else {
      for (int64_t j = 0; j < n; ++j) {
        const T* brow = b + j * ldb;
        T s[4] = {0, 0, 0, 0};
        int64_t p = 0;
        if (!trans_a) {
          const T* arow = a + i * lda;
          for (; p + 4 <= k; p += 4) {
            s[0] += arow[p] * brow[p];
            s[1] += arow[p + 1] * brow[p + 1];
            s[2] += arow[p + 2] * brow[p + 2];
            s[3] += arow[p + 3] * brow[p + 3];
          }
          for (; p < k; ++p) s[0] += arow[p] * brow[p];
        } else {
          for (; p < k; ++p) s[0] += a[p * lda + i] * brow[p];
        }
        crow[j] += alpha * ((s[0] + s[1]) + (s[2] + s[3]));
      }
    }
  }
}

template <typename T>
void GemmImpl(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
              const T* b, int64_t ldb, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  if (m < 4) {
    SmallM(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
    return;
  }
  using B = Blocking<T>;
  const int64_t nc_max = std::min<int64_t>(B::kNC, (n + B::kNR - 1) / B::kNR * B::kNR);
  const int64_t kc_max = std::min<int64_t>(B::kKC, k);
  const int64_t mc_max = std::min<int64_t>(B::kMC, (m + B::kMR - 1) / B::kMR * B::kMR);
  std::vector<T> bpack(static_cast<size_t>(kc_max * nc_max));
  std::vector<T> apack(static_cast<size_t>(mc_max * kc_max));
  for (int64_t j0 = 0; j0 < n; j0 += B::kNC) {
    const int64_t nc = std::min<int64_t>(B::kNC, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += B::kKC) {
      const int64_t kc = std::min<int64_t>(B::kKC, k - p0);
      PackB(trans_b, b, ldb, p0, j0, kc, nc, bpack.data());
      for (int64_t i0 = 0; i0 < m; i0 += B::kMC) {
        const int64_t mc = std::min<int64_t>(B::kMC, m - i0);
        PackA(trans_a, a, lda, i0, p0, mc, kc, alpha, apack.data());
        RunMacro(mc, nc, kc, apack.data(), bpack.data(), c + i0 * ldc + j0, ldc);
      }
    }
  }
}

}  // namespace

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc) {
  GemmImpl<float>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
}

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc) {
  GemmImpl<double>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
}

}  // namespace ge::ref::math
