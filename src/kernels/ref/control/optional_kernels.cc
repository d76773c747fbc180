// Optional, OptionalHasElement, OptionalGetElement. An optional holding a value is that value; an empty one is
// Value::OptionalNone (see base/value.h).
#include <string>

#include "kernels/ref/control/control_kernels.h"

namespace ge::ref::control {
namespace {

Status RefOptional(KernelContext& ctx) {
  const Value* v = ctx.input_value(0);
  if (v && v->kind != Value::Kind::kNone) {
    ctx.SetOutputValue(0, *v);
    return Status::Ok();
  }
  const TensorDesc& d = ctx.inferred[0];
  ctx.SetOutputValue(0, Value::OptionalNone(d.dtype, d.elem_kind == ValueKind::kSequence));
  return Status::Ok();
}

Status RefOptionalHasElement(KernelContext& ctx) {
  ctx.SetOutput(0, Tensor::Scalar<bool>(ctx.has_input(0)));
  return Status::Ok();
}

Status RefOptionalGetElement(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("the optional is empty");
  ctx.SetOutputValue(0, *ctx.input_value(0));
  return Status::Ok();
}

}  // namespace

void RegisterOptionalKernels(KernelRegistry* r) {
  r->Add(OpId::kOptional, RefOptional);
  r->Add(OpId::kOptionalHasElement, RefOptionalHasElement);
  r->Add(OpId::kOptionalGetElement, RefOptionalGetElement);
}

}  // namespace ge::ref::control
