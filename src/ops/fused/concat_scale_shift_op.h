// ge::ConcatScaleShift(scale, shift, X1, ..., Xk) -> Y: a channel Concat followed by an inference BatchNormalization
// folded to a per-channel multiply-add (DenseNet's concat -> norm -> relu), created by the compiler's
// ConcatScaleShiftFusion:
//   Y[n, c, ...] = act(Concat(X1..Xk, axis 1)[n, c, ...] * scale[c] + shift[c])
// The Xi are float32 [N, Ci, spatial...] agreeing outside the channel axis; scale and shift are float32 [sum Ci];
// `activation` / `activation_params` as the fused ops' (fused_activation.h). The concatenated tensor is never stored.
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

Status InferConcatScaleShift(InferContext& ctx);

}  // namespace ge::ops
