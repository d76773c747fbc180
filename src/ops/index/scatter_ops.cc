// Scatter (opset 9-10), ScatterElements, ScatterND: the output is a copy of data, so it has data's type and shape.
#include "ops/index/index_ops.h"

namespace ge::ops {
namespace {

using index_infer::CheckIndexDtype;
using index_infer::MergeDim;

// "reduction" arrived in opset 16 (none/add/mul); max/min in opset 18.
Status CheckReduction(const InferContext& ctx) {
  std::string red = ctx.attr().GetString("reduction", "none");
  if (red == "none") return Status::Ok();
  if (ctx.opset >= 16 && (red == "add" || red == "mul")) return Status::Ok();
  if (ctx.opset >= 18 && (red == "max" || red == "min")) return Status::Ok();
  return ctx.Error("unsupported reduction '" + red + "' at opset " + std::to_string(ctx.opset));
}

Status CheckUpdatesType(const InferContext& ctx) {
  DataType d = ctx.input(0)->dtype, u = ctx.input(2)->dtype;
  if (d != DataType::kUndefined && u != DataType::kUndefined && d != u) {
    return ctx.Error(std::string("updates type ") + DataTypeName(u) + " differs from data type " + DataTypeName(d));
  }
  return Status::Ok();
}

Status InferScatterElements(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckIndexDtype(ctx, 1, "indices"));
  GE_RETURN_IF_ERROR(CheckUpdatesType(ctx));
  GE_RETURN_IF_ERROR(CheckReduction(ctx));
  const Shape& data = ctx.input(0)->shape;
  const Shape& indices = ctx.input(1)->shape;
  const Shape& updates = ctx.input(2)->shape;
  int rank = -1;
  for (const Shape* s : {&data, &indices, &updates}) {
    if (s->unknown_rank()) continue;
    if (rank >= 0 && s->rank() != rank) return ctx.Error("data, indices and updates must have the same rank");
    rank = s->rank();
  }
  if (rank == 0) return ctx.Error("data must have rank >= 1");
  if (rank > 0) {
    int64_t axis = ctx.attr().GetInt("axis", 0);
    if (!NormalizeAxis(axis, rank).ok()) return ctx.Error("attribute axis " + std::to_string(axis) + " is out of range");
  }
  if (!indices.unknown_rank() && !updates.unknown_rank()) {
    for (int i = 0; i < indices.rank(); ++i) {
      int64_t d;
      if (!MergeDim(indices.dim(i), updates.dim(i), &d)) {
        return ctx.Error("indices shape " + indices.ToString() + " differs from updates shape " + updates.ToString());
      }
    }
  }
  ctx.output(0) = *ctx.input(0);
  return Status::Ok();
}

Status InferScatterND(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckIndexDtype(ctx, 1, "indices"));
  GE_RETURN_IF_ERROR(CheckUpdatesType(ctx));
  GE_RETURN_IF_ERROR(CheckReduction(ctx));
  const Shape& data = ctx.input(0)->shape;
  const Shape& indices = ctx.input(1)->shape;
  const Shape& updates = ctx.input(2)->shape;
  ctx.output(0) = *ctx.input(0);
  if (!data.unknown_rank() && data.rank() < 1) return ctx.Error("data must have rank >= 1");
  if (!indices.unknown_rank() && indices.rank() < 1) return ctx.Error("indices must have rank >= 1");
  if (data.unknown_rank() || indices.unknown_rank() || updates.unknown_rank()) return Status::Ok();
  const int r = data.rank(), q = indices.rank();
  const int64_t k = indices.dim(q - 1);
  if (k == kUnknownDim) return Status::Ok();
  if (k > r) return ctx.Error("indices last dim " + std::to_string(k) + " exceeds data rank " + std::to_string(r));
  Shape want;
  for (int i = 0; i < q - 1; ++i) want.AddDim(indices.dim(i));
  for (int i = static_cast<int>(k); i < r; ++i) want.AddDim(data.dim(i));
  bool ok = updates.rank() == want.rank();
  for (int i = 0; ok && i < want.rank(); ++i) {
    int64_t d;
    ok = MergeDim(updates.dim(i), want.dim(i), &d);
  }
  if (!ok) return ctx.Error("updates shape " + updates.ToString() + " must be " + want.ToString());
  return Status::Ok();
}

}  // namespace

void RegisterScatterOps(OpRegistry* r) {
  r->Add({OpId::kScatter, 3, 3, 1, 1, InferScatterElements});
  r->Add({OpId::kScatterElements, 3, 3, 1, 1, InferScatterElements});
  r->Add({OpId::kScatterND, 3, 3, 1, 1, InferScatterND});
}

}  // namespace ge::ops
