// Inference of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opset 12/13).
#include "ops/infer_util.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {
namespace {

// Checks scores (N, C, d1..dk), target (N, d1..dk) and weight (C) and sets the loss output (target's shape for
// reduction "none", else a scalar).
Status InferLoss(InferContext& ctx) {
  const TensorDesc& x = *ctx.input(0);
  const TensorDesc& t = *ctx.input(1);
  if (x.dtype != DataType::kUndefined && !IsFloatingPoint(x.dtype)) {
    return ctx.Error("input 0 must be a floating-point tensor, got " + std::string(DataTypeName(x.dtype)));
  }
  if (t.dtype != DataType::kUndefined && t.dtype != DataType::kInt32 && t.dtype != DataType::kInt64) {
    return ctx.Error("target must be int32 or int64, got " + std::string(DataTypeName(t.dtype)));
  }
  const std::string reduction = ctx.attr().GetString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    return ctx.Error("reduction must be none, sum or mean, got '" + reduction + "'");
  }
  if (!x.shape.unknown_rank() && x.shape.rank() < 2) return ctx.Error("input 0 must have rank >= 2");
  if (!x.shape.unknown_rank() && !t.shape.unknown_rank() && t.shape.rank() != x.shape.rank() - 1) {
    return ctx.Error("target rank must be input rank - 1");
  }
  if (ctx.has_input(2)) {
    const TensorDesc& w = *ctx.input(2);
    if (!w.shape.unknown_rank() && w.shape.rank() != 1) return ctx.Error("weight must be 1-D");
    if (w.dtype != DataType::kUndefined && x.dtype != DataType::kUndefined && w.dtype != x.dtype) {
      return ctx.Error("weight must have the input's data type");
    }
  }
  Shape loss_shape;  // scalar
  if (reduction == "none") {
    if (!t.shape.unknown_rank()) {
      loss_shape = t.shape;
      if (!x.shape.unknown_rank()) {
        for (int i = 0; i < t.shape.rank(); ++i) {
          const int xi = i == 0 ? 0 : i + 1;
          int64_t a = x.shape.dim(xi), b = t.shape.dim(i);
          if (a != kUnknownDim && b != kUnknownDim && a != b) return ctx.Error("target shape does not match input");
          if (b == kUnknownDim && a != kUnknownDim) loss_shape.set_dim(i, a);
        }
      }
    } else if (!x.shape.unknown_rank()) {
      loss_shape = Shape();
      for (int i = 0; i < x.shape.rank(); ++i) {
        if (i != 1) loss_shape.AddDim(x.shape.dim(i), x.shape.symbol(i));
      }
    } else {
      loss_shape = Shape::UnknownRank();
    }
  }
  ctx.output(0) = TensorDesc(x.dtype, loss_shape);
  if (ctx.num_outputs() > 1) ctx.output(1) = TensorDesc(x.dtype, x.shape);
  return Status::Ok();
}

}  // namespace

void RegisterLossOps(OpRegistry* r) {
  r->Add({OpId::kNegativeLogLikelihoodLoss, 2, 3, 1, 1, InferLoss});
  r->Add({OpId::kSoftmaxCrossEntropyLoss, 2, 3, 1, 2, InferLoss});
}

}  // namespace ge::ops
