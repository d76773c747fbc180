// ge::ChannelShuffle as a prepared gather ("exec.channel_shuffle", ops/fused/channel_shuffle_op.h): plain layouts
// copy whole channel planes; NHWC (format selection keeps ShuffleNet's blocks in the layout of their
// convolutions) gathers each pixel's channels. Inputs and outputs must share one layout (plain or NHWC).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a ChannelShuffle this kernel supports (mixed or blocked NC1HWC0 layouts).
std::unique_ptr<PreparedKernel> PrepareChannelShuffle(const PrepareRequest& request);

}  // namespace ge::exec
