// Inference of the Reduce* ops and of ArgMax / ArgMin.
#include "ops/infer_util.h"
#include "ops/reduce/reduce_common.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {
namespace {

Status CheckNumericInput(const InferContext& ctx, int i, const char* what) {
  const TensorDesc* d = ctx.input(i);
  if (d->kind != ValueKind::kTensor && d->kind != ValueKind::kUnknown) {
    return ctx.Error(std::string(what) + " must be a tensor");
  }
  if (d->dtype != DataType::kUndefined && !IsRealNumeric(d->dtype)) {
    return ctx.Error(std::string(what) + " has unsupported data type " + DataTypeName(d->dtype));
  }
  return Status::Ok();
}

Status InferReduce(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckNumericInput(ctx, 0, "input 'data'"));
  const TensorDesc& x = *ctx.input(0);
  const bool keepdims = ctx.attr().GetInt("keepdims", 1) != 0;
  const bool from_input = reduce::ReduceAxesFromInput(ctx.op_type, ctx.opset);
  std::vector<int64_t> axes;
  bool axes_known = true;
  if (from_input) {
    if (ctx.attr().Has("axes")) return ctx.Error("'axes' is an input, not an attribute, at opset " + std::to_string(ctx.opset));
    if (ctx.has_input(1)) {
      const TensorDesc& a = *ctx.input(1);
      if (a.dtype != DataType::kUndefined && a.dtype != DataType::kInt64 && a.dtype != DataType::kInt32) {
        return ctx.Error("input 'axes' must be int64, got " + std::string(DataTypeName(a.dtype)));
      }
      if (!a.shape.unknown_rank() && a.shape.rank() > 1) return ctx.Error("input 'axes' must be 1-D");
      axes_known = KnownInts(ctx, 1, &axes);
    }
  } else if (ctx.has_input(1)) {
    return ctx.Error("'axes' is an attribute, not an input, at opset " + std::to_string(ctx.opset));
  } else {
    axes = ctx.attr().GetInts("axes");
  }
  const bool noop = from_input && ctx.attr().GetInt("noop_with_empty_axes", 0) != 0;

  TensorDesc out(x.dtype, Shape::UnknownRank());
  if (noop && axes_known && axes.empty()) {
    out.shape = x.shape;
    ctx.output(0) = out;
    return Status::Ok();
  }
  if (x.shape.unknown_rank()) {
    ctx.output(0) = out;
    return Status::Ok();
  }
  const int rank = x.shape.rank();
  if (!axes_known) {
    // Which dims go is unknown: with keepdims the rank survives and dims of size 1 stay 1.
    if (keepdims) {
      Shape s;
      for (int i = 0; i < rank; ++i) s.AddDim(x.shape.dim(i) == 1 ? 1 : kUnknownDim);
      out.shape = s;
    }
    ctx.output(0) = out;
    return Status::Ok();
  }
  std::vector<bool> mask(rank, true);
  if (!axes.empty()) {
    Status st = reduce::ReduceMask(axes, rank, &mask);
    if (!st.ok()) return ctx.Error(st.message());
  }
  Shape s;
  for (int i = 0; i < rank; ++i) {
    if (!mask[i]) {
      s.AddDim(x.shape.dim(i), x.shape.symbol(i));
    } else if (keepdims) {
      s.AddDim(1);
    }
  }
  out.shape = s;
  ctx.output(0) = out;
  return Status::Ok();
}

Status InferArgMinMax(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckNumericInput(ctx, 0, "input 'data'"));
  const TensorDesc& x = *ctx.input(0);
  const bool keepdims = ctx.attr().GetInt("keepdims", 1) != 0;
  const int64_t axis = ctx.attr().GetInt("axis", 0);
  const int64_t last = ctx.attr().GetInt("select_last_index", 0);
  if (last != 0 && last != 1) return ctx.Error("select_last_index must be 0 or 1");
  TensorDesc out(DataType::kInt64, Shape::UnknownRank());
  if (!x.shape.unknown_rank()) {
    const int rank = x.shape.rank();
    auto ax = NormalizeAxis(axis, rank);
    if (!ax.ok()) return ctx.Error(ax.status().message());
    Shape s;
    for (int i = 0; i < rank; ++i) {
      if (i != *ax) {
        s.AddDim(x.shape.dim(i), x.shape.symbol(i));
      } else if (keepdims) {
        s.AddDim(1);
      }
    }
    out.shape = s;
  }
  ctx.output(0) = out;
  return Status::Ok();
}

}  // namespace

void RegisterReductionOps(OpRegistry* r) {
  for (OpId id :
       {OpId::kReduceSum, OpId::kReduceMean, OpId::kReduceMax, OpId::kReduceMin, OpId::kReduceProd, OpId::kReduceL1,
        OpId::kReduceL2, OpId::kReduceLogSum, OpId::kReduceLogSumExp, OpId::kReduceSumSquare}) {
    r->Add({id, 1, 2, 1, 1, InferReduce});
  }
  r->Add({OpId::kArgMax, 1, 1, 1, 1, InferArgMinMax});
  r->Add({OpId::kArgMin, 1, 1, 1, 1, InferArgMinMax});
}

}  // namespace ge::ops
