// Pad as a prepared kernel ("exec.pad"): constant, reflect and edge modes, any rank, any 1/2/4/8-byte dtype, pads
// known at prepare (the opset 11+ input must be a constant; before opset 11 the attribute), negative pads crop as the
// reference kernel does. The axes after the last padded one stay whole blocks, so an output row is that axis's
// extent in blocks: the interior one memcpy from the input, the borders filled (constant) or copied block by block
// from the mapped source (reflect, edge). Rows whose outer source lies in a constant pad are filled. Rows are split
// over the pool for large outputs. The constant value may be a non-constant input (read at each run).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a Pad this kernel runs (pads not constant, opset 18's axes, a string dtype, an
// edge or reflect pad of an empty dim, dims that vary): the ref adapter runs it.
std::unique_ptr<PreparedKernel> PreparePad(const PrepareRequest& request);

}  // namespace ge::exec
