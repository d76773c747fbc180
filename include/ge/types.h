// Public value types: ge::DataType, every ONNX tensor element type (enumerator values equal ONNX
// TensorProto.DataType). Self-contained; the library's own code uses this same enum (src/base/data_type.h adds
// sizes, names and type traits).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "ge/api.h"

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

// Compile-time mapping from C++ type to DataType (the library adds float16, bfloat16 and complex types).
template <typename T> struct DataTypeOf;
template <> struct DataTypeOf<float> { static constexpr DataType value = DataType::kFloat; };
template <> struct DataTypeOf<uint8_t> { static constexpr DataType value = DataType::kUint8; };
template <> struct DataTypeOf<int8_t> { static constexpr DataType value = DataType::kInt8; };
template <> struct DataTypeOf<uint16_t> { static constexpr DataType value = DataType::kUint16; };
template <> struct DataTypeOf<int16_t> { static constexpr DataType value = DataType::kInt16; };
template <> struct DataTypeOf<int32_t> { static constexpr DataType value = DataType::kInt32; };
template <> struct DataTypeOf<int64_t> { static constexpr DataType value = DataType::kInt64; };
template <> struct DataTypeOf<std::string> { static constexpr DataType value = DataType::kString; };
template <> struct DataTypeOf<bool> { static constexpr DataType value = DataType::kBool; };
template <> struct DataTypeOf<double> { static constexpr DataType value = DataType::kDouble; };
template <> struct DataTypeOf<uint32_t> { static constexpr DataType value = DataType::kUint32; };
template <> struct DataTypeOf<uint64_t> { static constexpr DataType value = DataType::kUint64; };

}  // namespace ge
