// Resize / Upsample as a prepared kernel (ResizeKernel, "exec.resize"): float32 in plain layout, resizing the last
// two axes (or the last one) with every leading axis unchanged, in nearest, linear or cubic mode (every coordinate
// transformation and nearest mode of the reference kernel, tf_crop_and_resize included). The per-axis taps come
// from the reference kernel's own planner (kernels/ref/shape/resize_plan.h), so the source indices and weights are
// the reference's: nearest is the same gather, and linear / cubic run the reference's double-precision arithmetic in
// its order (a column pass into double rows, then the row blend), giving the same bits.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Resize the kernel supports (another dtype or layout, an axis other than the last
// two resized, scales / sizes / roi not constant, dims that vary): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PrepareResize(const PrepareRequest& request);

}  // namespace ge::exec
