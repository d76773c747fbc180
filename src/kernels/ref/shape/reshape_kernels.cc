// Reshape, Flatten, Squeeze, Unsqueeze and Identity share the input's storage; Shape and Size read its dims.
#include <algorithm>

#include "kernels/ref/shape/shape_kernels_internal.h"

namespace ge::ref::shape_family {
namespace {

Status RefReshapeLike(KernelContext& ctx) { return SetViewOfInput0(ctx); }

Status RefShape(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  int64_t r = x->rank();
  int64_t start = 0, end = r;
  if (ctx.opset >= 15) {
    start = ctx.attr().GetInt("start", 0);
    end = ctx.attr().GetInt("end", r);
  }
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  int64_t n = std::max<int64_t>(end - start, 0);
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {n}, DataType::kInt64));
  for (int64_t i = 0; i < n; ++i) y->data<int64_t>()[i] = x->dim(static_cast<int>(start + i));
  return Status::Ok();
}

Status RefSize(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {}, DataType::kInt64));
  y->data<int64_t>()[0] = x->numel();
  return Status::Ok();
}

// Identity passes any value through: tensors (sharing storage), sequences and optionals.
Status RefIdentity(KernelContext& ctx) {
  const Value* v = ctx.input_value(0);
  if (!v) return ctx.Error("input is missing");
  ctx.SetOutputValue(0, *v);
  return Status::Ok();
}

}  // namespace

void RegisterReshapeKernels(KernelRegistry* r) {
  r->Add(OpId::kReshape, RefReshapeLike);
  r->Add(OpId::kFlatten, RefReshapeLike);
  r->Add(OpId::kSqueeze, RefReshapeLike);
  r->Add(OpId::kUnsqueeze, RefReshapeLike);
  r->Add(OpId::kShape, RefShape);
  r->Add(OpId::kSize, RefSize);
  r->Add(OpId::kIdentity, RefIdentity);
}

}  // namespace ge::ref::shape_family
