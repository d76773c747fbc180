// Gather, GatherElements, GatherND: output dims follow the indices' shape; values never matter for the shape.
#include <algorithm>

#include "ops/index/index_ops.h"

namespace ge::ops {
namespace {

using index_infer::AppendDim;
using index_infer::CheckIndexDtype;
using index_infer::MergeDim;

// Normalizes the "axis" attribute against `rank`, naming the node on failure.
StatusOr<int> AxisAttr(const InferContext& ctx, int64_t def, int rank) {
  int64_t axis = ctx.attr().GetInt("axis", def);
  auto a = NormalizeAxis(axis, rank);
  if (!a.ok()) return ctx.Error("attribute axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return *a;
}

Status InferGather(InferContext& ctx) {
  const TensorDesc& data = *ctx.input(0);
  const TensorDesc& indices = *ctx.input(1);
  GE_RETURN_IF_ERROR(CheckIndexDtype(ctx, 1, "indices"));
  ctx.output(0) = TensorDesc(data.dtype, Shape::UnknownRank());
  if (data.shape.unknown_rank()) return Status::Ok();
  const int r = data.shape.rank();
  if (r < 1) return ctx.Error("data must have rank >= 1");
  GE_ASSIGN_OR_RETURN(int axis, AxisAttr(ctx, 0, r));
  if (indices.shape.unknown_rank()) return Status::Ok();
  Shape s;
  for (int i = 0; i < axis; ++i) AppendDim(&s, data.shape, i);
  for (int i = 0; i < indices.shape.rank(); ++i) AppendDim(&s, indices.shape, i);
  for (int i = axis + 1; i < r; ++i) AppendDim(&s, data.shape, i);
  ctx.output(0).shape = s;
  return Status::Ok();
}

Status InferGatherElements(InferContext& ctx) {
  const TensorDesc& data = *ctx.input(0);
  const TensorDesc& indices = *ctx.input(1);
  GE_RETURN_IF_ERROR(CheckIndexDtype(ctx, 1, "indices"));
  ctx.output(0) = TensorDesc(data.dtype, indices.shape);
  int rank = !data.shape.unknown_rank() ? data.shape.rank() : indices.shape.unknown_rank() ? -1 : indices.shape.rank();
  if (rank < 0) return Status::Ok();
  if (rank < 1) return ctx.Error("data must have rank >= 1");
  if (!data.shape.unknown_rank() && !indices.shape.unknown_rank() && data.shape.rank() != indices.shape.rank()) {
    return ctx.Error("indices rank " + std::to_string(indices.shape.rank()) + " differs from data rank " +
                     std::to_string(data.shape.rank()));
  }
  GE_ASSIGN_OR_RETURN(int axis, AxisAttr(ctx, 0, rank));
  (void)axis;
  return Status::Ok();
}

Status InferGatherND(InferContext& ctx) {
  const TensorDesc& data = *ctx.input(0);
  const TensorDesc& indices = *ctx.input(1);
  GE_RETURN_IF_ERROR(CheckIndexDtype(ctx, 1, "indices"));
  ctx.output(0) = TensorDesc(data.dtype, Shape::UnknownRank());
  const int64_t b = ctx.opset >= 12 ? ctx.attr().GetInt("batch_dims", 0) : 0;
  if (b < 0) return ctx.Error("batch_dims must be >= 0, got " + std::to_string(b));
  if (data.shape.unknown_rank() || indices.shape.unknown_rank()) return Status::Ok();
  const int r = data.shape.rank(), q = indices.shape.rank();
  if (r < 1 || q < 1) return ctx.Error("data and indices must have rank >= 1");
  if (b >= std::min(r, q)) {
    return ctx.Error("batch_dims " + std::to_string(b) + " must be less than the ranks of data and indices");
  }
  const int64_t k = indices.shape.dim(q - 1);
  if (k == kUnknownDim) return Status::Ok();
  if (k > r - b) {
    return ctx.Error("indices last dim " + std::to_string(k) + " exceeds data rank minus batch_dims (" +
                     std::to_string(r - b) + ")");
  }
  Shape s;
  for (int i = 0; i < b; ++i) {
    int64_t d;
    if (!MergeDim(data.shape.dim(i), indices.shape.dim(i), &d)) {
      return ctx.Error("batch dim " + std::to_string(i) + " differs between data " + data.shape.ToString() +
                       " and indices " + indices.shape.ToString());
    }
    s.AddDim(d, indices.shape.symbol(i).empty() ? data.shape.symbol(i) : indices.shape.symbol(i));
  }
  for (int i = static_cast<int>(b); i < q - 1; ++i) AppendDim(&s, indices.shape, i);
  for (int i = static_cast<int>(b + k); i < r; ++i) AppendDim(&s, data.shape, i);
  ctx.output(0).shape = s;
  return Status::Ok();
}

}  // namespace

void RegisterGatherOps(OpRegistry* r) {
  r->Add({OpId::kGather, 2, 2, 1, 1, InferGather});
  r->Add({OpId::kGatherElements, 2, 2, 1, 1, InferGatherElements});
  r->Add({OpId::kGatherND, 2, 2, 1, 1, InferGatherND});
}

}  // namespace ge::ops
