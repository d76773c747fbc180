#include "ops/infer_util.h"

#include <algorithm>

namespace ge::ops {

StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return Shape::UnknownRank();
  int rank = std::max(a.rank(), b.rank());
  Shape out;
  for (int i = 0; i < rank; ++i) {
    int ia = i - (rank - a.rank()), ib = i - (rank - b.rank());
    int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    std::string sa = ia >= 0 ? a.symbol(ia) : "", sb = ib >= 0 ? b.symbol(ib) : "";
    if (da == 1) {
      out.AddDim(db, sb);
    } else if (db == 1) {
      out.AddDim(da, sa);
    } else if (da == kUnknownDim || db == kUnknownDim) {
      int64_t d = da == kUnknownDim ? db : da;
      out.AddDim(d, d == kUnknownDim ? (sa.empty() ? sb : sa) : "");
    } else if (da == db) {
      out.AddDim(da);
    } else {
      return InvalidArgument("shapes " + a.ToString() + " and " + b.ToString() + " cannot be broadcast");
    }
  }
  return out;
}

StatusOr<Shape> BroadcastInputs(const InferContext& ctx) {
  Shape out;
  bool first = true;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    if (first) {
      out = ctx.input(i)->shape;
      first = false;
      continue;
    }
    auto s = BroadcastShapes(out, ctx.input(i)->shape);
    if (!s.ok()) return ctx.Error(s.status().message());
    out = *s;
  }
  return out;
}

StatusOr<int> NormalizeAxis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    return OutOfRange("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Status PassThrough(InferContext& ctx, int input, int output) {
  if (!ctx.has_input(input)) return ctx.Error("input " + std::to_string(input) + " is missing");
  ctx.output(output) = *ctx.input(input);
  return Status::Ok();
}

bool KnownInts(const InferContext& ctx, int input, std::vector<int64_t>* out) {
  const Tensor* t = ctx.input_value(input);
  if (!t) return false;
  *out = t->ToInt64Vector();
  return true;
}

Status AddConcatChannels(const InferContext& ctx, int i, const Shape& x, const Shape& first, int64_t* channels) {
  for (int d = 0; d < first.rank(); ++d) {
    if (d != 1 && x.dim(d) != first.dim(d)) {
      return ctx.Error("input " + std::to_string(i) + " " + x.ToString() + " differs from X1 " + first.ToString() +
                       " outside the channel axis");
    }
  }
  if (x.dim(1) == kUnknownDim || *channels == kUnknownDim) {
    *channels = kUnknownDim;
  } else {
    *channels += x.dim(1);
  }
  return Status::Ok();
}

Status InferSameAsInput0(InferContext& ctx) {
  for (int i = 0; i < ctx.num_outputs(); ++i) GE_RETURN_IF_ERROR(PassThrough(ctx, 0, i));
  return Status::Ok();
}

Status InferBroadcast(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(Shape s, BroadcastInputs(ctx));
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, s);
  return Status::Ok();
}

Status InferBroadcastBool(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(Shape s, BroadcastInputs(ctx));
  ctx.output(0) = TensorDesc(DataType::kBool, s);
  return Status::Ok();
}

}  // namespace ge::ops
