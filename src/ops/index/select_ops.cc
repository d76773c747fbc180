// NonZero, Compress, Unique: outputs whose length depends on the data. Their dims stay unknown until the data is
// known; Compress counts its condition when that is a known value.
#include <algorithm>

#include "ops/index/index_ops.h"

namespace ge::ops {
namespace {

using index_infer::AppendDim;

Status InferNonZero(InferContext& ctx) {
  const Shape& x = ctx.input(0)->shape;
  Shape s;
  // A scalar is treated as a 1-D tensor of one element (numpy.nonzero via atleast_1d; ONNX Runtime does the same).
  s.AddDim(x.unknown_rank() ? kUnknownDim : std::max(x.rank(), 1));
  s.AddDim(kUnknownDim);
  ctx.output(0) = TensorDesc(DataType::kInt64, s);
  return Status::Ok();
}

Status InferCompress(InferContext& ctx) {
  const TensorDesc& input = *ctx.input(0);
  const TensorDesc& cond = *ctx.input(1);
  if (cond.dtype != DataType::kBool && cond.dtype != DataType::kUndefined) {
    return ctx.Error(std::string("condition must be bool, got ") + DataTypeName(cond.dtype));
  }
  if (!cond.shape.unknown_rank() && cond.shape.rank() != 1) {
    return ctx.Error("condition must be 1-D, got shape " + cond.shape.ToString());
  }
  const bool has_axis = ctx.attr().Has("axis");
  int axis = 0;
  if (has_axis && !input.shape.unknown_rank()) {
    int64_t a = ctx.attr().GetInt("axis", 0);
    auto na = NormalizeAxis(a, input.shape.rank());
    if (!na.ok()) return ctx.Error("attribute axis " + std::to_string(a) + " is out of range for input " + input.shape.ToString());
    axis = *na;
  }
  // Elements (or slices) selected: the true entries of a known condition, each of which must index the input.
  int64_t count = kUnknownDim;
  if (const Tensor* c = ctx.input_value(1)) {
    int64_t limit = kUnknownDim;
    if (!has_axis && input.shape.IsFullyKnown()) limit = NumElements(input.shape.dims());
    if (has_axis && !input.shape.unknown_rank()) limit = input.shape.dim(axis);
    const bool* p = c->data<bool>();
    count = 0;
    for (int64_t i = 0; i < c->numel(); ++i) {
      if (!p[i]) continue;
      if (limit != kUnknownDim && i >= limit) {
        return ctx.Error("condition is true at position " + std::to_string(i) + " beyond the selected axis size " +
                         std::to_string(limit));
      }
      ++count;
    }
  }
  Shape s;
  if (!has_axis) {
    s.AddDim(count);
  } else if (input.shape.unknown_rank()) {
    s = Shape::UnknownRank();
  } else {
    for (int i = 0; i < input.shape.rank(); ++i) {
      if (i == axis) s.AddDim(count);
      else AppendDim(&s, input.shape, i);
    }
  }
  ctx.output(0) = TensorDesc(input.dtype, s);
  return Status::Ok();
}

Status InferUnique(InferContext& ctx) {
  const TensorDesc& x = *ctx.input(0);
  int64_t sorted = ctx.attr().GetInt("sorted", 1);
  if (sorted != 0 && sorted != 1) return ctx.Error("attribute sorted must be 0 or 1, got " + std::to_string(sorted));
  const bool has_axis = ctx.attr().Has("axis");
  Shape y, inverse({kUnknownDim});
  if (!has_axis) {
    y = Shape({kUnknownDim});
    if (x.shape.IsFullyKnown()) inverse = Shape({NumElements(x.shape.dims())});
  } else if (x.shape.unknown_rank()) {
    y = Shape::UnknownRank();
  } else {
    int64_t a = ctx.attr().GetInt("axis", 0);
    auto na = NormalizeAxis(a, x.shape.rank());
    if (!na.ok()) return ctx.Error("attribute axis " + std::to_string(a) + " is out of range for input " + x.shape.ToString());
    for (int i = 0; i < x.shape.rank(); ++i) {
      if (i == *na) y.AddDim(kUnknownDim);
      else AppendDim(&y, x.shape, i);
    }
    inverse = Shape();
    AppendDim(&inverse, x.shape, *na);
  }
  ctx.output(0) = TensorDesc(x.dtype, y);
  if (ctx.num_outputs() > 1) ctx.output(1) = TensorDesc(DataType::kInt64, Shape({kUnknownDim}));
  if (ctx.num_outputs() > 2) ctx.output(2) = TensorDesc(DataType::kInt64, inverse);
  if (ctx.num_outputs() > 3) ctx.output(3) = TensorDesc(DataType::kInt64, Shape({kUnknownDim}));
  return Status::Ok();
}

}  // namespace

void RegisterSelectOps(OpRegistry* r) {
  r->Add({OpId::kNonZero, 1, 1, 1, 1, InferNonZero});
  r->Add({OpId::kCompress, 2, 2, 1, 1, InferCompress});
  r->Add({OpId::kUnique, 1, 1, 1, 4, InferUnique});
}

}  // namespace ge::ops
