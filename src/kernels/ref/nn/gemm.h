// Row-major GEMM for the nn reference kernels: C[M x N] = A[M x K] * B[K x N] (C is overwritten).
// Every C element is summed over k = 0..K-1 in increasing order starting from zero, whatever the blocking, so
// results do not depend on the machine. An AVX2 clone (no FMA, so no contraction) is chosen at load time where
// the CPU has it.
#pragma once
#include <cstdint>

namespace ge::ref::nn {

void Gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
          int64_t ldc);
void Gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b, int64_t ldb, double* c,
          int64_t ldc);
void Gemm(int64_t m, int64_t n, int64_t k, const int32_t* a, int64_t lda, const int32_t* b, int64_t ldb,
          int32_t* c, int64_t ldc);

}  // namespace ge::ref::nn
