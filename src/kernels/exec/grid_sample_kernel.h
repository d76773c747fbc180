// GridSample as a prepared kernel ("exec.grid_sample"): float32 X [N, C, H, W] and grid [N, Ho, Wo, 2] in plain
// layouts, every mode (bilinear, nearest, bicubic), padding mode and align_corners. Per output pixel the taps and
// weights are computed once, in double with the reference kernel's own arithmetic (kernels/ref/nn/grid_sample_plan.h),
// and applied to each of the C planes: bit-identical to the reference kernel, which converts all of X to double and
// recomputes the coordinates per channel. Rows of output pixels are split over the pool. (RAFT's correlation lookup:
// N = batch x pixels, C = 1, a 9x9 window each.)
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not one this kernel runs (other dtypes or ranks, a layout other than plain, an
// unknown mode or padding mode, dims that vary): the ref adapter runs it and reports what is wrong.
std::unique_ptr<PreparedKernel> PrepareGridSample(const PrepareRequest& request);

}  // namespace ge::exec
