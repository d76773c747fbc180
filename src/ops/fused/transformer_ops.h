// The transformer ops of the ge domain (transformer_ops.cc), registered by RegisterFusedOps.
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

// ge::LayerNormalization, ge::Attention.
void RegisterTransformerOps(OpRegistry* r);

}  // namespace ge::ops
