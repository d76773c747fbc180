// BatchNormalization, InstanceNormalization, LayerNormalization, MeanVarianceNormalization, LRN: inference.
#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"

namespace ge::ops::nn {
namespace {

// Rank must be >= min_rank when known.
Status RequireMinRank(const InferContext& ctx, int i, int min_rank, const char* what) {
  const Shape& s = ctx.input(i)->shape;
  if (!s.unknown_rank() && s.rank() < min_rank) {
    return ctx.Error(std::string(what) + " must have rank >= " + std::to_string(min_rank) + ", got " + s.ToString());
  }
  return Status::Ok();
}

int64_t ChannelDim(const TensorDesc& x) {
  return x.shape.unknown_rank() || x.shape.rank() < 2 ? kUnknownDim : x.shape.dim(1);
}

Status CheckChannelParam(const InferContext& ctx, int i, int64_t c, const char* what, bool allow_wide) {
  if (!ctx.has_input(i)) return ctx.Error(std::string(what) + " is required");
  const TensorDesc& p = *ctx.input(i);
  if (p.dtype != DataType::kUndefined && !IsFloatingPoint(p.dtype)) {
    return ctx.Error(std::string(what) + " must be a floating-point tensor");
  }
  if (p.shape.unknown_rank()) return Status::Ok();
  if (p.shape.rank() != 1 && !allow_wide) return ctx.Error(std::string(what) + " must be 1-D, got " + p.shape.ToString());
  if (p.shape.rank() < 1) return ctx.Error(std::string(what) + " must not be a scalar");
  if (c != kUnknownDim && p.shape.dim(0) != kUnknownDim && p.shape.dim(0) != c) {
    return ctx.Error(std::string(what) + " has " + std::to_string(p.shape.dim(0)) + " channels, expected " +
                     std::to_string(c));
  }
  return Status::Ok();
}

}  // namespace

Status InferBatchNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2, "X"));
  const TensorDesc& x = *ctx.input(0);
  const int64_t c = ChannelDim(x);
  // Opset 7-8 spatial=0 takes per-activation parameters of shape [C, D1, ...].
  const bool wide = ctx.opset < 9 && ctx.attr().GetInt("spatial", 1) == 0;
  const char* names[] = {"scale", "B", "mean", "var"};
  for (int i = 1; i <= 4; ++i) GE_RETURN_IF_ERROR(CheckChannelParam(ctx, i, c, names[i - 1], wide));
  int64_t tm = ctx.attr().GetInt("training_mode", 0);
  if (tm != 0 && tm != 1) return ctx.Error("training_mode must be 0 or 1");
  if (ctx.opset >= 14 && ctx.num_outputs() > 3) return ctx.Error("at most 3 outputs since opset 14");
  ctx.output(0) = x;
  for (int i = 1; i < ctx.num_outputs(); ++i) ctx.output(i) = *ctx.input(i % 2 == 1 ? 3 : 4);
  return Status::Ok();
}

namespace {

Status InferInstanceNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "input"));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2, "input"));
  const int64_t c = ChannelDim(*ctx.input(0));
  GE_RETURN_IF_ERROR(CheckChannelParam(ctx, 1, c, "scale", false));
  GE_RETURN_IF_ERROR(CheckChannelParam(ctx, 2, c, "B", false));
  ctx.output(0) = *ctx.input(0);
  return Status::Ok();
}

}  // namespace

Status InferLayerNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "Scale"));
  if (ctx.has_input(2)) GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 2, "B"));
  int64_t stash = ctx.attr().GetInt("stash_type", 1);
  if (!IsValidDataType(static_cast<int32_t>(stash)) || !IsFloatingPoint(static_cast<DataType>(stash))) {
    return ctx.Error("stash_type must name a floating-point type, got " + std::to_string(stash));
  }
  const TensorDesc& x = *ctx.input(0);
  ctx.output(0) = x;
  const DataType u = static_cast<DataType>(stash);
  if (x.shape.unknown_rank()) {
    for (int i = 1; i < ctx.num_outputs(); ++i) ctx.output(i) = TensorDesc(u, Shape::UnknownRank());
    return Status::Ok();
  }
  const int r = x.shape.rank();
  auto axis = NormalizeAxis(ctx.attr().GetInt("axis", -1), r);
  if (!axis.ok()) return ctx.Error(axis.status().message());
  Shape stat;
  for (int i = 0; i < r; ++i) {
    if (i < *axis) stat.AddDim(x.shape.dim(i), x.shape.symbol(i));
    else stat.AddDim(1);
  }
  for (int i = 1; i < ctx.num_outputs(); ++i) ctx.output(i) = TensorDesc(u, stat);
  return Status::Ok();
}

namespace {

Status InferMvn(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  const TensorDesc& x = *ctx.input(0);
  if (!x.shape.unknown_rank()) {
    for (int64_t a : ctx.attr().GetInts("axes", {0, 2, 3})) {
      if (!NormalizeAxis(a, x.shape.rank()).ok()) {
        return ctx.Error("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(x.shape.rank()));
      }
    }
  }
  ctx.output(0) = x;
  return Status::Ok();
}

Status InferLrn(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2, "X"));
  if (!ctx.attr().Has("size")) return ctx.Error("size attribute is required");
  if (ctx.attr().GetInt("size", 0) < 1) return ctx.Error("size must be >= 1");
  ctx.output(0) = *ctx.input(0);
  return Status::Ok();
}

}  // namespace

void RegisterNormOps(OpRegistry* r) {
  r->Add({OpId::kBatchNormalization, 5, 5, 1, 5, InferBatchNorm});
  r->Add({OpId::kInstanceNormalization, 3, 3, 1, 1, InferInstanceNorm});
  r->Add({OpId::kLayerNormalization, 2, 3, 1, 3, InferLayerNorm});
  r->Add({OpId::kMeanVarianceNormalization, 1, 1, 1, 1, InferMvn});
  r->Add({OpId::kLRN, 1, 1, 1, 1, InferLrn});
}

}  // namespace ge::ops::nn
