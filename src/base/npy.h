// .npy (NumPy format 1.0/2.0/3.0) read and write for numeric and bool tensors, little-endian, C order.
#pragma once
#include <string>

#include "base/tensor.h"

namespace ge {

StatusOr<Tensor> ReadNpy(const std::string& path);
StatusOr<Tensor> ParseNpy(const std::string& bytes, const std::string& what);
Status WriteNpy(const std::string& path, const Tensor& t);

}  // namespace ge
