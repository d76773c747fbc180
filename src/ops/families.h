// Registration entry points of each op family (one folder each under src/ops/).
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

void RegisterElementwiseOps(OpRegistry* r);
void RegisterReduceOps(OpRegistry* r);
void RegisterNnOps(OpRegistry* r);
void RegisterShapeOps(OpRegistry* r);
void RegisterIndexOps(OpRegistry* r);
void RegisterMathOps(OpRegistry* r);
void RegisterControlOps(OpRegistry* r);
void RegisterMiscOps(OpRegistry* r);
void RegisterFusedOps(OpRegistry* r);
void RegisterVariableOps(OpRegistry* r);  // ge::Variable, Assign*, VarIsInitializedOp, FileConstant  // ge::FusedConv, FusedGemm, FusedMatMul, LayerNormalization, Attention

}  // namespace ge::ops
