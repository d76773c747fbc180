// ge::ConcatScaleShift (ops/fused/concat_scale_shift_op.h) as one prepared kernel ("exec.concat_scale_shift"), in
// NHWC (the activation layout of convolution chains) or plain NCHW: every input's values are read once and written
// once, at their channel offset in Y, as act(x * scale + shift) for activation none or Relu — where a Concat and a
// BatchNormalization each read and wrote the whole concatenation. AVX-512/AVX2/baseline builds of the loops, chosen
// by the CPU within the model's target ISA, all rounding as the reference kernel.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not one this kernel runs (dims that vary, scale/shift not constants, an activation
// other than none or Relu, a layout other than NHWC or plain): the ref adapter runs plain ones.
std::unique_ptr<PreparedKernel> PrepareConcatScaleShift(const PrepareRequest& request);

}  // namespace ge::exec
