// The gate of ge::SqueezeExcite (ops/fused/squeeze_excite_op.h) for one batch item, shared by the reference kernel
// and the exec kernel so that both compute the same s from the same pooled means:
//   h = act(B1 + W1 p) (R values), s = gate(B2 + W2 h) (C values); sums in float, in input-channel order.
#pragma once
#include <cstdint>

#include "ops/fused/fused_activation.h"

namespace ge::ref::fused {

// p [c], w1 [r * c], w2 [c * r] row-major; b1 [r] and b2 [c] may be null; h [r] is scratch; s [c] the result.
void SqueezeExciteGate(const float* p, const float* w1, const float* b1, const float* w2, const float* b2, int64_t c,
                       int64_t r, const ge::fused::ActivationSpec& act, const ge::fused::ActivationSpec& gate,
                       float* h, float* s);

}  // namespace ge::ref::fused
