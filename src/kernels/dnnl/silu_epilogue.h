// SiLU (x * sigmoid(x)) applied in place after a oneDNN primitive, instead of as its eltwise_swish post-op: oneDNN
// 2.6's swish post-op makes a 1x1 or depthwise convolution 2-3x slower on EfficientNet's layers (16->96 at 112x112:
// 187 us plain, 536 us with swish, Zen 4), while this loop (vectorised exp, exec/fast_exp.h, within 1 ulp of expf)
// costs a fraction of that on the still-cached output. SiLU(0) = 0 keeps NC1HWC0's channel padding zero.
#pragma once
#include <cstdint>

#include "base/isa.h"

namespace ge::dnnl_kernels {

// y[i] = y[i] * sigmoid(y[i]) for i < n, split over `threads` OpenMP threads. The loop is the CPU's widest
// (AVX-512, AVX2 + FMA, scalar), at most `max_level`'s (kNone: no limit; tests pick each loop so).
void SiluInPlace(float* y, int64_t n, int threads, IsaLevel max_level = IsaLevel::kNone);

}  // namespace ge::dnnl_kernels
