// Schemas of the broadcasting binary and variadic ops (numpy multidirectional broadcasting, opset 7+).
#include <string>

#include "ops/elementwise/elementwise_infer.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/infer_util.h"

namespace ge::ops::elementwise {
namespace {

constexpr uint32_t kPowBaseTypes = kFloatTypes | TypeBit(DataType::kInt32) | TypeBit(DataType::kInt64);

// Pow: base and exponent may differ in type (opset 12+); the output has the base's type.
Status InferPow(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kPowBaseTypes));
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 1, kNumeric));
  GE_ASSIGN_OR_RETURN(Shape s, BroadcastInputs(ctx));
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, s);
  return Status::Ok();
}

Status InferMod(InferContext& ctx) {
  int64_t fmod = ctx.attr().GetInt("fmod", 0);
  if (fmod != 0 && fmod != 1) return ctx.Error("fmod must be 0 or 1, got " + std::to_string(fmod));
  GE_RETURN_IF_ERROR(InferBroadcastChecked(ctx, kNumeric, false));
  DataType dt = ctx.output(0).dtype;
  if (fmod == 0 && dt != DataType::kUndefined && IsFloatingPoint(dt)) {
    return ctx.Error("fmod must be 1 for floating-point inputs");
  }
  return Status::Ok();
}

Status InferBitShift(InferContext& ctx) {
  std::string dir = ctx.attr().GetString("direction", "");
  if (dir != "LEFT" && dir != "RIGHT") return ctx.Error("direction must be \"LEFT\" or \"RIGHT\", got \"" + dir + "\"");
  return InferBroadcastChecked(ctx, kUnsignedInts, false);
}

Status InferWhere(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kBoolType));
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 1, kAllTypes));
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 2, kAllTypes));
  GE_RETURN_IF_ERROR(CheckSameTypes(ctx, 1, 2));
  GE_ASSIGN_OR_RETURN(Shape s, BroadcastInputs(ctx));
  DataType dt = ctx.input(1)->dtype != DataType::kUndefined ? ctx.input(1)->dtype : ctx.input(2)->dtype;
  ctx.output(0) = TensorDesc(dt, s);
  return Status::Ok();
}

}  // namespace

void RegisterBinaryOps(OpRegistry* r) {
  for (OpId id : {OpId::kAdd, OpId::kSub, OpId::kMul, OpId::kDiv})
    r->Add({id, 2, 2, 1, 1, InferBinaryOf<kNumeric, false>});
  r->Add({OpId::kPow, 2, 2, 1, 1, InferPow});
  r->Add({OpId::kMod, 2, 2, 1, 1, InferMod});
  r->Add({OpId::kBitShift, 2, 2, 1, 1, InferBitShift});
  for (OpId id : {OpId::kAnd, OpId::kOr, OpId::kXor}) r->Add({id, 2, 2, 1, 1, InferBinaryOf<kBoolType, true>});
  r->Add({OpId::kEqual, 2, 2, 1, 1, InferBinaryOf<kNumeric | kBoolType | kStringType, true>});
  for (OpId id : {OpId::kGreater, OpId::kLess, OpId::kGreaterOrEqual, OpId::kLessOrEqual}) {
    r->Add({id, 2, 2, 1, 1, InferBinaryOf<kNumeric, true>});
  }
  r->Add({OpId::kMax, 1, kVariadic, 1, 1, InferBinaryOf<kNumeric, false>});
  r->Add({OpId::kMin, 1, kVariadic, 1, 1, InferBinaryOf<kNumeric, false>});
  r->Add({OpId::kSum, 1, kVariadic, 1, 1, InferBinaryOf<kNumeric, false>});
  r->Add({OpId::kMean, 1, kVariadic, 1, 1, InferBinaryOf<kFloatTypes, false>});
  r->Add({OpId::kWhere, 3, 3, 1, 1, InferWhere});
}

}  // namespace ge::ops::elementwise
