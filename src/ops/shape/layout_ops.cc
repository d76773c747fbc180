// Transpose, Concat, Split, Expand, Tile: ops that move elements between positions.
#include <algorithm>

#include "ops/shape/shape_ops_internal.h"

namespace ge::ops::shape_family {
namespace {

Status InferTranspose(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  const bool has_perm = ctx.attr().Has("perm");
  std::vector<int64_t> perm = ctx.attr().GetInts("perm");
  if (in.shape.unknown_rank()) {
    if (has_perm) ctx.output(0).shape = UnknownDims(static_cast<int64_t>(perm.size()));
    return Status::Ok();
  }
  const int r = in.shape.rank();
  if (!has_perm) {
    for (int i = r - 1; i >= 0; --i) perm.push_back(i);
  }
  if (static_cast<int>(perm.size()) != r) {
    return ctx.Error("perm has " + std::to_string(perm.size()) + " entries for an input of rank " +
                     std::to_string(r));
  }
  std::vector<bool> seen(r, false);
  Shape out;
  for (int64_t p : perm) {
    if (p < 0 || p >= r || seen[p]) return ctx.Error("perm " + DimsToString(perm) + " is not a permutation");
    seen[p] = true;
    out.AddDim(in.shape.dim(static_cast<int>(p)), in.shape.symbol(static_cast<int>(p)));
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferConcat(InferContext& ctx) {
  if (ctx.num_inputs() == 0) return ctx.Error("needs at least one input");
  DataType dt = DataType::kUndefined;
  int rank = -1;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    GE_RETURN_IF_ERROR(RequireTensorInput(ctx, i));
    const TensorDesc& d = *ctx.input(i);
    if (d.dtype != DataType::kUndefined) {
      if (dt != DataType::kUndefined && d.dtype != dt) {
        return ctx.Error(std::string("inputs have different types: ") + DataTypeName(dt) + " and " +
                         DataTypeName(d.dtype));
      }
      dt = d.dtype;
    }
    if (d.shape.unknown_rank()) continue;
    if (rank >= 0 && d.shape.rank() != rank) return ctx.Error("inputs have different ranks");
    rank = d.shape.rank();
  }
  ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
  // Concat-1 had an optional axis defaulting to 1; from opset 4 it is required.
  if (ctx.opset >= 4 && !ctx.attr().Has("axis")) return ctx.Error("attribute 'axis' is required");
  int64_t axis_attr = ctx.attr().GetInt("axis", 1);
  if (rank < 0) return Status::Ok();
  if (rank == 0) return ctx.Error("cannot concatenate scalars");
  auto axis_or = NormalizeAxis(axis_attr, rank);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  Shape out = UnknownDims(rank);
  int64_t sum = 0;
  bool sum_known = true;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const Shape& s = ctx.input(i)->shape;
    if (s.unknown_rank()) {
      sum_known = false;
      continue;
    }
    for (int k = 0; k < rank; ++k) {
      if (k == axis) continue;
      int64_t d = s.dim(k);
      if (d == kUnknownDim) {
        if (out.dim(k) == kUnknownDim && out.symbol(k).empty()) out.set_symbol(k, s.symbol(k));
        continue;
      }
      if (out.dim(k) != kUnknownDim && out.dim(k) != d) {
        return ctx.Error("inputs differ in dim " + std::to_string(k) + ": " + std::to_string(out.dim(k)) + " vs " +
                         std::to_string(d));
      }
      out.set_dim(k, d);
      out.set_symbol(k, "");
    }
    if (s.dim(axis) == kUnknownDim) {
      sum_known = false;
    } else {
      sum += s.dim(axis);
    }
  }
  if (sum_known) out.set_dim(axis, sum);
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferSplit(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  const int n = ctx.num_outputs();
  for (int i = 0; i < n; ++i) ctx.output(i) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::vector<int64_t> split;
  ArgState st = IntsArg(ctx, 1, "split", 13, &split);
  if (st == ArgState::kKnown && split.empty() && ctx.opset >= 13) st = ArgState::kAbsent;
  if (st == ArgState::kKnown) {
    if (static_cast<int>(split.size()) != n) {
      return ctx.Error("split has " + std::to_string(split.size()) + " entries for " + std::to_string(n) +
                       " outputs");
    }
    for (int64_t v : split)
      if (v < 0) return ctx.Error("split sizes must be non-negative");
  }
  if (in.shape.unknown_rank()) return Status::Ok();
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), in.shape.rank());
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  const int64_t dim = in.shape.dim(axis);
  std::vector<int64_t> sizes(n, kUnknownDim);
  if (st == ArgState::kKnown) {
    int64_t total = 0;
    for (int64_t v : split) {
      if (v > (int64_t{1} << 62)) return ctx.Error("split size is out of range");
      total += v;
    }
    if (dim != kUnknownDim && total != dim) {
      return ctx.Error("split sizes sum to " + std::to_string(total) + " but the axis has " + std::to_string(dim));
    }
    sizes = split;
  } else if (st == ArgState::kAbsent && dim != kUnknownDim) {
    if (dim % n != 0) {
      return ctx.Error("axis of size " + std::to_string(dim) + " cannot be split evenly into " + std::to_string(n));
    }
    sizes.assign(n, dim / n);
  }
  for (int i = 0; i < n; ++i) {
    Shape s = in.shape;
    s.set_dim(axis, sizes[i]);
    s.set_symbol(axis, "");
    ctx.output(i).shape = s;
  }
  return Status::Ok();
}

Status InferExpand(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::vector<int64_t> shape;
  if (!KnownInts(ctx, 1, &shape)) {
    int64_t n = Known1DLength(ctx, 1);
    if (n >= 0 && !in.shape.unknown_rank()) ctx.output(0).shape = UnknownDims(std::max<int64_t>(n, in.shape.rank()));
    return Status::Ok();
  }
  if (ctx.input_value(1)->rank() != 1) return ctx.Error("the shape input must be 1-D");
  for (int64_t v : shape)
    if (v < 0) return ctx.Error("shape " + DimsToString(shape) + " has a negative dim");
  auto out = BroadcastShapes(in.shape, Shape(shape));
  if (!out.ok()) return ctx.Error(out.status().message());
  ctx.output(0).shape = *out;
  return Status::Ok();
}

Status InferTile(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  if (in.shape.unknown_rank()) return Status::Ok();
  const int r = in.shape.rank();
  std::vector<int64_t> reps;
  if (!KnownInts(ctx, 1, &reps)) {
    ctx.output(0).shape = UnknownDims(r);
    return Status::Ok();
  }
  if (static_cast<int>(reps.size()) != r) {
    return ctx.Error("repeats has " + std::to_string(reps.size()) + " entries for an input of rank " +
                     std::to_string(r));
  }
  Shape out;
  for (int i = 0; i < r; ++i) {
    int64_t d = in.shape.dim(i), k = reps[i];
    if (k < 0) return ctx.Error("repeats must be non-negative");
    if (k == 1) {
      out.AddDim(d, in.shape.symbol(i));
    } else if (d == kUnknownDim) {
      out.AddDim(k == 0 ? 0 : kUnknownDim);
    } else {
      auto p = CheckedNumElements({d, k});
      if (!p.ok()) return ctx.Error("tiled dim overflows");
      out.AddDim(*p);
    }
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

}  // namespace

void RegisterLayoutOps(OpRegistry* r) {
  r->Add({OpId::kTranspose, 1, 1, 1, 1, InferTranspose});
  r->Add({OpId::kConcat, 1, kVariadic, 1, 1, InferConcat});
  r->Add({OpId::kSplit, 1, 2, 1, kVariadic, InferSplit});
  r->Add({OpId::kExpand, 2, 2, 1, 1, InferExpand});
  r->Add({OpId::kTile, 2, 2, 1, 1, InferTile});
}

}  // namespace ge::ops::shape_family
