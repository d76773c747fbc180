// DataType: every ONNX tensor element type. Enumerator values equal ONNX TensorProto.DataType.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/float16.h"
#include "base/status.h"
#include "ge/types.h"  // IWYU pragma: export (DataType)

namespace ge {

constexpr int kMaxDataTypeValue = 16;

// DataTypeSize and DataTypeName are declared in ge/types.h.
StatusOr<DataType> DataTypeFromName(const std::string& name);
bool IsValidDataType(int32_t v);
bool IsFloatingPoint(DataType dt);  // float16, bfloat16, float, double
bool IsInteger(DataType dt);        // signed and unsigned ints (not bool)
bool IsSignedInteger(DataType dt);

// Compile-time mapping from C++ type to DataType: the public ones are in ge/types.h.
template <> struct DataTypeOf<float16> { static constexpr DataType value = DataType::kFloat16; };
template <> struct DataTypeOf<std::complex<float>> { static constexpr DataType value = DataType::kComplex64; };
template <> struct DataTypeOf<std::complex<double>> { static constexpr DataType value = DataType::kComplex128; };
template <> struct DataTypeOf<bfloat16> { static constexpr DataType value = DataType::kBFloat16; };

template <typename T> struct TypeTag { using type = T; };

// Calls fn(TypeTag<T>{}) with T the C++ type of dt. Returns Unimplemented for kUndefined.
// Usage: GE_RETURN_IF_ERROR(VisitDataType(dt, [&](auto tag) { using T = typename decltype(tag)::type; ... }));
// The lambda must be valid for every type; use the narrower visitors below when it is not.
template <typename Fn>
Status VisitDataType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DataType::kFloat: fn(TypeTag<float>{}); return Status::Ok();
    case DataType::kUint8: fn(TypeTag<uint8_t>{}); return Status::Ok();
    case DataType::kInt8: fn(TypeTag<int8_t>{}); return Status::Ok();
    case DataType::kUint16: fn(TypeTag<uint16_t>{}); return Status::Ok();
    case DataType::kInt16: fn(TypeTag<int16_t>{}); return Status::Ok();
    case DataType::kInt32: fn(TypeTag<int32_t>{}); return Status::Ok();
    case DataType::kInt64: fn(TypeTag<int64_t>{}); return Status::Ok();
    case DataType::kString: fn(TypeTag<std::string>{}); return Status::Ok();
    case DataType::kBool: fn(TypeTag<bool>{}); return Status::Ok();
    case DataType::kFloat16: fn(TypeTag<float16>{}); return Status::Ok();
    case DataType::kDouble: fn(TypeTag<double>{}); return Status::Ok();
    case DataType::kUint32: fn(TypeTag<uint32_t>{}); return Status::Ok();
    case DataType::kUint64: fn(TypeTag<uint64_t>{}); return Status::Ok();
    case DataType::kComplex64: fn(TypeTag<std::complex<float>>{}); return Status::Ok();
    case DataType::kComplex128: fn(TypeTag<std::complex<double>>{}); return Status::Ok();
    case DataType::kBFloat16: fn(TypeTag<bfloat16>{}); return Status::Ok();
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(dt) + " is not supported here");
}

// Numeric (real) types: every type but string, bool and complex.
template <typename Fn>
Status VisitNumericType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DataType::kFloat: fn(TypeTag<float>{}); return Status::Ok();
    case DataType::kUint8: fn(TypeTag<uint8_t>{}); return Status::Ok();
    case DataType::kInt8: fn(TypeTag<int8_t>{}); return Status::Ok();
    case DataType::kUint16: fn(TypeTag<uint16_t>{}); return Status::Ok();
    case DataType::kInt16: fn(TypeTag<int16_t>{}); return Status::Ok();
    case DataType::kInt32: fn(TypeTag<int32_t>{}); return Status::Ok();
    case DataType::kInt64: fn(TypeTag<int64_t>{}); return Status::Ok();
    case DataType::kFloat16: fn(TypeTag<float16>{}); return Status::Ok();
    case DataType::kDouble: fn(TypeTag<double>{}); return Status::Ok();
    case DataType::kUint32: fn(TypeTag<uint32_t>{}); return Status::Ok();
    case DataType::kUint64: fn(TypeTag<uint64_t>{}); return Status::Ok();
    case DataType::kBFloat16: fn(TypeTag<bfloat16>{}); return Status::Ok();
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(dt) + " is not supported by a numeric kernel");
}

// Floating-point types only: float16, bfloat16, float, double.
template <typename Fn>
Status VisitFloatType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DataType::kFloat: fn(TypeTag<float>{}); return Status::Ok();
    case DataType::kFloat16: fn(TypeTag<float16>{}); return Status::Ok();
    case DataType::kDouble: fn(TypeTag<double>{}); return Status::Ok();
    case DataType::kBFloat16: fn(TypeTag<bfloat16>{}); return Status::Ok();
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(dt) + " is not supported by a floating-point kernel");
}

// Integer types only (signed and unsigned, not bool).
template <typename Fn>
Status VisitIntegerType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DataType::kUint8: fn(TypeTag<uint8_t>{}); return Status::Ok();
    case DataType::kInt8: fn(TypeTag<int8_t>{}); return Status::Ok();
    case DataType::kUint16: fn(TypeTag<uint16_t>{}); return Status::Ok();
    case DataType::kInt16: fn(TypeTag<int16_t>{}); return Status::Ok();
    case DataType::kInt32: fn(TypeTag<int32_t>{}); return Status::Ok();
    case DataType::kInt64: fn(TypeTag<int64_t>{}); return Status::Ok();
    case DataType::kUint32: fn(TypeTag<uint32_t>{}); return Status::Ok();
    case DataType::kUint64: fn(TypeTag<uint64_t>{}); return Status::Ok();
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(dt) + " is not supported by an integer kernel");
}

// Arithmetic compute type: float16/bfloat16 compute in float, everything else in itself.
template <typename T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<float16> { using type = float; };
template <> struct ComputeTypeOf<bfloat16> { using type = float; };

}  // namespace ge
