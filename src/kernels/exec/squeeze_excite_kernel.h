// ge::SqueezeExcite (ops/fused/squeeze_excite_op.h) as one prepared kernel ("exec.squeeze_excite"), in NHWC (the
// activation layout of convolution chains; dims still [N, C, H, W]) or plain NCHW: a pooling pass over X (double
// sums per channel, pixel blocks shared by the pool), the gate on one thread (ref::fused::SqueezeExciteGate's
// order of arithmetic, vectorized across outputs; a Sigmoid gate through FastExp), then Y = X * s in a second pass.
// The loops come in AVX-512, AVX2 and baseline builds, chosen by the CPU within the model's target ISA. One node
// instead of GlobalAveragePool, two 1x1 convolutions on a 1x1 image and a broadcast Mul: three fewer dispatches and
// parallel regions per block.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not one this kernel runs (dims that vary, weights that are not constants, a layout
// other than NHWC or plain): the ref adapter runs plain ones.
std::unique_ptr<PreparedKernel> PrepareSqueezeExcite(const PrepareRequest& request);

}  // namespace ge::exec
