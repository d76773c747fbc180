// The loop nest of a two-input broadcasting element-wise op, chosen once at Prepare. Output dims of extent 1 are
// dropped and adjacent dims with the same broadcast pattern are merged, so most cases become one flat loop:
//   kSame     a and b have the output's element count:          y[i] = f(a[i], b[i])
//   kScalarA  a has one element:                                  y[i] = f(a[0], b[i])
//   kScalarB  b has one element:                                  y[i] = f(a[i], b[0])
//   kGeneral  rows of `inner` elements over an outer loop nest; in a row each input is contiguous or fixed
//             (step 1 or 0), and moves by its outer stride between rows.
// Example: [2,3,4] + [4] is 6 rows of 4 with b's row stride 0; [2,1,4] + [1,3,1] is 2x3 rows of 4 with b fixed.
#pragma once
#include <cstdint>

#include "base/shape.h"
#include "base/status.h"

namespace ge::exec {

struct BroadcastPlan {
  enum class Kind { kSame, kScalarA, kScalarB, kGeneral };
  static constexpr int kMaxOuterRank = 8;

  Kind kind = Kind::kSame;
  int64_t numel = 0;  // output elements
  // kGeneral only.
  int64_t inner = 0;               // elements per row
  int64_t step_a = 0, step_b = 0;  // 1 (contiguous) or 0 (fixed) within a row
  int outer_rank = 0;              // dims of the outer loop nest (after merging)
  int64_t rows = 0;                // product of outer dims
  int64_t outer_dims[kMaxOuterRank] = {};
  int64_t stride_a[kMaxOuterRank] = {};  // element stride of a per outer dim (0 where a broadcasts)
  int64_t stride_b[kMaxOuterRank] = {};

  // Offsets of a and b at the start of row `row` (0 <= row < rows).
  void RowOffsets(int64_t row, int64_t* off_a, int64_t* off_b) const;
};

// Fails with InvalidArgument when a and b do not broadcast to out, or Unimplemented when the merged nest is deeper
// than kMaxOuterRank + 1 (the caller then uses the ref kernel).
StatusOr<BroadcastPlan> PlanBroadcast(const Dims& a, const Dims& b, const Dims& out);

}  // namespace ge::exec
