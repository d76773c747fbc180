#include "base/tensor_desc.h"

#include <cstdint>
#include <string>

namespace ge {

std::string TensorDesc::ToString() const {
  std::string t = std::string(DataTypeName(dtype)) + shape.ToString();
  if (format != Format::kND) t += std::string("@") + FormatName(format);
  switch (kind) {
    case ValueKind::kTensor: return t;
    case ValueKind::kSequence: return "seq(" + t + ")";
    case ValueKind::kOptional: return elem_kind == ValueKind::kSequence ? "optional(seq(" + t + "))" : "optional(" + t + ")";
    case ValueKind::kUnknown: return "?";
  }
  return t;
}

StatusOr<int64_t> StorageNumElements(const Dims& dims, Format format) {
  const Format primary = PrimaryFormat(format);
  if (primary != Format::kNC1HWC0 && primary != Format::kNHWC) return CheckedNumElements(dims);
  if (dims.size() < 3 || dims.size() > 5) {
    return InvalidArgument(std::string(FormatName(format)) + " needs a tensor of rank 3 to 5, got rank " +
                           std::to_string(dims.size()));
  }
  if (primary == Format::kNHWC) return CheckedNumElements(dims);
  const int64_t c0 = FormatC0(format);
  Dims padded = dims;
  if (padded[1] > INT64_MAX - c0) return OutOfRange("channel count " + std::to_string(padded[1]) + " is too large");
  if (padded[1] > 0) padded[1] = (padded[1] + c0 - 1) / c0 * c0;
  return CheckedNumElements(padded);
}

}  // namespace ge
