// MaxPool over a plain (row-major N, C, spatial) float32 activation with 1-D, 2-D or 3-D windows, output Y only, as
// one prepared kernel ("exec.max_pool_plain"): per output row (plane, depth, height) the window's in-image input rows
// are gathered once, then the row's outputs are computed in vector lanes (one output per lane, stride 1 and 2 as
// plain loads and a de-interleave, other strides gathered), borders one by one. The reference kernel's semantics hold
// bit for bit (NaN skipped, the first zero kept, the lowest float for a window without a number). oneDNN 2.6 pools a
// plain 1-D tensor only after reordering it into NWC and back, three times the pool's own time.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not such a MaxPool (a blocked or NHWC layout, another dtype, an Indices output, more
// than three spatial dims, dims that vary, output dims other than the window's).
std::unique_ptr<PreparedKernel> PrepareMaxPoolPlain(const PrepareRequest& request);

}  // namespace ge::exec
