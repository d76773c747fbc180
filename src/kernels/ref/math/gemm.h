// Dense row-major matrix products used by the math kernels (MatMul, Gemm, RNNs, QLinearMatMul): a packed, blocked
// GEMM for float and double, and a plain loop for integer types.
#pragma once
#include <cstdint>
#include <type_traits>

namespace ge::ref::math {

// C[M,N] += alpha * op(A) @ op(B), where op(A) is [M,K] and op(B) is [K,N]. Element (i,k) of op(A) is
// A[i*lda + k] or, when trans_a, A[k*lda + i]; likewise for B. C has row stride ldc. Accumulates in T.
// Single-threaded; allocates only packing buffers bounded by the block sizes.
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc);
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc);

// C[M,N] += A[M,K] @ B[K,N] for contiguous row-major integer matrices (i-k-j order, vectorizable inner loop).
// Overflow wraps modulo 2^bits (computed in the unsigned type, so it is defined behaviour).
template <typename T>
void GemmInt(int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c) {
  using U = std::make_unsigned_t<T>;
  for (int64_t i = 0; i < m; ++i) {
    T* crow = c + i * n;
    for (int64_t p = 0; p < k; ++p) {
      const U av = static_cast<U>(a[i * k + p]);
      const T* brow = b + p * n;
      for (int64_t j = 0; j < n; ++j) crow[j] = static_cast<T>(static_cast<U>(crow[j]) + av * static_cast<U>(brow[j]));
    }
  }
}

}  // namespace ge::ref::math
