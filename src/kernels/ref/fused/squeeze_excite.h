// The gate of ge::SqueezeExcite (ops/fused/squeeze_excite_op.h) for one batch item, shared by the reference kernel
// and the exec kernel so that both compute the same s from the same pooled means:
//   h = act(B1 + W1 p) (R values), s = gate(B2 + W2 h) (C values); each sum in float, in input order (every h[j]
//   over k = 0..C-1, every s[k] over j = 0..R-1). The weights come transposed (W1ᵀ [C, R], W2ᵀ [R, C]) so that the
//   loops run across independent outputs: a dot product per output would be one dependent chain of additions.
#pragma once
#include <cstdint>
#include <vector>

#include "ops/fused/fused_activation.h"

namespace ge::ref::fused {

// p [c]; w1t [c * r] (W1 transposed), w2t [r * c] (W2 transposed), row-major; b1 [r] and b2 [c] may be null;
// h [r] is scratch; s [c] the result.
void SqueezeExciteGate(const float* p, const float* w1t, const float* b1, const float* w2t, const float* b2, int64_t c,
                       int64_t r, const ge::fused::ActivationSpec& act, const ge::fused::ActivationSpec& gate, float* h,
                       float* s);

// m [rows, cols] row-major, transposed to [cols, rows].
std::vector<float> Transposed(const float* m, int64_t rows, int64_t cols);

}  // namespace ge::ref::fused
