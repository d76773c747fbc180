// Inference of Softmax, LogSoftmax, Hardmax and CumSum.
#include "ops/infer_util.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {
namespace {

// Before opset 13 the input is coerced to 2-D at `axis` (default 1); from opset 13 the op works along `axis`
// (default -1). Either way the output has the input's shape and type.
Status InferSoftmaxFamily(InferContext& ctx) {
  const TensorDesc& x = *ctx.input(0);
  if (x.dtype != DataType::kUndefined && !IsFloatingPoint(x.dtype)) {
    return ctx.Error("input must be a floating-point tensor, got " + std::string(DataTypeName(x.dtype)));
  }
  const int64_t axis = ctx.attr().GetInt("axis", ctx.opset < 13 ? 1 : -1);
  if (!x.shape.unknown_rank()) {
    const int rank = x.shape.rank();
    // Opset < 13 accepts axis == rank (an empty trailing block); a scalar has no axis to work along.
    const bool ok = ctx.opset < 13 ? (axis >= -rank && axis <= rank) : (axis >= -rank && axis < rank);
    if (!ok || (ctx.opset >= 13 && rank == 0)) {
      return ctx.Error("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    }
  }
  ctx.output(0) = TensorDesc(x.dtype, x.shape);
  return Status::Ok();
}

Status InferCumSum(InferContext& ctx) {
  const TensorDesc& x = *ctx.input(0);
  if (x.dtype != DataType::kUndefined && !IsRealNumeric(x.dtype)) {
    return ctx.Error("input 'x' has unsupported data type " + std::string(DataTypeName(x.dtype)));
  }
  const TensorDesc& a = *ctx.input(1);
  if (a.dtype != DataType::kUndefined && a.dtype != DataType::kInt32 && a.dtype != DataType::kInt64) {
    return ctx.Error("input 'axis' must be int32 or int64, got " + std::string(DataTypeName(a.dtype)));
  }
  if (!a.shape.unknown_rank() && a.shape.rank() > 1) return ctx.Error("input 'axis' must be a scalar");
  std::vector<int64_t> axis;
  if (KnownInts(ctx, 1, &axis)) {
    if (axis.size() != 1) return ctx.Error("input 'axis' must hold one value");
    if (!x.shape.unknown_rank()) {
      auto ax = NormalizeAxis(axis[0], x.shape.rank());
      if (!ax.ok()) return ctx.Error(ax.status().message());
    }
  }
  ctx.output(0) = TensorDesc(x.dtype, x.shape);
  return Status::Ok();
}

}  // namespace

void RegisterSoftmaxOps(OpRegistry* r) {
  r->Add({OpId::kSoftmax, 1, 1, 1, 1, InferSoftmaxFamily});
  r->Add({OpId::kLogSoftmax, 1, 1, 1, 1, InferSoftmaxFamily});
  r->Add({OpId::kHardmax, 1, 1, 1, 1, InferSoftmaxFamily});
  r->Add({OpId::kCumSum, 2, 2, 1, 1, InferCumSum});
}

}  // namespace ge::ops
