#include "ops/elementwise/elementwise_infer.h"

#include <string>

#include "ops/infer_util.h"

namespace ge::ops::elementwise {

Status CheckInputType(const InferContext& ctx, int i, uint32_t allowed) {
  const TensorDesc* d = ctx.input(i);
  if (!d) return ctx.Error("input " + std::to_string(i) + " is missing");
  if (d->kind != ValueKind::kTensor && d->kind != ValueKind::kUnknown) {
    return ctx.Error("input " + std::to_string(i) + " must be a tensor");
  }
  if (d->dtype == DataType::kUndefined) return Status::Ok();
  if ((allowed & TypeBit(d->dtype)) == 0) {
    return ctx.Error(std::string("input ") + std::to_string(i) + " has unsupported type " + DataTypeName(d->dtype));
  }
  return Status::Ok();
}

Status CheckSameTypes(const InferContext& ctx, int first, int last) {
  DataType dt = DataType::kUndefined;
  for (int i = first; i <= last && i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i) || ctx.input(i)->dtype == DataType::kUndefined) continue;
    if (dt == DataType::kUndefined) {
      dt = ctx.input(i)->dtype;
    } else if (ctx.input(i)->dtype != dt) {
      return ctx.Error(std::string("input types differ: ") + DataTypeName(dt) + " and " +
                       DataTypeName(ctx.input(i)->dtype));
    }
  }
  return Status::Ok();
}

Status PassThroughTensor(InferContext& ctx) {
  const TensorDesc* in = ctx.input(0);
  if (!in) return ctx.Error("input 0 is missing");
  ctx.output(0) = TensorDesc(in->dtype, in->shape);
  return Status::Ok();
}

Status InferBroadcastChecked(InferContext& ctx, uint32_t allowed, bool bool_out) {
  DataType dt = DataType::kUndefined;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    GE_RETURN_IF_ERROR(CheckInputType(ctx, i, allowed));
    if (dt == DataType::kUndefined) dt = ctx.input(i)->dtype;
  }
  GE_RETURN_IF_ERROR(CheckSameTypes(ctx, 0, ctx.num_inputs() - 1));
  GE_ASSIGN_OR_RETURN(Shape s, BroadcastInputs(ctx));
  ctx.output(0) = TensorDesc(bool_out ? DataType::kBool : dt, s);
  return Status::Ok();
}

}  // namespace ge::ops::elementwise
