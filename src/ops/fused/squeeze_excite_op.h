// ge::SqueezeExcite(X, W1, [B1], W2, [B2]) -> Y: a squeeze-and-excitation block (EfficientNet, MobileNetV3) as one
// node, created by the compiler's SqueezeExciteFusion from GlobalAveragePool -> 1x1 Conv -> 1x1 Conv -> Mul:
//   p[n, c] = mean of X[n, c, ...] over the spatial dims
//   h[n, r] = act(B1[r] + sum_c W1[r, c] * p[n, c])          (attributes activation, activation_params)
//   s[n, c] = gate(B2[c] + sum_r W2[c, r] * h[n, r])         (attributes gate_activation, gate_activation_params)
//   Y[n, c, ...] = X[n, c, ...] * s[n, c]
// X is float32 [N, C, spatial...] (rank >= 3); W1 is [R, C, 1...] and W2 [C, R, 1...] (1x1 convolution weights of
// X's rank, or 2-D), B1 [R], B2 [C]; Y has X's shape and dtype.
#pragma once
#include "ops/op_schema.h"

namespace ge::ops {

Status InferSqueezeExcite(InferContext& ctx);

}  // namespace ge::ops
