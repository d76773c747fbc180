// Per-topic registration and shared helpers of the control family (If/Loop/Scan, sequences, optionals).
#pragma once
#include "ops/op_schema.h"

namespace ge::ops::control {

void RegisterSubgraphOps(OpRegistry* r);  // If, Loop, Scan, SequenceMap
void RegisterSequenceOps(OpRegistry* r);
void RegisterOptionalOps(OpRegistry* r);

// The most specific description that fits both a and b (dims that disagree become unknown; ranks that disagree
// give unknown rank; an undefined dtype or unknown kind takes the other's).
TensorDesc MergeDescs(const TensorDesc& a, const TensorDesc& b);
Shape MergeShapes(const Shape& a, const Shape& b);

}  // namespace ge::ops::control
