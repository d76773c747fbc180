// Conv (float16, bfloat16, float compute in float; double in double): im2col + GEMM, see conv_core.h.
#include "kernels/ref/nn/conv_core.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

template <typename C>
Status RunConv(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* b) {
  GE_ASSIGN_OR_RETURN(ConvGeom g, MakeConvGeom(ctx, x.dims(), w.dims()));
  if (b && (b->rank() != 1 || b->numel() != g.m)) {
    return ctx.Error("bias must have shape [" + std::to_string(g.m) + "], got " + DimsToString(b->dims()));
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, g.OutputDims(), x.dtype()));
  std::vector<C> xb, wb, bb, yb;
  const C* xp = AsCompute(x, &xb);
  const C* wp = AsCompute(w, &wb);
  const C* bp = b ? AsCompute(*b, &bb) : nullptr;
  C* yp = ComputeOut(y, &yb);
  ConvForward(g, xp, wp, bp, yp);
  StoreCompute(yb, y);
  return Status::Ok();
}

}  // namespace

Status RefConv(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* b = ctx.input(2);
  GE_RETURN_IF_ERROR(CheckFloatConvInputs(ctx));
  if (x->dtype() == DataType::kDouble) return RunConv<double>(ctx, *x, *w, b);
  return RunConv<float>(ctx, *x, *w, b);
}


void RegisterConvKernels(KernelRegistry* r) { r->Add(OpId::kConv, RefConv); }

}  // namespace ge::ref::nn
