#include "ops/fused/concat_scale_shift_op.h"

#include <string>

#include "ops/fused/fused_activation.h"
#include "ops/infer_util.h"

namespace ge::ops {

Status InferConcatScaleShift(InferContext& ctx) {
  if (ctx.num_inputs() < 3) return ctx.Error("scale, shift and at least one X are required");
  Shape shape;
  int64_t c = 0;  // kUnknownDim once any input's channels are unknown
  for (int i = 2; i < ctx.num_inputs(); ++i) {
    const TensorDesc* x = ctx.input(i);
    if (x == nullptr) return ctx.Error("input " + std::to_string(i) + " is missing");
    if (x->dtype != DataType::kUndefined && x->dtype != DataType::kFloat) {
      return ctx.Error("input " + std::to_string(i) + " must be float32, got " + DataTypeName(x->dtype));
    }
    if (x->shape.unknown_rank() || x->shape.rank() < 3) {
      return ctx.Error("input " + std::to_string(i) + " must be [N, C, spatial...] of known rank");
    }
    if (i == 2) shape = x->shape;
    if (x->shape.rank() != shape.rank()) return ctx.Error("every X must have X1's rank");
    GE_RETURN_IF_ERROR(AddConcatChannels(ctx, i, x->shape, shape, &c));
  }
  const bool c_known = c != kUnknownDim;
  for (int i = 0; i < 2; ++i) {
    const TensorDesc* p = ctx.input(i);
    const char* what = i == 0 ? "scale" : "shift";
    if (p == nullptr) return ctx.Error(std::string(what) + " is required");
    if (p->dtype != DataType::kUndefined && p->dtype != DataType::kFloat) {
      return ctx.Error(std::string(what) + " must be float32, got " + DataTypeName(p->dtype));
    }
    if (!p->shape.unknown_rank() &&
        (p->shape.rank() != 1 || (c_known && p->shape.dim(0) != kUnknownDim && p->shape.dim(0) != c))) {
      return ctx.Error(std::string(what) + " must be [" + (c_known ? std::to_string(c) : std::string("C")) + "], got " +
                       p->shape.ToString());
    }
  }
  fused::ActivationSpec act;
  Status st = fused::ParseActivation(ctx.attr(), &act);
  if (!st.ok()) return ctx.Error(st.message());
  shape.set_dim(1, c_known ? c : kUnknownDim);
  shape.set_symbol(1, "");
  ctx.output(0) = TensorDesc(DataType::kFloat, shape);
  return Status::Ok();
}

}  // namespace ge::ops
