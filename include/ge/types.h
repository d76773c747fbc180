// Public value types: ge::DataType, every ONNX tensor element type (enumerator values equal ONNX
// TensorProto.DataType). Self-contained; the library's own code uses this same enum (src/base/data_type.h adds
// sizes, names and type traits).
#pragma once
#include "ge/api.h"
#include <cstddef>
#include <cstdint>

namespace ge {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};

// Size of one element in bytes (strings report sizeof(std::string), kUndefined 0), and the element type's name
// ("float32", "int64", "bfloat16", ...).
GE_API size_t DataTypeSize(DataType dt);
GE_API const char* DataTypeName(DataType dt);

}  // namespace ge
