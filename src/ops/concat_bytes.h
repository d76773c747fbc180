// Whether a Concat's output is its inputs' bytes laid one after another, in input order (GE's "no-task" Concat:
// each input may then live as a slice of the output and the Concat runs nothing). Shared by the static compiler,
// which places the inputs so, and runtime v1's loader, which checks a Concat without a kernel task.
#pragma once

#include "ir/graph.h"

namespace ge::ops {

// True for a Concat with an explicit axis whose inputs and output are tensors of one dtype, of known dims, none
// empty, and either
//  - plain layouts (ND, NCHW, mixed) where every dim before the axis is 1 (N = 1 along channels, or axis 0), or
//  - one NC1HWC0 format (one C0) for all, along axis 1 with N = 1 and every input's channel count a multiple of
//    C0 (no padding).
// NHWC and other layouts are never byte-joined along channels.
bool ConcatJoinsBytes(const ir::Node& node);

}  // namespace ge::ops
