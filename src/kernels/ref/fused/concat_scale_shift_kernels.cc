// Reference kernel of ge::ConcatScaleShift (ops/fused/concat_scale_shift_op.h) on plain float32 tensors: each
// input's channel planes land at their offset in Y as act(x * scale[c] + shift[c]), the multiply and the add each
// rounded to float as two separate nodes would store them.
#include <string>

#include "kernels/ref/families.h"
#include "kernels/ref/fused/fused_epilogue.h"
#include "kernels/ref/kernel_context.h"

namespace ge::ref {
namespace {

Status RefConcatScaleShift(KernelContext& ctx) {
  const Tensor* scale = ctx.input(0);
  const Tensor* shift = ctx.input(1);
  if (!scale || !shift || ctx.num_inputs() < 3) return ctx.Error("scale, shift and at least one X are required");
  const Tensor* x1 = ctx.input(2);
  if (!x1 || x1->rank() < 3) return ctx.Error("X1 must be [N, C, spatial...]");
  const int64_t n = x1->dim(0);
  int64_t q = 1;  // pixels per channel plane
  for (int d = 2; d < x1->rank(); ++d) q *= x1->dim(d);
  int64_t c = 0;
  for (int i = 2; i < ctx.num_inputs(); ++i) {
    const Tensor* x = ctx.input(i);
    bool fits = x != nullptr && x->dtype() == DataType::kFloat && x->rank() == x1->rank();
    for (int d = 0; fits && d < x1->rank(); ++d) fits = d == 1 || x->dim(d) == x1->dim(d);
    if (!fits) {
      return ctx.Error("input " + std::to_string(i) + " does not concatenate with X1 " + DimsToString(x1->dims()));
    }
    c += x->dim(1);
  }
  if (scale->dtype() != DataType::kFloat || shift->dtype() != DataType::kFloat || scale->numel() != c ||
      shift->numel() != c) {
    return ctx.Error("scale and shift must be float32 [" + std::to_string(c) + "]");
  }
  ge::fused::ActivationSpec act;
  Status st = ge::fused::ParseActivation(ctx.attr(), &act);
  if (!st.ok()) return ctx.Error(st.message());
  Dims dims = x1->dims();
  dims[1] = c;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, dims, DataType::kFloat));
  const float* a = scale->data<float>();
  const float* b = shift->data<float>();
  for (int64_t batch = 0; batch < n; ++batch) {
    int64_t offset = 0;
    for (int i = 2; i < ctx.num_inputs(); ++i) {
      const Tensor* x = ctx.input(i);
      const int64_t ci = x->dim(1);
      const float* xb = x->data<float>() + batch * ci * q;
      float* yb = y->data<float>() + (batch * c + offset) * q;
      for (int64_t k = 0; k < ci; ++k) {
        const float ak = a[offset + k], bk = b[offset + k];
        for (int64_t p = 0; p < q; ++p) {
          const float m = xb[k * q + p] * ak;
          yb[k * q + p] = m + bk;
        }
        fused::ApplyEpilogue<float>(act, nullptr, 0, yb + k * q, q);
      }
      offset += ci;
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterConcatScaleShiftRefKernel(KernelRegistry* r) { r->Add(OpId::kGeConcatScaleShift, RefConcatScaleShift); }

}  // namespace ge::ref
