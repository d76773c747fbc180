// Per-topic registration functions of the nn op family (called by RegisterNnOps) and shared inference helpers.
#pragma once
#include <string>

#include "ops/op_schema.h"

namespace ge::ops::nn {

void RegisterConvOps(OpRegistry* r);
void RegisterPoolOps(OpRegistry* r);
void RegisterNormOps(OpRegistry* r);
void RegisterSampleOps(OpRegistry* r);

// Inference of the ONNX ops the fused family extends (ge::FusedConv, FusedBatchNormalization, LayerNormalization).
Status InferConv(InferContext& ctx);
Status InferBatchNorm(InferContext& ctx);
Status InferLayerNorm(InferContext& ctx);

// Input i must be present with a floating-point dtype (float16, bfloat16, float, double).
Status RequireFloatInput(const InferContext& ctx, int i, const char* what);
// Input i, when present, must have rank `rank` (when its rank is known).
Status RequireRank(const InferContext& ctx, int i, int rank, const char* what);

}  // namespace ge::ops::nn
