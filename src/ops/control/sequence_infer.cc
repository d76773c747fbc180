// Inference of the sequence ops: SequenceConstruct/Empty/At/Insert/Erase/Length, SplitToSequence,
// ConcatFromSequence. A sequence's desc holds the element dtype and the element shape they all share.
#include <algorithm>
#include <string>

#include "ops/control/control_ops.h"
#include "ops/infer_util.h"

namespace ge::ops::control {
namespace {

Status RequireSequence(const InferContext& ctx, int i) {
  const TensorDesc* d = ctx.input(i);
  if (d->kind != ValueKind::kSequence && d->kind != ValueKind::kUnknown) {
    return ctx.Error("input " + std::to_string(i) + " must be a sequence, got " + d->ToString());
  }
  return Status::Ok();
}

Status RequireTensor(const InferContext& ctx, int i) {
  const TensorDesc* d = ctx.input(i);
  if (d->kind != ValueKind::kTensor && d->kind != ValueKind::kUnknown) {
    return ctx.Error("input " + std::to_string(i) + " must be a tensor, got " + d->ToString());
  }
  return Status::Ok();
}

// A position input: int32 or int64 with one element (a scalar per the spec; shape [1] is accepted too).
Status RequirePosition(const InferContext& ctx, int i) {
  if (!ctx.has_input(i)) return Status::Ok();
  GE_RETURN_IF_ERROR(RequireTensor(ctx, i));
  const TensorDesc* d = ctx.input(i);
  if (d->dtype != DataType::kUndefined && d->dtype != DataType::kInt32 && d->dtype != DataType::kInt64) {
    return ctx.Error("position must be int32 or int64, got " + std::string(DataTypeName(d->dtype)));
  }
  if (!d->shape.unknown_rank() && d->shape.rank() > 1) return ctx.Error("position must be a scalar");
  return Status::Ok();
}

TensorDesc SequenceOf(DataType dt, Shape s) {
  TensorDesc d(dt, std::move(s));
  d.kind = ValueKind::kSequence;
  return d;
}

Status InferSequenceConstruct(InferContext& ctx) {
  DataType dt = DataType::kUndefined;
  Shape shape;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    GE_RETURN_IF_ERROR(RequireTensor(ctx, i));
    const TensorDesc* d = ctx.input(i);
    if (dt != DataType::kUndefined && d->dtype != DataType::kUndefined && d->dtype != dt) {
      return ctx.Error("all inputs must have one dtype: " + std::string(DataTypeName(dt)) + " and " +
                       DataTypeName(d->dtype));
    }
    if (d->dtype != DataType::kUndefined) dt = d->dtype;
    shape = i == 0 ? d->shape : MergeShapes(shape, d->shape);
  }
  ctx.output(0) = SequenceOf(dt, shape);
  return Status::Ok();
}

Status InferSequenceEmpty(InferContext& ctx) {
  const int64_t v = ctx.attr().GetInt("dtype", static_cast<int64_t>(DataType::kFloat));
  if (!IsValidDataType(static_cast<int32_t>(v))) return ctx.Error("dtype " + std::to_string(v) + " is not valid");
  ctx.output(0) = SequenceOf(static_cast<DataType>(v), Shape::UnknownRank());
  return Status::Ok();
}

Status InferSequenceAt(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireSequence(ctx, 0));
  GE_RETURN_IF_ERROR(RequirePosition(ctx, 1));
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, ctx.input(0)->shape);
  return Status::Ok();
}

Status InferSequenceInsert(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireSequence(ctx, 0));
  GE_RETURN_IF_ERROR(RequireTensor(ctx, 1));
  GE_RETURN_IF_ERROR(RequirePosition(ctx, 2));
  const TensorDesc* s = ctx.input(0);
  const TensorDesc* t = ctx.input(1);
  if (s->dtype != DataType::kUndefined && t->dtype != DataType::kUndefined && s->dtype != t->dtype) {
    return ctx.Error("cannot insert a " + std::string(DataTypeName(t->dtype)) + " tensor into a sequence of " +
                     DataTypeName(s->dtype));
  }
  ctx.output(0) = SequenceOf(s->dtype != DataType::kUndefined ? s->dtype : t->dtype, MergeShapes(s->shape, t->shape));
  return Status::Ok();
}

Status InferSequenceErase(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireSequence(ctx, 0));
  GE_RETURN_IF_ERROR(RequirePosition(ctx, 1));
  ctx.output(0) = SequenceOf(ctx.input(0)->dtype, ctx.input(0)->shape);
  return Status::Ok();
}

Status InferSequenceLength(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireSequence(ctx, 0));
  ctx.output(0) = TensorDesc(DataType::kInt64, Shape());
  return Status::Ok();
}

Status InferSplitToSequence(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensor(ctx, 0));
  const TensorDesc* in = ctx.input(0);
  const int64_t keepdims = ctx.attr().GetInt("keepdims", 1);
  if (keepdims != 0 && keepdims != 1) return ctx.Error("keepdims must be 0 or 1");
  if (ctx.has_input(1)) {
    GE_RETURN_IF_ERROR(RequireTensor(ctx, 1));
    const TensorDesc* sp = ctx.input(1);
    if (sp->dtype != DataType::kUndefined && sp->dtype != DataType::kInt32 && sp->dtype != DataType::kInt64) {
      return ctx.Error("split must be int32 or int64");
    }
    if (!sp->shape.unknown_rank() && sp->shape.rank() > 1) return ctx.Error("split must be a scalar or 1-D");
  }
  if (in->shape.unknown_rank()) {
    ctx.output(0) = SequenceOf(in->dtype, Shape::UnknownRank());
    return Status::Ok();
  }
  if (in->shape.rank() == 0) return ctx.Error("input must have rank >= 1");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), in->shape.rank());
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  const int64_t len = in->shape.dim(axis);
  Shape elem = in->shape;
  if (!ctx.has_input(1)) {
    if (keepdims == 0) {
      Shape s;
      for (int j = 0; j < elem.rank(); ++j) {
        if (j != axis) s.AddDim(elem.dim(j), elem.symbol(j));
      }
      elem = s;
    } else {
      elem.set_dim(axis, 1);
      elem.set_symbol(axis, "");
    }
  } else {
    std::vector<int64_t> split;
    int64_t piece = kUnknownDim;
    const Tensor* sv = ctx.input_value(1);
    if (sv) {
      split = sv->ToInt64Vector();
      if (sv->rank() == 0) {
        if (split[0] <= 0) return ctx.Error("split must be positive");
        // Equal pieces; the last is smaller when the length is not a multiple.
        if (len != kUnknownDim && len % split[0] == 0) piece = split[0];
      } else {
        int64_t sum = 0;
        for (int64_t v : split) {
          if (v < 0) return ctx.Error("split entries must be >= 0");
          sum += v;
        }
        if (len != kUnknownDim && sum != len) {
          return ctx.Error("split sums to " + std::to_string(sum) + " but the axis has length " + std::to_string(len));
        }
        if (!split.empty() && std::all_of(split.begin(), split.end(), [&](int64_t v) { return v == split[0]; })) {
          piece = split[0];
        }
      }
    }
    elem.set_dim(axis, piece);
    elem.set_symbol(axis, "");
  }
  ctx.output(0) = SequenceOf(in->dtype, elem);
  return Status::Ok();
}

Status InferConcatFromSequence(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireSequence(ctx, 0));
  if (!ctx.attr().Has("axis")) return ctx.Error("attribute 'axis' is required");
  const int64_t new_axis = ctx.attr().GetInt("new_axis", 0);
  if (new_axis != 0 && new_axis != 1) return ctx.Error("new_axis must be 0 or 1");
  const TensorDesc* s = ctx.input(0);
  if (s->shape.unknown_rank()) {
    ctx.output(0) = TensorDesc(s->dtype, Shape::UnknownRank());
    return Status::Ok();
  }
  const int r = s->shape.rank();
  if (r == 0 && new_axis == 0) return ctx.Error("cannot concatenate scalars without new_axis");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r + static_cast<int>(new_axis));
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  Shape out;
  for (int j = 0; j < r; ++j) {
    if (new_axis && j == axis) out.AddDim(kUnknownDim);
    out.AddDim(j == axis && !new_axis ? kUnknownDim : s->shape.dim(j), j == axis && !new_axis ? "" : s->shape.symbol(j));
  }
  if (new_axis && axis == r) out.AddDim(kUnknownDim);
  ctx.output(0) = TensorDesc(s->dtype, out);
  return Status::Ok();
}

}  // namespace

void RegisterSequenceOps(OpRegistry* r) {
  r->Add({OpId::kSequenceConstruct, 1, kVariadic, 1, 1, InferSequenceConstruct});
  r->Add({OpId::kSequenceEmpty, 0, 0, 1, 1, InferSequenceEmpty});
  r->Add({OpId::kSequenceAt, 2, 2, 1, 1, InferSequenceAt});
  r->Add({OpId::kSequenceInsert, 2, 3, 1, 1, InferSequenceInsert});
  r->Add({OpId::kSequenceErase, 1, 2, 1, 1, InferSequenceErase});
  r->Add({OpId::kSequenceLength, 1, 1, 1, 1, InferSequenceLength});
  r->Add({OpId::kSplitToSequence, 1, 2, 1, 1, InferSplitToSequence});
  r->Add({OpId::kConcatFromSequence, 1, 1, 1, 1, InferConcatFromSequence});
}

}  // namespace ge::ops::control
