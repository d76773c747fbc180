#include "base/data_type.h"

namespace ge {

size_t DataTypeSize(DataType dt) {
  switch (dt) {
    case DataType::kFloat: case DataType::kInt32: case DataType::kUint32: return 4;
    case DataType::kUint8: case DataType::kInt8: case DataType::kBool: return 1;
    case DataType::kUint16: case DataType::kInt16: case DataType::kFloat16: case DataType::kBFloat16: return 2;
    case DataType::kInt64: case DataType::kDouble: case DataType::kUint64: case DataType::kComplex64: return 8;
    case DataType::kComplex128: return 16;
    case DataType::kString: return sizeof(std::string);
    case DataType::kUndefined: return 0;
  }
  return 0;
}

const char* DataTypeName(DataType dt) {
  switch (dt) {
    case DataType::kUndefined: return "undefined";
    case DataType::kFloat: return "float32";
    case DataType::kUint8: return "uint8";
    case DataType::kInt8: return "int8";
    case DataType::kUint16: return "uint16";
    case DataType::kInt16: return "int16";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kString: return "string";
    case DataType::kBool: return "bool";
    case DataType::kFloat16: return "float16";
    case DataType::kDouble: return "float64";
    case DataType::kUint32: return "uint32";
    case DataType::kUint64: return "uint64";
    case DataType::kComplex64: return "complex64";
    case DataType::kComplex128: return "complex128";
    case DataType::kBFloat16: return "bfloat16";
  }
  return "invalid";
}

StatusOr<DataType> DataTypeFromName(const std::string& name) {
  for (int i = 0; i <= kMaxDataTypeValue; ++i) {
    DataType dt = static_cast<DataType>(i);
    if (name == DataTypeName(dt)) return dt;
  }
  if (name == "float") return DataType::kFloat;
  if (name == "double") return DataType::kDouble;
  return InvalidArgument("unknown data type name '" + name + "'");
}

bool IsValidDataType(int32_t v) { return v > 0 && v <= kMaxDataTypeValue; }

bool IsFloatingPoint(DataType dt) {
  return dt == DataType::kFloat || dt == DataType::kDouble || dt == DataType::kFloat16 || dt == DataType::kBFloat16;
}

bool IsSignedInteger(DataType dt) {
  return dt == DataType::kInt8 || dt == DataType::kInt16 || dt == DataType::kInt32 || dt == DataType::kInt64;
}

bool IsInteger(DataType dt) {
  return IsSignedInteger(dt) || dt == DataType::kUint8 || dt == DataType::kUint16 || dt == DataType::kUint32 ||
         dt == DataType::kUint64;
}

}  // namespace ge
