// Dtype sets and inference helpers shared by the elementwise op schemas.
#pragma once
#include <cstdint>

#include "base/data_type.h"
#include "ops/op_schema.h"

namespace ge::ops::elementwise {

constexpr uint32_t TypeBit(DataType dt) { return 1u << static_cast<int>(dt); }

constexpr uint32_t kFloatTypes =
    TypeBit(DataType::kFloat) | TypeBit(DataType::kFloat16) | TypeBit(DataType::kDouble) | TypeBit(DataType::kBFloat16);
constexpr uint32_t kSignedInts =
    TypeBit(DataType::kInt8) | TypeBit(DataType::kInt16) | TypeBit(DataType::kInt32) | TypeBit(DataType::kInt64);
constexpr uint32_t kUnsignedInts =
    TypeBit(DataType::kUint8) | TypeBit(DataType::kUint16) | TypeBit(DataType::kUint32) | TypeBit(DataType::kUint64);
constexpr uint32_t kInts = kSignedInts | kUnsignedInts;
constexpr uint32_t kNumeric = kFloatTypes | kInts;
constexpr uint32_t kSignedNumeric = kFloatTypes | kSignedInts;
constexpr uint32_t kBoolType = TypeBit(DataType::kBool);
constexpr uint32_t kStringType = TypeBit(DataType::kString);
constexpr uint32_t kComplexTypes = TypeBit(DataType::kComplex64) | TypeBit(DataType::kComplex128);
constexpr uint32_t kAllTypes = kNumeric | kBoolType | kStringType | kComplexTypes;

// Input i must be a tensor whose dtype is in `allowed` (an unknown dtype passes).
Status CheckInputType(const InferContext& ctx, int i, uint32_t allowed);
// Every present input must share input 0's dtype (unknown dtypes pass).
Status CheckSameTypes(const InferContext& ctx, int first, int last);

// Output 0 = input 0 (a tensor of the same dtype and shape).
Status PassThroughTensor(InferContext& ctx);

// Output 0 = input 0 after checking its dtype.
template <uint32_t kAllowed>
Status InferUnaryOf(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kAllowed));
  return PassThroughTensor(ctx);
}

// Output 0: broadcast of every input; dtype = input 0's, or bool when kBoolOut.
Status InferBroadcastChecked(InferContext& ctx, uint32_t allowed, bool bool_out);
template <uint32_t kAllowed, bool kBoolOut>
Status InferBinaryOf(InferContext& ctx) {
  return InferBroadcastChecked(ctx, kAllowed, kBoolOut);
}

}  // namespace ge::ops::elementwise
