// Inputs of `ge run`: deterministic inputs for declared input descriptions (ge-dev: TensorDesc is internal).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "json_text.h"
#include "tensor_text.h"

namespace ge::cli {

// A deterministic pseudo-random tensor for a declared input: floats in [-1, 1), integers in [0, 100), bools
// alternating. Unknown dims become 1.
StatusOr<Tensor> MakeDefaultInput(const TensorDesc& desc, uint64_t seed);
}  // namespace ge::cli
