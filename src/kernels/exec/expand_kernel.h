// Expand as a strided gather ("exec.expand"): each output axis reads the input's axis of the same extent with its
// stride, or a broadcast one (extent 1, or absent on the left) with stride 0, so the gather loops repeat it; runs of
// the innermost axes stay memcpys where the input has them.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not an Expand this kernel supports (dims that vary between runs, a dtype the gather
// loops do not move, an output the input does not broadcast to): the ref adapter runs it, and reports bad shapes.
std::unique_ptr<PreparedKernel> PrepareExpand(const PrepareRequest& request);

}  // namespace ge::exec
