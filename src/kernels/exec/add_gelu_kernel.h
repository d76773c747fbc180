// "exec.add_gelu_f32": ge::Gelu(X, B) on float32, y = gelu(x + b) with B broadcast to X's shape (GeluFusion's node
// for an Add followed by the erf GELU), one pass over memory instead of the Add's and the GELU's. The sum rounds as
// the Add's kernel rounds it; the GELU is GeluLanes (fast_math.h), as in exec.unary_f32.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// ge::Gelu: exec.add_gelu_f32 with a B input, otherwise PrepareUnary's exec.unary_*; nullptr hands it to ref
// (float64 with B, varying dims, a B that does not broadcast to X).
std::unique_ptr<PreparedKernel> PrepareGelu(const PrepareRequest& request);

}  // namespace ge::exec
