// Inputs and outputs of `ge run`: .npy binding, deterministic inputs, output summaries.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "json_text.h"

namespace ge::cli {

// A deterministic pseudo-random tensor for a declared input: floats in [-1, 1), integers in [0, 100), bools
// alternating. Unknown dims become 1.
StatusOr<Tensor> MakeDefaultInput(const TensorDesc& desc, uint64_t seed);
// "output: float32[1,1000] min=-3.1 max=4.2 mean=0.01 first=[0.1, 0.2, ...]"
std::string SummarizeTensor(const std::string& name, const Tensor& t);
// Safe file name for an output value name (path separators and odd characters replaced).
std::string SanitizeFileName(const std::string& name);

}  // namespace ge::cli
