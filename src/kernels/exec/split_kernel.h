// Split as one strided gather per output (SplitKernel, "exec.split"): the sizes along the axis are the planned
// output dims (whatever form the op gave them in: the `split` input or attribute, or equal parts), so the kernel needs
// no argument of its own beyond the axis. Each output is a GatherPlan over the input (a memcpy per outer index when the
// axis is not the last, a strided run otherwise).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Split the fast kernel supports (dims that vary between runs, a dtype the gather
// loops do not move, planned output dims that do not tile the input along the axis): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareSplit(const PrepareRequest& request);

}  // namespace ge::exec
