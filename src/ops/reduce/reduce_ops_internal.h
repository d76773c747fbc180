// Per-topic registration functions of the reduce op family (called by RegisterReduceOps).
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

void RegisterReductionOps(OpRegistry* r);  // Reduce*, ArgMax, ArgMin
void RegisterSoftmaxOps(OpRegistry* r);    // Softmax, LogSoftmax, Hardmax, CumSum
void RegisterTopKOps(OpRegistry* r);       // TopK
void RegisterLossOps(OpRegistry* r);       // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void RegisterEinsumOps(OpRegistry* r);     // Einsum

// True for the real numeric element types (every type but string, bool, complex and undefined).
bool IsRealNumeric(DataType dt);

}  // namespace ge::ops
