// Inference of Optional, OptionalHasElement, OptionalGetElement. At run time an optional that holds a value is
// described by that value (see base/value.h), so these functions accept tensors and sequences where the spec
// says optional.
#include <string>

#include "ir/graph.h"
#include "ops/control/control_ops.h"
#include "ops/infer_util.h"

namespace ge::ops::control {
namespace {

Status InferOptional(InferContext& ctx) {
  TensorDesc out;
  out.kind = ValueKind::kOptional;
  if (ctx.has_input(0)) {
    const TensorDesc* in = ctx.input(0);
    if (in->kind == ValueKind::kOptional) return ctx.Error("the input must be a tensor or a sequence, not an optional");
    out.elem_kind = in->kind == ValueKind::kSequence ? ValueKind::kSequence : ValueKind::kTensor;
    out.dtype = in->dtype;
    out.shape = in->shape;
    ctx.output(0) = out;
    return Status::Ok();
  }
  // The importer splits the 'type' TypeProto attribute into type.dtype / type.kind (ints; see onnx_parser.cc).
  if (ctx.attr().Has("type.dtype")) {
    const int64_t dt = ctx.attr().GetInt("type.dtype", 0);
    if (dt != 0 && !IsValidDataType(static_cast<int32_t>(dt))) return ctx.Error("type has an invalid element type");
    out.dtype = static_cast<DataType>(dt);
    const int64_t kind = ctx.attr().GetInt("type.kind", static_cast<int64_t>(ValueKind::kTensor));
    if (kind == static_cast<int64_t>(ValueKind::kOptional)) return ctx.Error("an optional cannot hold an optional");
    out.elem_kind = kind == static_cast<int64_t>(ValueKind::kSequence) ? ValueKind::kSequence : ValueKind::kTensor;
  } else if (ctx.node && ctx.node->output(0) && ctx.node->output(0)->desc().kind == ValueKind::kOptional) {
    const TensorDesc& d = ctx.node->output(0)->desc();
    out.elem_kind = d.elem_kind;
    out.dtype = d.dtype;
    out.shape = d.shape;
  } else {
    return ctx.Error("an Optional without input needs the 'type' attribute");
  }
  ctx.output(0) = out;
  return Status::Ok();
}

Status InferOptionalHasElement(InferContext& ctx) {
  ctx.output(0) = TensorDesc(DataType::kBool, Shape());
  return Status::Ok();
}

Status InferOptionalGetElement(InferContext& ctx) {
  const TensorDesc* in = ctx.input(0);
  TensorDesc out = *in;
  if (in->kind == ValueKind::kOptional) {
    out.kind = in->elem_kind;
    out.elem_kind = ValueKind::kTensor;
  }
  ctx.output(0) = out;
  return Status::Ok();
}

}  // namespace

void RegisterOptionalOps(OpRegistry* r) {
  r->Add({OpId::kOptional, 0, 1, 1, 1, InferOptional});
  r->Add({OpId::kOptionalHasElement, 0, 1, 1, 1, InferOptionalHasElement});
  r->Add({OpId::kOptionalGetElement, 1, 1, 1, 1, InferOptionalGetElement});
}

}  // namespace ge::ops::control
