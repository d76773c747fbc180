// TensorDesc: what the compiler knows about a value before it runs: kind, element type, shape and format.
#pragma once
#include <string>

#include "base/data_type.h"
#include "base/format.h"
#include "base/shape.h"
#include "base/status.h"

namespace ge {

// ONNX values are tensors, sequences of tensors, or optionals of either.
enum class ValueKind : int32_t { kTensor = 0, kSequence, kOptional, kUnknown };

struct TensorDesc {
  ValueKind kind = ValueKind::kTensor;
  // For kOptional: the kind of the contained value (kTensor or kSequence).
  ValueKind elem_kind = ValueKind::kTensor;
  DataType dtype = DataType::kUndefined;  // element type (of the tensor, or of each sequence element)
  Shape shape = Shape::UnknownRank();     // of the tensor, or of every sequence element when they agree
  Format format = Format::kND;

  TensorDesc() = default;
  TensorDesc(DataType dt, Shape s) : dtype(dt), shape(std::move(s)) {}
  std::string ToString() const;  // "float32[1,3,?]", "seq(float32[*])", "optional(int64[2])"
};

// Elements a tensor of `dims` occupies in memory in `format`: the element count, except NC1HWC0 (rank 3 to 5,
// [N, C, spatial...]) whose C is padded up to a multiple of kC0. Fails on negative or overflowing dims and on
// NC1HWC0 or NHWC of a rank other than 3 to 5.
StatusOr<int64_t> StorageNumElements(const Dims& dims, Format format);

}  // namespace ge
