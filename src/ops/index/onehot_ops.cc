// OneHot and ReverseSequence.
#include <cmath>

#include "ops/index/index_ops.h"

namespace ge::ops {
namespace {

using index_infer::AppendDim;

bool IsRealNumeric(DataType dt) { return IsFloatingPoint(dt) || IsInteger(dt); }

// Depth is a one-element tensor of any numeric type; a float depth is truncated toward zero.
StatusOr<int64_t> OneHotDepth(const InferContext& ctx, const Tensor& t) {
  if (t.numel() != 1) return ctx.Error("depth must hold exactly one element, got shape " + DimsToString(t.dims()));
  double d = t.GetAsDouble(0);
  if (!std::isfinite(d) || d < 1 || d > 9.0e15) return ctx.Error("depth must be a positive number, got " + t.DebugString());
  return static_cast<int64_t>(d);
}

Status InferOneHot(InferContext& ctx) {
  const TensorDesc& indices = *ctx.input(0);
  const TensorDesc& depth = *ctx.input(1);
  const TensorDesc& values = *ctx.input(2);
  for (int i = 0; i < 2; ++i) {
    DataType dt = ctx.input(i)->dtype;
    if (dt != DataType::kUndefined && !IsRealNumeric(dt)) {
      return ctx.Error(std::string(i == 0 ? "indices" : "depth") + " must be numeric, got " + DataTypeName(dt));
    }
  }
  if (depth.shape.IsFullyKnown() && NumElements(depth.shape.dims()) != 1) {
    return ctx.Error("depth must be a scalar or a one-element tensor, got " + depth.shape.ToString());
  }
  if (!values.shape.unknown_rank() && values.shape.rank() != 1) {
    return ctx.Error("values must be a 1-D tensor [off_value, on_value], got " + values.shape.ToString());
  }
  if (values.shape.IsFullyKnown() && values.shape.dim(0) != 2) {
    return ctx.Error("values must hold 2 elements [off_value, on_value], got " + values.shape.ToString());
  }
  int64_t depth_value = kUnknownDim;
  if (const Tensor* t = ctx.input_value(1)) {
    GE_ASSIGN_OR_RETURN(depth_value, OneHotDepth(ctx, *t));
  }
  ctx.output(0) = TensorDesc(values.dtype, Shape::UnknownRank());
  if (indices.shape.unknown_rank()) return Status::Ok();
  const int out_rank = indices.shape.rank() + 1;
  int64_t a = ctx.attr().GetInt("axis", -1);
  auto axis = NormalizeAxis(a, out_rank);
  if (!axis.ok()) return ctx.Error("attribute axis " + std::to_string(a) + " is out of range for output rank " + std::to_string(out_rank));
  Shape s;
  for (int i = 0, j = 0; i < out_rank; ++i) {
    if (i == *axis) s.AddDim(depth_value);
    else AppendDim(&s, indices.shape, j++);
  }
  ctx.output(0).shape = s;
  return Status::Ok();
}

Status InferReverseSequence(InferContext& ctx) {
  const TensorDesc& input = *ctx.input(0);
  const TensorDesc& lens = *ctx.input(1);
  int64_t batch_axis = ctx.attr().GetInt("batch_axis", 1);
  int64_t time_axis = ctx.attr().GetInt("time_axis", 0);
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) || batch_axis == time_axis) {
    return ctx.Error("batch_axis and time_axis must be 0 and 1 in some order, got " + std::to_string(batch_axis) +
                     " and " + std::to_string(time_axis));
  }
  GE_RETURN_IF_ERROR(index_infer::CheckIndexDtype(ctx, 1, "sequence_lens"));
  if (!input.shape.unknown_rank() && input.shape.rank() < 2) {
    return ctx.Error("input must have rank >= 2, got " + input.shape.ToString());
  }
  if (!lens.shape.unknown_rank()) {
    if (lens.shape.rank() != 1) return ctx.Error("sequence_lens must be 1-D, got " + lens.shape.ToString());
    int64_t d;
    if (!input.shape.unknown_rank() &&
        !index_infer::MergeDim(lens.shape.dim(0), input.shape.dim(static_cast<int>(batch_axis)), &d)) {
      return ctx.Error("sequence_lens length " + lens.shape.ToString() + " differs from the batch size of input " +
                       input.shape.ToString());
    }
  }
  ctx.output(0) = input;
  return Status::Ok();
}

}  // namespace

void RegisterOneHotOps(OpRegistry* r) {
  r->Add({OpId::kOneHot, 3, 3, 1, 1, InferOneHot});
  r->Add({OpId::kReverseSequence, 2, 2, 1, 1, InferReverseSequence});
}

}  // namespace ge::ops
