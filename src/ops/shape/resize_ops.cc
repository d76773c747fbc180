// Resize (opsets 10, 11, 13) and Upsample (opsets 7, 9).
#include "ops/shape/shape_ops_internal.h"
#include "ops/shape/shape_params.h"

namespace ge::ops::shape_family {
namespace {

// Reads a float list input; kAbsent also when the input is an empty tensor (opset 11 passes "no scales" so).
ArgState FloatsInput(const InferContext& ctx, int i, std::vector<double>* out) {
  if (!ctx.has_input(i)) return ArgState::kAbsent;
  const Tensor* t = ctx.input_value(i);
  if (!t) return Known1DLength(ctx, i) == 0 ? ArgState::kAbsent : ArgState::kUnknown;
  if (t->numel() == 0) return ArgState::kAbsent;
  out->clear();
  for (int64_t k = 0; k < t->numel(); ++k) out->push_back(t->GetAsDouble(k));
  return ArgState::kKnown;
}

ArgState IntsInput(const InferContext& ctx, int i, std::vector<int64_t>* out) {
  if (!ctx.has_input(i)) return ArgState::kAbsent;
  const Tensor* t = ctx.input_value(i);
  if (!t) return Known1DLength(ctx, i) == 0 ? ArgState::kAbsent : ArgState::kUnknown;
  if (t->numel() == 0) return ArgState::kAbsent;
  *out = t->ToInt64Vector();
  return ArgState::kKnown;
}

// Output shape from scales or sizes; axes whose input dim is unknown stay unknown unless their scale is 1.
Status SetResizedShape(InferContext& ctx, ArgState s_scales, const std::vector<double>& scales, ArgState s_sizes,
                       const std::vector<int64_t>& sizes) {
  const TensorDesc& in = *ctx.input(0);
  if (s_scales == ArgState::kKnown && s_sizes == ArgState::kKnown) {
    return ctx.Error("only one of scales and sizes may be given");
  }
  if (s_scales == ArgState::kAbsent && s_sizes == ArgState::kAbsent) {
    return ctx.Error("one of scales and sizes is required");
  }
  if (in.shape.unknown_rank()) {
    if (s_sizes == ArgState::kKnown) ctx.output(0).shape = UnknownDims(static_cast<int64_t>(sizes.size()));
    if (s_scales == ArgState::kKnown) ctx.output(0).shape = UnknownDims(static_cast<int64_t>(scales.size()));
    return Status::Ok();
  }
  const int r = in.shape.rank();
  if (s_scales != ArgState::kKnown && s_sizes != ArgState::kKnown) {
    ctx.output(0).shape = UnknownDims(r);
    return Status::Ok();
  }
  if (in.shape.IsFullyKnown()) {
    auto t = ComputeResizeTarget(in.shape.dims(), s_scales == ArgState::kKnown ? &scales : nullptr,
                                 s_sizes == ArgState::kKnown ? &sizes : nullptr);
    if (!t.ok()) return ctx.Error(t.status().message());
    Shape out;
    for (int i = 0; i < r; ++i) out.AddDim(t->out[i], t->out[i] == in.shape.dim(i) ? in.shape.symbol(i) : "");
    ctx.output(0).shape = out;
    return Status::Ok();
  }
  const size_t n = s_sizes == ArgState::kKnown ? sizes.size() : scales.size();
  if (static_cast<int>(n) != r) return ctx.Error("scales/sizes must have one entry per input dim");
  Shape out;
  for (int i = 0; i < r; ++i) {
    int64_t d = in.shape.dim(i);
    if (s_sizes == ArgState::kKnown) {
      if (sizes[i] < 0) return ctx.Error("sizes must be non-negative");
      out.AddDim(sizes[i]);
    } else if (scales[i] == 1.0) {
      out.AddDim(d, in.shape.symbol(i));
    } else if (d == kUnknownDim) {
      if (!(scales[i] > 0)) return ctx.Error("scales must be positive");
      out.AddDim(kUnknownDim);
    } else {
      auto v = ScaledDim(d, scales[i]);
      if (!v.ok()) return ctx.Error(v.status().message());
      out.AddDim(*v);
    }
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status CheckResizeAttrs(const InferContext& ctx) {
  std::string mode = ctx.attr().GetString("mode", "nearest");
  bool linear_ok = mode == "linear" || (ctx.op_type == "Upsample" && mode == "bilinear");
  if (mode != "nearest" && !linear_ok && !(mode == "cubic" && ctx.op_type == "Resize" && ctx.opset >= 11)) {
    return ctx.Error("unsupported mode '" + mode + "'");
  }
  if (ctx.op_type == "Resize" && ctx.opset >= 11) {
    std::string ctm = ctx.attr().GetString("coordinate_transformation_mode", "half_pixel");
    if (!IsValidCoordinateMode(ctm, ctx.opset)) {
      return ctx.Error("unsupported coordinate_transformation_mode '" + ctm + "'");
    }
    std::string nm = ctx.attr().GetString("nearest_mode", "round_prefer_floor");
    if (!IsValidNearestMode(nm)) return ctx.Error("unsupported nearest_mode '" + nm + "'");
  }
  return Status::Ok();
}

Status InferResize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  if (ctx.opset >= 11) GE_RETURN_IF_ERROR(RequireIntInput(ctx, 3));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  GE_RETURN_IF_ERROR(CheckResizeAttrs(ctx));
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (ctx.opset < 11) {
    ArgState s = FloatsInput(ctx, 1, &scales);
    if (s == ArgState::kAbsent) return ctx.Error("input 'scales' is required");
    return SetResizedShape(ctx, s, scales, ArgState::kAbsent, sizes);
  }
  if (ctx.num_inputs() > 4) return ctx.Error("expects at most 4 inputs");
  ArgState s_scales = FloatsInput(ctx, 2, &scales);
  ArgState s_sizes = IntsInput(ctx, 3, &sizes);
  if (ctx.attr().GetString("coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize") {
    const Tensor* roi = ctx.input_value(1);
    if (!ctx.has_input(1)) return ctx.Error("tf_crop_and_resize needs roi");
    if (roi && !in.shape.unknown_rank() && roi->numel() != 2 * in.shape.rank()) {
      return ctx.Error("roi must have 2 * rank entries");
    }
  }
  return SetResizedShape(ctx, s_scales, scales, s_sizes, sizes);
}

Status InferUpsample(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  GE_RETURN_IF_ERROR(CheckResizeAttrs(ctx));
  std::vector<double> scales;
  ArgState s;
  if (ctx.opset < 9) {
    if (!ctx.attr().Has("scales")) return ctx.Error("attribute 'scales' is required");
    for (float f : ctx.attr().GetFloats("scales")) scales.push_back(f);
    s = ArgState::kKnown;
  } else {
    s = FloatsInput(ctx, 1, &scales);
    if (s == ArgState::kAbsent) return ctx.Error("input 'scales' is required");
  }
  return SetResizedShape(ctx, s, scales, ArgState::kAbsent, {});
}

}  // namespace

void RegisterResizeOps(OpRegistry* r) {
  r->Add({OpId::kResize, 1, 4, 1, 1, InferResize});
  r->Add({OpId::kUpsample, 1, 2, 1, 1, InferUpsample});
}

}  // namespace ge::ops::shape_family
