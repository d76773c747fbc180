// Pad (attributes before opset 11, inputs from 11), DepthToSpace and SpaceToDepth.
#include "ops/shape/shape_ops_internal.h"
#include "ops/shape/shape_params.h"

namespace ge::ops::shape_family {
namespace {

Status InferPad(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::string mode = ctx.attr().GetString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") return ctx.Error("unsupported pad mode '" + mode + "'");
  std::vector<int64_t> pads;
  ArgState st;
  if (ctx.opset < 11) {
    // Pad-1 called the attribute "paddings".
    st = ArgState::kKnown;
    pads = ctx.attr().Has("pads") ? ctx.attr().GetInts("pads") : ctx.attr().GetInts("paddings");
    if (!ctx.attr().Has("pads") && !ctx.attr().Has("paddings")) return ctx.Error("attribute 'pads' is required");
  } else {
    if (!ctx.has_input(1)) return ctx.Error("input 'pads' is required");
    st = KnownInts(ctx, 1, &pads) ? ArgState::kKnown : ArgState::kUnknown;
    if (ctx.has_input(2)) {
      const TensorDesc* cv = ctx.input(2);
      if (cv->dtype != DataType::kUndefined && in.dtype != DataType::kUndefined && cv->dtype != in.dtype) {
        return ctx.Error("constant_value must have the data's type");
      }
    }
  }
  if (in.shape.unknown_rank()) return Status::Ok();
  const int r = in.shape.rank();
  if (st == ArgState::kUnknown) {
    ctx.output(0).shape = UnknownDims(r);
    return Status::Ok();
  }
  auto dims = PaddedDims(in.shape.dims(), pads);
  if (!dims.ok()) return ctx.Error(dims.status().message());
  Shape out;
  for (int i = 0; i < r; ++i) {
    bool unchanged = pads[i] == 0 && pads[i + r] == 0;
    out.AddDim((*dims)[i], unchanged ? in.shape.symbol(i) : "");
    int64_t d = in.shape.dim(i);
    bool padded = pads[i] > 0 || pads[i + r] > 0;
    if (padded && d == 0 && mode != "constant") return ctx.Error("cannot " + mode + "-pad an empty dim");
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status BlockSize(const InferContext& ctx, int64_t* b) {
  if (!ctx.attr().Has("blocksize")) return ctx.Error("attribute 'blocksize' is required");
  *b = ctx.attr().GetInt("blocksize", 0);
  if (*b <= 0 || *b > (int64_t{1} << 20)) return ctx.Error("blocksize must be positive");
  return Status::Ok();
}

Status InferDepthToSpace(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, UnknownDims(4));
  int64_t b;
  GE_RETURN_IF_ERROR(BlockSize(ctx, &b));
  std::string mode = ctx.attr().GetString("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") return ctx.Error("mode must be DCR or CRD, got '" + mode + "'");
  if (in.shape.unknown_rank()) return Status::Ok();
  if (in.shape.rank() != 4) return ctx.Error("input must be 4-D, got " + in.shape.ToString());
  Shape out;
  out.AddDim(in.shape.dim(0), in.shape.symbol(0));
  int64_t c = in.shape.dim(1);
  if (c != kUnknownDim && c % (b * b) != 0) {
    return ctx.Error("channels " + std::to_string(c) + " are not divisible by blocksize^2");
  }
  out.AddDim(c == kUnknownDim ? kUnknownDim : c / (b * b));
  for (int i = 2; i < 4; ++i) out.AddDim(in.shape.dim(i) == kUnknownDim ? kUnknownDim : in.shape.dim(i) * b);
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferSpaceToDepth(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, UnknownDims(4));
  int64_t b;
  GE_RETURN_IF_ERROR(BlockSize(ctx, &b));
  if (in.shape.unknown_rank()) return Status::Ok();
  if (in.shape.rank() != 4) return ctx.Error("input must be 4-D, got " + in.shape.ToString());
  Shape out;
  out.AddDim(in.shape.dim(0), in.shape.symbol(0));
  int64_t c = in.shape.dim(1);
  out.AddDim(c == kUnknownDim ? kUnknownDim : c * b * b);
  for (int i = 2; i < 4; ++i) {
    int64_t d = in.shape.dim(i);
    if (d != kUnknownDim && d % b != 0) {
      return ctx.Error("spatial dim " + std::to_string(d) + " is not divisible by blocksize " + std::to_string(b));
    }
    out.AddDim(d == kUnknownDim ? kUnknownDim : d / b);
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

}  // namespace

void RegisterPadOps(OpRegistry* r) {
  r->Add({OpId::kPad, 1, 3, 1, 1, InferPad});
  r->Add({OpId::kDepthToSpace, 1, 1, 1, 1, InferDepthToSpace});
  r->Add({OpId::kSpaceToDepth, 1, 1, 1, 1, InferSpaceToDepth});
}

}  // namespace ge::ops::shape_family
