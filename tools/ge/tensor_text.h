// Output tensors as text and file names (`ge run`, `ge run-op`); the standard library and include/ge only.
#pragma once
#include <string>

#include "ge/tensor.h"

namespace ge::cli {

// "output: float32[1,1000] min=-3.1 max=4.2 mean=0.01 first=[0.1, 0.2, ...]"
std::string SummarizeTensor(const std::string& name, const Tensor& t);
// Safe file name for an output value name (path separators and odd characters replaced).
std::string SanitizeFileName(const std::string& name);

}  // namespace ge::cli
