// Per-topic registration functions of the index op family, and inference helpers they share.
#pragma once
#include <string>

#include "ops/infer_util.h"
#include "ops/op_schema.h"

namespace ge::ops {

void RegisterGatherOps(OpRegistry* r);   // Gather, GatherElements, GatherND
void RegisterScatterOps(OpRegistry* r);  // Scatter, ScatterElements, ScatterND
void RegisterSelectOps(OpRegistry* r);   // NonZero, Compress, Unique
void RegisterOneHotOps(OpRegistry* r);   // OneHot, ReverseSequence
void RegisterNmsOps(OpRegistry* r);      // NonMaxSuppression

namespace index_infer {

// Fails unless input i (when its dtype is known) is int32 or int64.
Status CheckIndexDtype(const InferContext& ctx, int i, const std::string& what);
// Appends dim i of `from` (with its symbol) to `to`.
inline void AppendDim(Shape* to, const Shape& from, int i) { to->AddDim(from.dim(i), from.symbol(i)); }
// The more specific of two dims that must agree (unknown yields to known); false when both known and differ.
bool MergeDim(int64_t a, int64_t b, int64_t* out);

}  // namespace index_infer
}  // namespace ge::ops
