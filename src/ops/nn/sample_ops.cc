// Dropout, RoiAlign, GridSample: shape and dtype inference.
#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"

namespace ge::ops::nn {
namespace {

Status InferDropout(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "data"));
  if (ctx.opset < 12 && ctx.num_inputs() > 1 && (ctx.has_input(1) || ctx.has_input(2))) {
    return ctx.Error("ratio and training_mode inputs exist only since opset 12");
  }
  if (ctx.has_input(1)) {
    GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "ratio"));
    const Shape& s = ctx.input(1)->shape;
    if (!s.unknown_rank() && s.IsFullyKnown() && NumElements(s.dims()) != 1) return ctx.Error("ratio must be a scalar");
    if (const Tensor* t = ctx.input_value(1)) {
      double r = t->numel() == 1 ? t->GetAsDouble(0) : -1;
      if (!(r >= 0 && r < 1)) return ctx.Error("ratio must be in [0, 1)");
    }
  }
  if (ctx.has_input(2)) {
    if (ctx.input(2)->dtype != DataType::kBool && ctx.input(2)->dtype != DataType::kUndefined) {
      return ctx.Error("training_mode must be bool");
    }
  }
  if (ctx.opset < 12) {
    float r = ctx.attr().GetFloat("ratio", 0.5f);
    if (!(r >= 0 && r < 1)) return ctx.Error("ratio must be in [0, 1)");
  }
  ctx.output(0) = *ctx.input(0);
  if (ctx.num_outputs() > 1) {
    // Opset 7-9 returned the mask in the data type; bool since opset 10.
    ctx.output(1) = TensorDesc(ctx.opset >= 10 ? DataType::kBool : ctx.input(0)->dtype, ctx.input(0)->shape);
  }
  return Status::Ok();
}

Status InferRoiAlign(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "rois"));
  if (!ctx.has_input(2)) return ctx.Error("batch_indices is required");
  if (ctx.input(2)->dtype != DataType::kInt64 && ctx.input(2)->dtype != DataType::kUndefined) {
    return ctx.Error("batch_indices must be int64");
  }
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 4, "X"));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 2, "rois"));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 2, 1, "batch_indices"));
  const ir::AttrMap& a = ctx.attr();
  std::string mode = a.GetString("mode", "avg");
  if (mode != "avg" && mode != "max") return ctx.Error("mode must be avg or max, got '" + mode + "'");
  std::string ctm = a.GetString("coordinate_transformation_mode", "half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel") {
    return ctx.Error("unknown coordinate_transformation_mode '" + ctm + "'");
  }
  int64_t oh = a.GetInt("output_height", 1), ow = a.GetInt("output_width", 1);
  if (oh < 1 || ow < 1) return ctx.Error("output_height and output_width must be >= 1");
  if (a.GetInt("sampling_ratio", 0) < 0) return ctx.Error("sampling_ratio must be >= 0");
  const Shape& xs = ctx.input(0)->shape;
  const Shape& rs = ctx.input(1)->shape;
  const Shape& bs = ctx.input(2)->shape;
  if (!rs.unknown_rank() && rs.dim(1) != kUnknownDim && rs.dim(1) != 4) return ctx.Error("rois must have shape [R, 4]");
  int64_t nr = rs.unknown_rank() ? kUnknownDim : rs.dim(0);
  if (nr == kUnknownDim && !bs.unknown_rank()) nr = bs.dim(0);
  if (!rs.unknown_rank() && !bs.unknown_rank() && rs.dim(0) != kUnknownDim && bs.dim(0) != kUnknownDim &&
      rs.dim(0) != bs.dim(0)) {
    return ctx.Error("rois and batch_indices disagree on the number of rois");
  }
  Shape out;
  out.AddDim(nr);
  out.AddDim(xs.unknown_rank() ? kUnknownDim : xs.dim(1));
  out.AddDim(oh);
  out.AddDim(ow);
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, out);
  return Status::Ok();
}

Status InferGridSample(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "grid"));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 4, "X"));
  GE_RETURN_IF_ERROR(RequireRank(ctx, 1, 4, "grid"));
  const ir::AttrMap& a = ctx.attr();
  std::string mode = a.GetString("mode", "bilinear");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") return ctx.Error("unknown mode '" + mode + "'");
  std::string pm = a.GetString("padding_mode", "zeros");
  if (pm != "zeros" && pm != "border" && pm != "reflection") return ctx.Error("unknown padding_mode '" + pm + "'");
  int64_t ac = a.GetInt("align_corners", 0);
  if (ac != 0 && ac != 1) return ctx.Error("align_corners must be 0 or 1");
  const Shape& xs = ctx.input(0)->shape;
  const Shape& gs = ctx.input(1)->shape;
  if (!gs.unknown_rank() && gs.dim(3) != kUnknownDim && gs.dim(3) != 2) return ctx.Error("grid must end in 2");
  if (!xs.unknown_rank() && !gs.unknown_rank() && xs.dim(0) != kUnknownDim && gs.dim(0) != kUnknownDim &&
      xs.dim(0) != gs.dim(0)) {
    return ctx.Error("X and grid disagree on the batch size");
  }
  Shape out;
  if (!xs.unknown_rank()) {
    out.AddDim(xs.dim(0), xs.symbol(0));
    out.AddDim(xs.dim(1), xs.symbol(1));
  } else {
    out.AddDim(gs.unknown_rank() ? kUnknownDim : gs.dim(0));
    out.AddDim(kUnknownDim);
  }
  out.AddDim(gs.unknown_rank() ? kUnknownDim : gs.dim(1));
  out.AddDim(gs.unknown_rank() ? kUnknownDim : gs.dim(2));
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, out);
  return Status::Ok();
}

}  // namespace

void RegisterSampleOps(OpRegistry* r) {
  r->Add({OpId::kDropout, 1, 3, 1, 2, InferDropout});
  r->Add({OpId::kRoiAlign, 3, 3, 1, 1, InferRoiAlign});
  r->Add({OpId::kGridSample, 2, 2, 1, 1, InferGridSample});
}

}  // namespace ge::ops::nn
