// Per-topic registration functions of the elementwise op family (called by RegisterElementwiseOps).
#pragma once
#include "ops/op_schema.h"

namespace ge::ops::elementwise {

void RegisterUnaryOps(OpRegistry* r);       // unary math: Abs ... Not
void RegisterActivationOps(OpRegistry* r);  // Relu ... Mish, PRelu, Clip
void RegisterBinaryOps(OpRegistry* r);      // arithmetic, logic, comparison, variadic, Where
void RegisterCastOps(OpRegistry* r);        // Cast, CastLike

}  // namespace ge::ops::elementwise
