// Inference of TopK (k an attribute before opset 10, an input from opset 10; largest/sorted from opset 11).
#include "ops/infer_util.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {
namespace {

Status InferTopK(InferContext& ctx) {
  const TensorDesc& x = *ctx.input(0);
  if (x.dtype != DataType::kUndefined && !IsRealNumeric(x.dtype)) {
    return ctx.Error("input 'X' has unsupported data type " + std::string(DataTypeName(x.dtype)));
  }
  int64_t k = kUnknownDim;
  if (ctx.opset < 10) {
    if (ctx.has_input(1)) return ctx.Error("'k' is an attribute, not an input, before opset 10");
    if (!ctx.attr().Has("k")) return ctx.Error("attribute 'k' is required");
    k = ctx.attr().GetInt("k", 0);
  } else {
    if (!ctx.has_input(1)) return ctx.Error("input 'K' is required from opset 10");
    const TensorDesc& kd = *ctx.input(1);
    if (kd.dtype != DataType::kUndefined && kd.dtype != DataType::kInt64 && kd.dtype != DataType::kInt32) {
      return ctx.Error("input 'K' must be int64, got " + std::string(DataTypeName(kd.dtype)));
    }
    std::vector<int64_t> kv;
    if (KnownInts(ctx, 1, &kv)) {
      if (kv.size() != 1) return ctx.Error("input 'K' must hold exactly one value");
      k = kv[0];
    }
  }
  if (k != kUnknownDim && k < 0) return ctx.Error("k must be non-negative, got " + std::to_string(k));
  const int64_t axis = ctx.attr().GetInt("axis", -1);
  Shape s = Shape::UnknownRank();
  if (!x.shape.unknown_rank()) {
    auto ax = NormalizeAxis(axis, x.shape.rank());
    if (!ax.ok()) return ctx.Error(ax.status().message());
    const int64_t n = x.shape.dim(*ax);
    if (k != kUnknownDim && n != kUnknownDim && k > n) {
      return ctx.Error("k = " + std::to_string(k) + " is larger than the axis dimension " + std::to_string(n));
    }
    s = x.shape;
    s.set_dim(*ax, k);
    s.set_symbol(*ax, "");
  }
  ctx.output(0) = TensorDesc(x.dtype, s);
  if (ctx.num_outputs() > 1) ctx.output(1) = TensorDesc(DataType::kInt64, s);
  return Status::Ok();
}

}  // namespace

void RegisterTopKOps(OpRegistry* r) { r->Add({OpId::kTopK, 1, 2, 1, 2, InferTopK}); }

}  // namespace ge::ops
