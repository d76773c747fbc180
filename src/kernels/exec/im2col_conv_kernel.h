// 2-D convolutions over NHWC float32 as im2col + ge's packed AVX2 SGEMM ("exec.im2col_conv"): Conv and
// ge::FusedConv (X, W, [B], [Sum]) -> Y = act(Conv(X, W) + B + Sum) with act none, Relu or Clip, group 1, any window,
// strides and pads, dilation 1.
//
// For a chunk of output pixels, their input patches are gathered into rows [pixels x KH*KW*IC] (zeros for padding)
// and multiplied by the weights packed once at load as [KH*KW*IC x OC] (packed_gemm.h). Where Winograd does not pay
// (stride 2, or 7x7 outputs) oneDNN 2.6's direct AVX2 kernels run ResNet-50's 3x3 layers with 128-512 channels at
// ~105 GFLOP/s on a 2-core Zen 3 whose sgemm peaks at ~165; the packed SGEMM runs the same products at 128-144.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not such a convolution (another layout or dtype, group, dilation or activation;
// weights not constant; dims that vary; bfloat16 allowed; no AVX2 + FMA within the target).
std::unique_ptr<PreparedKernel> PrepareIm2colConvNhwc(const PrepareRequest& request);

}  // namespace ge::exec
