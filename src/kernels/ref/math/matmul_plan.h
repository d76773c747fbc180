// Numpy matmul geometry shared by MatMul, MatMulInteger and QLinearMatMul.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"

namespace ge::ref::math {

struct MatMulPlan {
  int64_t m = 0, n = 0, k = 0;  // per product; m is the folded M when batches are folded
  int64_t rows = 0;             // M of the unfolded problem (the row count of one A matrix)
  Dims out_dims;
  // One entry per product: element offsets of its A [m,k] and B [k,n] matrices; product i writes output
  // elements [i*m*n, (i+1)*m*n). When B has no batch, A's batches fold into m and there is a single product.
  std::vector<int64_t> a_offsets, b_offsets;
};

// Plans a @ b (1-D operands promoted and their unit dim dropped, batch dims broadcast). The error is a bare
// message for the caller to prefix. Offsets are only filled when the output is not empty.
StatusOr<MatMulPlan> PlanMatMul(const Dims& a, const Dims& b);

}  // namespace ge::ref::math
