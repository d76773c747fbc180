// The inputs `ge run` generates when none are given: deterministic pseudo-random tensors for declared inputs (the
// standard library and include/ge only: ge links libge.so alone).
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.h"

namespace ge::cli {

// A deterministic pseudo-random tensor of `dtype` and `dims`: floats in [-1, 1), integers in [0, 100), bools
// alternating, strings "s0".."s99". Unknown dims (-1) become 1.
StatusOr<Tensor> MakeDefaultInput(DataType dtype, const std::vector<int64_t>& dims, uint64_t seed);

}  // namespace ge::cli
