// Concat in the plain (row-major) layout as row copies (ConcatKernel, "exec.concat"): the dims merge into
// (outer, axis * inner), so each input is `outer` runs of its axis extent times `inner` elements, copied to its
// offset within each output row. Any 1/2/4/8-byte dtype. Blocked layouts are the dnnl engine's (dnnl.concat).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Concat this kernel supports (dims that vary between runs, a dtype it does not
// move, inputs that do not tile the output along the axis): the ref adapter runs it, and reports bad shapes.
std::unique_ptr<PreparedKernel> PrepareConcat(const PrepareRequest& request);

}  // namespace ge::exec
