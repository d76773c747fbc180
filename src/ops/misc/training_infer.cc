// Inference of the optimizer ops of ai.onnx.preview.training (opset 1): Adagrad, Momentum, Adam.
// Inputs are (R, T, then `groups` lists of n tensors each); outputs are `groups - 1` lists of n tensors: the new X
// followed by the new optimizer states, each shaped like its input.
#include <string>

#include "ops/infer_util.h"
#include "ops/misc/misc_ops.h"

namespace ge::ops::misc {
namespace {

Status InferOptimizer(InferContext& ctx, int groups) {
  const int n_tensors = ctx.num_inputs() - 2;
  if (n_tensors <= 0 || n_tensors % groups != 0) {
    return ctx.Error("expects R, T and " + std::to_string(groups) + " equally long lists of tensors, got " +
                     std::to_string(ctx.num_inputs()) + " inputs");
  }
  const int n = n_tensors / groups;
  if (ctx.num_outputs() != (groups - 1) * n) {
    return ctx.Error("expects " + std::to_string((groups - 1) * n) + " outputs, got " +
                     std::to_string(ctx.num_outputs()));
  }
  const TensorDesc* r = ctx.input(0);
  const TensorDesc* t = ctx.input(1);
  if (r->dtype != DataType::kUndefined && r->dtype != DataType::kFloat && r->dtype != DataType::kDouble) {
    return ctx.Error("R must be float or double");
  }
  if (t->dtype != DataType::kUndefined && t->dtype != DataType::kInt64) return ctx.Error("T must be int64");
  for (const TensorDesc* d : {r, t}) {
    if (!d->shape.unknown_rank() && d->shape.rank() != 0) return ctx.Error("R and T must be scalars");
  }
  for (int i = 0; i < n; ++i) {
    const TensorDesc* x = ctx.input(2 + i);
    if (!x) return ctx.Error("input " + std::to_string(2 + i) + " is missing");
    if (x->dtype != DataType::kUndefined && x->dtype != DataType::kFloat && x->dtype != DataType::kDouble) {
      return ctx.Error("optimized tensors must be float or double");
    }
    for (int g = 1; g < groups; ++g) {
      const TensorDesc* o = ctx.input(2 + g * n + i);
      if (!o) return ctx.Error("input " + std::to_string(2 + g * n + i) + " is missing");
      if (o->dtype != DataType::kUndefined && x->dtype != DataType::kUndefined && o->dtype != x->dtype) {
        return ctx.Error("input " + std::to_string(2 + g * n + i) + " has a dtype different from X" + std::to_string(i));
      }
      if (!BroadcastShapes(o->shape, x->shape).ok()) {
        return ctx.Error("input " + std::to_string(2 + g * n + i) + " has a shape different from X" + std::to_string(i));
      }
    }
    ctx.output(i) = *x;
    // States (V, H) keep their shapes: input group 2.. maps to output group 1..
    for (int g = 2; g < groups; ++g) ctx.output((g - 1) * n + i) = *ctx.input(2 + g * n + i);
  }
  return Status::Ok();
}

Status InferAdagrad(InferContext& ctx) { return InferOptimizer(ctx, 3); }   // X, G, H
Status InferMomentum(InferContext& ctx) {                                    // X, G, V
  const std::string mode = ctx.attr().GetString("mode", "");
  if (mode != "standard" && mode != "nesterov") return ctx.Error("mode must be 'standard' or 'nesterov'");
  return InferOptimizer(ctx, 3);
}
Status InferAdam(InferContext& ctx) { return InferOptimizer(ctx, 4); }      // X, G, V, H

}  // namespace

void RegisterTrainingOps(OpRegistry* r) {
  r->Add({OpId::kTrainingAdagrad, 5, kVariadic, 2, kVariadic, InferAdagrad});
  r->Add({OpId::kTrainingMomentum, 5, kVariadic, 2, kVariadic, InferMomentum});
  r->Add({OpId::kTrainingAdam, 6, kVariadic, 3, kVariadic, InferAdam});
}

}  // namespace ge::ops::misc
