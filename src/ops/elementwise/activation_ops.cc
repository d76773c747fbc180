// Schemas of the activation ops (Relu ... Mish, PRelu, Clip).
#include <string>

#include "ops/elementwise/elementwise_infer.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/infer_util.h"

namespace ge::ops::elementwise {
namespace {

// PRelu (opset 7+): slope broadcasts unidirectionally to X; the output has X's shape.
Status InferPRelu(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kNumeric));
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 1, kNumeric));
  GE_RETURN_IF_ERROR(CheckSameTypes(ctx, 0, 1));
  const Shape& x = ctx.input(0)->shape;
  const Shape& slope = ctx.input(1)->shape;
  auto b = BroadcastShapes(x, slope);
  if (!b.ok()) return ctx.Error(b.status().message());
  if (!x.unknown_rank() && !slope.unknown_rank()) {
    if (slope.rank() > x.rank())
      return ctx.Error("slope " + slope.ToString() + " does not broadcast to X " + x.ToString());
    for (int i = 0; i < slope.rank(); ++i) {
      int64_t ds = slope.dim(i), dx = x.dim(i + x.rank() - slope.rank());
      if (ds != 1 && ds != kUnknownDim && dx != kUnknownDim && ds != dx) {
        return ctx.Error("slope " + slope.ToString() + " does not broadcast to X " + x.ToString());
      }
    }
  }
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, x);
  return Status::Ok();
}

// Clip: before opset 11 the bounds are attributes `min` / `max`; from opset 11 they are optional scalar inputs.
Status InferClip(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kNumeric));
  if (ctx.opset < 11 && ctx.num_inputs() > 1) return ctx.Error("Clip before opset 11 takes one input");
  for (int i = 1; i < 3; ++i) {
    if (!ctx.has_input(i)) continue;
    GE_RETURN_IF_ERROR(CheckInputType(ctx, i, kNumeric));
    const Shape& s = ctx.input(i)->shape;
    if (!s.unknown_rank() && s.IsFullyKnown() && NumElements(s.dims()) != 1) {
      return ctx.Error(std::string(i == 1 ? "min" : "max") + " must be a scalar, got shape " + s.ToString());
    }
  }
  GE_RETURN_IF_ERROR(CheckSameTypes(ctx, 0, 2));
  return PassThroughTensor(ctx);
}

}  // namespace

void RegisterActivationOps(OpRegistry* r) {
  r->Add({OpId::kRelu, 1, 1, 1, 1, InferUnaryOf<kSignedNumeric>});
  for (OpId id :
       {OpId::kLeakyRelu, OpId::kElu, OpId::kSelu, OpId::kCelu, OpId::kSigmoid, OpId::kHardSigmoid, OpId::kHardSwish,
        OpId::kSoftplus, OpId::kSoftsign, OpId::kThresholdedRelu, OpId::kTanh, OpId::kMish}) {
    r->Add({id, 1, 1, 1, 1, InferUnaryOf<kFloatTypes>});
  }
  r->Add({OpId::kShrink, 1, 1, 1, 1, InferUnaryOf<kNumeric>});
  r->Add({OpId::kPRelu, 2, 2, 1, 1, InferPRelu});
  r->Add({OpId::kClip, 1, 3, 1, 1, InferClip});
}

}  // namespace ge::ops::elementwise
