// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceProd
// over float32 as a prepared kernel (ReduceKernel, "exec.reduce"). At prepare the dims are merged as the reference
// kernel merges them (unit dims dropped, neighbours that are both reduced or both kept joined) into an
// (outer, reduce, inner) pattern: inner 1 reduces contiguous rows (vector lanes per row), inner > 1 accumulates
// rows of inner elements in the reference's order. Sums and products accumulate in double as the reference does
// (bit-identical for inner > 1; along a row the lanes change the order of the double operations only); Max and Min
// take NaN as the reference does.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a reduction the kernel supports (another op or dtype, axes not constant, reduced
// and kept dims interleaved beyond outer-reduce-inner, dims that vary): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareReduce(const PrepareRequest& request);

}  // namespace ge::exec
