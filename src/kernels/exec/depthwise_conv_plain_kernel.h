// Depthwise convolution over plain (row-major N, C, [H,] W) float32 activations, 1-D or 2-D, as one prepared kernel
// ("exec.depthwise_conv_plain"): Conv or ge::FusedConv with group = C input channels = C output channels, constant
// weights, optional bias, FusedConv's Sum and a Relu / Clip activation; any strides, dilations and pads. Per output
// row (image, channel, height) the row's outputs are computed in AVX-512 lanes (one output per lane: stride 1 and 2
// as masked loads, stride 2 de-interleaved, other strides gathered; taps outside the input read as zeros through the
// load masks), bias first, then the taps in the reference kernel's order, as fused multiply-adds. A channel plane is
// its own convolution, so the plain layout needs no reorder: oneDNN 2.6 runs a plain depthwise convolution only
// between reorders into NHWC and back (3x112x112 s2 with 96 channels: 0.09 ms of convolution, 0.75 ms of reorders).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not such a convolution (another layout or dtype, a channel multiplier other than 1,
// non-constant weights, 3-D windows, dims that vary, allow_bf16, another activation) or the model's target or this
// CPU lacks AVX-512.
std::unique_ptr<PreparedKernel> PrepareDepthwiseConvPlain(const PrepareRequest& request);

}  // namespace ge::exec
