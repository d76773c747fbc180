#include "base/tensor_desc.h"

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

}  // namespace ge
