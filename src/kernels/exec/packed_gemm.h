// ge's own packed-weights SGEMM for AVX2 + FMA (ge's kernels for constant-weight matrix products; the start of
// ge's own AVX2 kernels for what oneDNN 2.6 lacks there, e.g. Winograd convolutions):
//   C[M, N] = act(A[M, K] @ B[K, N] + bias[N])
// B is packed once, at prepare, into panels of kPanel columns ([N / kPanel][K][kPanel], the last panel
// zero-padded); a 6 x 16 register tile of C accumulates over the whole K. A is read in place (row stride lda).
#pragma once
#include <cstdint>
#include <vector>

#include "base/isa.h"

namespace ge::exec {

inline constexpr int64_t kPanel = 16;

struct PackedMatrix {
  int64_t k = 0, n = 0;
  std::vector<float> data;  // panels; 32-byte alignment is not required (unaligned loads)
  // The same panels where the model maps them (packed at compile time, exec/rnn_weights.h); used instead of data
  // when set. Not owned: the model's constant outlives the kernel.
  const float* mapped = nullptr;
  const float* panels() const { return mapped != nullptr ? mapped : data.data(); }
  // Floats of the panels of a [k, n] matrix.
  static int64_t PanelFloats(int64_t k, int64_t n) { return (n + kPanel - 1) / kPanel * k * kPanel; }
};

// Packs B ([K, N] with row stride ldb, or, when trans, B^T stored as [N, K] with row stride ldb).
PackedMatrix PackB(const float* b, int64_t k, int64_t n, int64_t ldb, bool trans);

enum class GemmActivation { kNone, kRelu };

// Whether this CPU runs the AVX2 + FMA kernel.
bool PackedGemmAvailable();
// Whether a model for target `max_isa` (kNone: no limit) may use it here: available, and the target is x86-64-v3
// or above.
inline bool PackedGemmAllowed(IsaLevel max_isa) {
  return PackedGemmAvailable() &&
         (max_isa == IsaLevel::kNone || static_cast<int>(max_isa) >= static_cast<int>(IsaLevel::kX86_64_V3));
}

// Rows [m0, m1) of C = A @ B + bias (bias may be null) with AVX-512 tiles of 6 rows x two panels over the same packed
// B: for kernels whose model target allows AVX-512 (PickLoopIsa); sums in another order than PackedGemm. Requires
// AVX-512F.
void PackedGemmAvx512(int64_t m0, int64_t m1, const float* a, int64_t lda, const PackedMatrix& b, const float* bias,
                      float* c, int64_t ldc);

// Rows [m0, m1) and panels [p0, p1) of C = act(A @ B + bias); bias may be null. Requires PackedGemmAvailable().
void PackedGemm(int64_t m0, int64_t m1, int64_t p0, int64_t p1, const float* a, int64_t lda, const PackedMatrix& b,
                const float* bias, GemmActivation act, float* c, int64_t ldc);

}  // namespace ge::exec
