// Slice as a prepared strided gather (GatherKernel, "exec.slice"): constant starts/ends/axes/steps (inputs from
// opset 10, attributes before) are clamped at Prepare exactly as the ref kernel does, giving the output's start
// offset and per-axis input strides (negative for negative steps); contiguous inner runs merge into one memcpy.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Slice the fast kernel supports (an operand not constant, arguments ref would
// reject, planned dims other than the slice's): the caller falls back to the ref adapter.
std::unique_ptr<PreparedKernel> PrepareSlice(const PrepareRequest& request);

}  // namespace ge::exec
