// Reshape, Shape, Size, Flatten, Squeeze, Unsqueeze, Identity: ops that change how dims are described but not the
// order of elements.
#include <algorithm>

#include "ops/shape/shape_ops_internal.h"

namespace ge::ops::shape_family {
namespace {

// Product of dims [from, to): known when every dim is; a single unknown dim (times 1s) keeps its symbol.
void DimProduct(const Shape& s, int from, int to, int64_t* dim, std::string* symbol) {
  int64_t prod = 1;
  int unknown = 0;
  std::string sym;
  for (int i = from; i < to; ++i) {
    if (s.dim(i) == kUnknownDim) {
      ++unknown;
      sym = s.symbol(i);
    } else if (prod != 0 && s.dim(i) > 0 && prod > INT64_MAX / s.dim(i)) {
      unknown = 2;  // overflow: leave unknown rather than wrap
    } else {
      prod *= s.dim(i);
    }
  }
  symbol->clear();
  if (unknown == 0) {
    *dim = prod;
  } else if (unknown == 1 && prod == 1) {
    *dim = kUnknownDim;
    *symbol = sym;
  } else {
    *dim = prod == 0 ? 0 : kUnknownDim;
  }
}

Status InferReshape(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  const bool allowzero = ctx.opset >= 14 && ctx.attr().GetInt("allowzero", 0) != 0;
  std::vector<int64_t> target;
  ArgState st = IntsArg(ctx, 1, "shape", 5, &target);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  if (st == ArgState::kAbsent) return ctx.Error("the target shape is missing");
  if (st == ArgState::kUnknown) {
    int64_t n = Known1DLength(ctx, 1);
    if (n >= 0) ctx.output(0).shape = UnknownDims(n);
    return Status::Ok();
  }
  const Tensor* sv = ctx.input_value(1);
  if (sv && sv->rank() != 1) return ctx.Error("the shape input must be 1-D");
  int neg = -1;
  bool has_zero = false;
  Shape out;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t v = target[i];
    if (v < -1) return ctx.Error("invalid target dim " + std::to_string(v));
    if (v == -1) {
      if (neg >= 0) return ctx.Error("at most one target dim may be -1");
      neg = static_cast<int>(i);
      out.AddDim(kUnknownDim);
    } else if (v == 0 && !allowzero) {
      has_zero = true;
      if (in.shape.unknown_rank()) {
        out.AddDim(kUnknownDim);
      } else if (static_cast<int>(i) >= in.shape.rank()) {
        return ctx.Error("target dim " + std::to_string(i) + " is 0 (copy) but the input has rank " +
                         std::to_string(in.shape.rank()));
      } else {
        out.AddDim(in.shape.dim(i), in.shape.symbol(i));
      }
    } else {
      if (v == 0) has_zero = true;
      out.AddDim(v);
    }
  }
  if (allowzero && has_zero && neg >= 0) return ctx.Error("allowzero=1 forbids 0 and -1 in the same shape");
  if (!in.shape.unknown_rank()) {
    // Dims copied by a 0 entry appear on both sides and cancel.
    const int rank = in.shape.rank();
    bool in_known = true;
    int64_t in_prod = 1, out_prod = 1;
    bool out_known = true;
    for (int i = 0; i < rank; ++i) {
      bool copied = !allowzero && i < static_cast<int>(target.size()) && target[i] == 0;
      if (copied) continue;
      if (in.shape.dim(i) == kUnknownDim) {
        in_known = false;
      } else {
        auto p = CheckedNumElements({in_prod, in.shape.dim(i)});
        if (!p.ok()) return ctx.Error("input element count overflows");
        in_prod = *p;
      }
    }
    for (int i = 0; i < out.rank(); ++i) {
      bool copied = !allowzero && target[i] == 0;
      if (copied || i == neg) continue;
      if (out.dim(i) == kUnknownDim) {
        out_known = false;
        continue;
      }
      auto p = CheckedNumElements({out_prod, out.dim(i)});
      if (!p.ok()) return ctx.Error("target element count overflows");
      out_prod = *p;
    }
    if (in_known && out_known) {
      if (neg >= 0) {
        if (out_prod == 0) {
          if (in_prod != 0) return ctx.Error("cannot infer the -1 dim: other target dims have 0 elements");
          return ctx.Error("the -1 dim is ambiguous when the target has a 0 dim");
        }
        if (in_prod % out_prod != 0) {
          return ctx.Error("cannot reshape " + in.shape.ToString() + " to " + DimsToString(target));
        }
        out.set_dim(neg, in_prod / out_prod);
      } else if (in_prod != out_prod) {
        return ctx.Error("cannot reshape " + in.shape.ToString() + " to " + out.ToString() +
                         ": element counts differ");
      }
    }
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferShapeOp(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const Shape& s = ctx.input(0)->shape;
  ctx.output(0) = TensorDesc(DataType::kInt64, UnknownDims(1));
  if (s.unknown_rank()) return Status::Ok();
  int64_t r = s.rank();
  int64_t start = 0, end = r;
  if (ctx.opset >= 15) {
    start = ctx.attr().GetInt("start", 0);
    end = ctx.attr().GetInt("end", r);
  }
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  ctx.output(0).shape = Shape({std::max<int64_t>(end - start, 0)});
  return Status::Ok();
}

Status InferSize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  ctx.output(0) = TensorDesc(DataType::kInt64, Shape());
  return Status::Ok();
}

Status InferFlatten(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, UnknownDims(2));
  int64_t axis = ctx.attr().GetInt("axis", 1);
  if (in.shape.unknown_rank()) return Status::Ok();
  int r = in.shape.rank();
  if (axis < -r || axis > r) {
    return ctx.Error("axis " + std::to_string(axis) + " is out of range [-" + std::to_string(r) + ", " +
                     std::to_string(r) + "]");
  }
  if (axis < 0) axis += r;
  int64_t d0, d1;
  std::string s0, s1;
  DimProduct(in.shape, 0, static_cast<int>(axis), &d0, &s0);
  DimProduct(in.shape, static_cast<int>(axis), r, &d1, &s1);
  Shape out;
  out.AddDim(d0, s0);
  out.AddDim(d1, s1);
  ctx.output(0).shape = out;
  return Status::Ok();
}

// Normalizes axes against `rank`, rejecting out-of-range and repeated entries.
Status NormalizeAxes(const InferContext& ctx, std::vector<int64_t>* axes, int rank) {
  std::vector<bool> seen(rank, false);
  for (int64_t& a : *axes) {
    if (a < -rank || a >= rank) {
      return ctx.Error("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    }
    if (a < 0) a += rank;
    if (seen[a]) return ctx.Error("axis " + std::to_string(a) + " is repeated");
    seen[a] = true;
  }
  return Status::Ok();
}

Status InferSqueeze(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::vector<int64_t> axes;
  ArgState st = IntsArg(ctx, 1, "axes", 13, &axes);
  // An empty axes list squeezes every 1 dim, as onnxruntime does.
  if (st == ArgState::kKnown && axes.empty()) st = ArgState::kAbsent;
  if (st == ArgState::kUnknown) {
    int64_t n = Known1DLength(ctx, 1);
    if (n >= 0 && !in.shape.unknown_rank()) {
      if (n > in.shape.rank()) return ctx.Error("more axes than input dims");
      ctx.output(0).shape = UnknownDims(in.shape.rank() - n);
    }
    return Status::Ok();
  }
  if (in.shape.unknown_rank()) return Status::Ok();
  const int r = in.shape.rank();
  std::vector<bool> drop(r, false);
  if (st == ArgState::kAbsent) {
    for (int i = 0; i < r; ++i) {
      if (in.shape.dim(i) == kUnknownDim) return Status::Ok();  // cannot tell which dims are 1
      drop[i] = in.shape.dim(i) == 1;
    }
  } else {
    GE_RETURN_IF_ERROR(NormalizeAxes(ctx, &axes, r));
    for (int64_t a : axes) {
      int64_t d = in.shape.dim(static_cast<int>(a));
      if (d != 1 && d != kUnknownDim) {
        return ctx.Error("cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(d));
      }
      drop[a] = true;
    }
  }
  Shape out;
  for (int i = 0; i < r; ++i)
    if (!drop[i]) out.AddDim(in.shape.dim(i), in.shape.symbol(i));
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferUnsqueeze(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 1));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::vector<int64_t> axes;
  ArgState st = IntsArg(ctx, 1, "axes", 13, &axes);
  if (st == ArgState::kAbsent) return ctx.Error("axes are required");
  if (st == ArgState::kUnknown) {
    int64_t n = Known1DLength(ctx, 1);
    if (n >= 0 && !in.shape.unknown_rank()) ctx.output(0).shape = UnknownDims(in.shape.rank() + n);
    return Status::Ok();
  }
  if (in.shape.unknown_rank()) return Status::Ok();
  const int out_rank = in.shape.rank() + static_cast<int>(axes.size());
  GE_RETURN_IF_ERROR(NormalizeAxes(ctx, &axes, out_rank));
  std::vector<bool> inserted(out_rank, false);
  for (int64_t a : axes) inserted[a] = true;
  Shape out;
  int j = 0;
  for (int i = 0; i < out_rank; ++i) {
    if (inserted[i]) {
      out.AddDim(1);
    } else {
      out.AddDim(in.shape.dim(j), in.shape.symbol(j));
      ++j;
    }
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

Status InferIdentity(InferContext& ctx) {
  ctx.output(0) = *ctx.input(0);
  return Status::Ok();
}

}  // namespace

void RegisterReshapeOps(OpRegistry* r) {
  r->Add({OpId::kReshape, 1, 2, 1, 1, InferReshape});
  r->Add({OpId::kShape, 1, 1, 1, 1, InferShapeOp});
  r->Add({OpId::kSize, 1, 1, 1, 1, InferSize});
  r->Add({OpId::kFlatten, 1, 1, 1, 1, InferFlatten});
  r->Add({OpId::kSqueeze, 1, 2, 1, 1, InferSqueeze});
  r->Add({OpId::kUnsqueeze, 1, 2, 1, 1, InferUnsqueeze});
  r->Add({OpId::kIdentity, 1, 1, 1, 1, InferIdentity});
}

}  // namespace ge::ops::shape_family
