// Which ops may write their output over an input (the same element index read, then written; nothing read after
// it is written): shared by the static memory planner (in-place buffer pairs) and runtime v2 (an output taking
// over a dying input's block). Only the op is judged here; callers check dtypes, layouts and dims.
#pragma once
#include <cstdint>
#include <vector>

#include "ops/op_id.h"

namespace ge::ops {

// Element-wise one-input math (Relu, Neg, Exp, Clip, ...): output 0 may overwrite input 0.
bool IsInplaceUnary(OpId op);
// Element-wise two-input arithmetic (Add, Sub, Mul, Div, Max, Min): output 0 may overwrite either input of the
// output's dims.
bool IsInplaceBinary(OpId op);
// Output 0 is input 0's bytes under other dims (Identity, Reshape, Flatten, Squeeze, Unsqueeze, Dropout at
// inference): it may be input 0's buffer, and then nothing needs to run.
bool IsDataView(OpId op);
// Whether Transpose with |perm| (empty: reversed) over |dims| keeps the order of the dims longer than 1: it moves
// only unit dims, so its output is its input's bytes. False for a perm that does not fit the rank.
bool TransposeMovesOnlyUnitDims(std::vector<int64_t> perm, const int64_t* dims, int rank);

}  // namespace ge::ops
