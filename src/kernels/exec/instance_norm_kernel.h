// InstanceNormalization as a prepared kernel ("exec.instance_norm"): float32 X [N, C, D1, ...] in a plain layout,
// scale and B of C elements (constants or not, read at each run). Per (n, c) plane: the mean and then the variance
// as double sums over the plane (as the reference kernel, so large means lose nothing), then
// y = (x - mean) * (scale / sqrt(var + eps)) + B in double, rounded once to float. Planes are split over the pool
// (fewer planes than threads: in chunks whose partial sums are added in order); the loops come in AVX-512, AVX2 and
// baseline builds, chosen by the CPU within the model's target ISA. GroupNorm as PyTorch exports it (Reshape to [N,
// groups, L], InstanceNormalization, Reshape, Mul, Add) runs its middle node here.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not one this kernel runs (another dtype, rank < 2, a layout other than plain, dims
// that vary): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareInstanceNorm(const PrepareRequest& request);

}  // namespace ge::exec
