#include "kernels/dnnl/silu_epilogue.h"

#include <algorithm>

#include "base/target_clones.h"
#include "kernels/exec/fast_exp.h"

namespace ge::dnnl_kernels {
namespace {

GE_TARGET_CLONES("avx512f", "avx2,fma", "default")
void SiluRange(float* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) y[i] = y[i] / (1.0f + exec::FastExp(-y[i]));
}

}  // namespace

void SiluInPlace(float* y, int64_t n, int threads) {
  constexpr int64_t kChunk = 16 * 1024;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  if (threads <= 1 || chunks <= 1) {
    SiluRange(y, 0, n);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) SiluRange(y, c * kChunk, std::min(n, (c + 1) * kChunk));
}

}  // namespace ge::dnnl_kernels
