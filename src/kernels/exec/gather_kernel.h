// Gather(data, indices) along one axis as prepared row copies (GatherIndexKernel, "exec.gather"): the output is
// outer x indices rows of `inner` elements, row (o, j) a memcpy of data row (o, indices[j]). Indices (int32 or
// int64, negative counting from the end) are read and checked at every run, so an index out of range fails the run
// with ref's message instead of reading outside the data. Serves embedding lookups, whose table stays in place.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Gather the fast kernel supports (dims that vary between runs, a dtype the row
// copies do not move, indices that are not int32/int64, planned dims other than Gather's): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareGather(const PrepareRequest& request);

}  // namespace ge::exec
