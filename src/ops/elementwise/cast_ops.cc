// Schemas of Cast (attribute `to`) and CastLike (opset 15: the dtype of input 1).
#include <string>

#include "ops/elementwise/elementwise_infer.h"
#include "ops/elementwise/elementwise_ops.h"

namespace ge::ops::elementwise {
namespace {

constexpr uint32_t kCastTypes = kNumeric | kBoolType | kStringType;

Status InferCast(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kCastTypes));
  const ir::AttrValue* to = ctx.attr().Find("to");
  if (!to || to->type != ir::AttrValue::Type::kInt) return ctx.Error("attribute 'to' (an int) is required");
  if (to->i <= 0 || to->i > kMaxDataTypeValue || !IsValidDataType(static_cast<int32_t>(to->i)) ||
      (kCastTypes & TypeBit(static_cast<DataType>(to->i))) == 0) {
    return ctx.Error("cannot cast to data type " + std::to_string(to->i));
  }
  ctx.output(0) = TensorDesc(static_cast<DataType>(to->i), ctx.input(0)->shape);
  return Status::Ok();
}

Status InferCastLike(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kCastTypes));
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 1, kCastTypes));
  ctx.output(0) = TensorDesc(ctx.input(1)->dtype, ctx.input(0)->shape);
  return Status::Ok();
}

}  // namespace

void RegisterCastOps(OpRegistry* r) {
  r->Add({OpId::kCast, 1, 1, 1, 1, InferCast});
  r->Add({OpId::kCastLike, 2, 2, 1, 1, InferCastLike});
}

}  // namespace ge::ops::elementwise
