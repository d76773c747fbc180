// NonMaxSuppression (opset 10, 11): selected_indices is int64 [num_selected, 3] of (batch, class, box).
#include "ops/index/index_ops.h"

namespace ge::ops {
namespace {

Status CheckScalarInput(const InferContext& ctx, int i, const char* name, bool want_int) {
  if (!ctx.has_input(i)) return Status::Ok();
  const TensorDesc& d = *ctx.input(i);
  if (d.dtype != DataType::kUndefined && (want_int ? d.dtype != DataType::kInt64 && d.dtype != DataType::kInt32
                                                   : !IsFloatingPoint(d.dtype))) {
    return ctx.Error(std::string(name) + " has unsupported type " + DataTypeName(d.dtype));
  }
  if (d.shape.IsFullyKnown() && NumElements(d.shape.dims()) != 1) {
    return ctx.Error(std::string(name) + " must hold one element, got shape " + d.shape.ToString());
  }
  return Status::Ok();
}

Status InferNonMaxSuppression(InferContext& ctx) {
  const TensorDesc& boxes = *ctx.input(0);
  const TensorDesc& scores = *ctx.input(1);
  for (int i = 0; i < 2; ++i) {
    DataType dt = ctx.input(i)->dtype;
    if (dt != DataType::kUndefined && !IsFloatingPoint(dt)) {
      return ctx.Error(std::string(i == 0 ? "boxes" : "scores") + " must be floating point, got " + DataTypeName(dt));
    }
  }
  int64_t cpb = ctx.attr().GetInt("center_point_box", 0);
  if (cpb != 0 && cpb != 1) return ctx.Error("center_point_box must be 0 or 1, got " + std::to_string(cpb));
  if (!boxes.shape.unknown_rank()) {
    if (boxes.shape.rank() != 3) return ctx.Error("boxes must have rank 3, got " + boxes.shape.ToString());
    if (boxes.shape.dim(2) != kUnknownDim && boxes.shape.dim(2) != 4) {
      return ctx.Error("boxes last dim must be 4, got " + boxes.shape.ToString());
    }
  }
  if (!scores.shape.unknown_rank() && scores.shape.rank() != 3) {
    return ctx.Error("scores must have rank 3, got " + scores.shape.ToString());
  }
  if (!boxes.shape.unknown_rank() && !scores.shape.unknown_rank()) {
    int64_t d;
    if (!index_infer::MergeDim(boxes.shape.dim(0), scores.shape.dim(0), &d) ||
        !index_infer::MergeDim(boxes.shape.dim(1), scores.shape.dim(2), &d)) {
      return ctx.Error("boxes " + boxes.shape.ToString() + " and scores " + scores.shape.ToString() +
                       " disagree on batches or boxes");
    }
  }
  GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 2, "max_output_boxes_per_class", true));
  GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 3, "iou_threshold", false));
  GE_RETURN_IF_ERROR(CheckScalarInput(ctx, 4, "score_threshold", false));
  ctx.output(0) = TensorDesc(DataType::kInt64, Shape({kUnknownDim, 3}));
  return Status::Ok();
}

}  // namespace

void RegisterNmsOps(OpRegistry* r) { r->Add({OpId::kNonMaxSuppression, 2, 5, 1, 1, InferNonMaxSuppression}); }

}  // namespace ge::ops
