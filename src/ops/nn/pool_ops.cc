// MaxPool, AveragePool, LpPool, their Global* forms, MaxUnpool: shape and dtype inference.
#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"
#include "ops/nn/window_util.h"

namespace ge::ops::nn {
namespace {

using ge::nn::ParseWindow;
using ge::nn::Window;
using ge::nn::WindowOutputDim;

Status InferPoolShape(InferContext& ctx, DataType out_dt) {
  const TensorDesc& x = *ctx.input(0);
  if (x.shape.unknown_rank()) {
    for (int i = 0; i < ctx.num_outputs(); ++i) ctx.output(i) = TensorDesc(out_dt, Shape::UnknownRank());
    if (ctx.num_outputs() > 1) ctx.output(1).dtype = DataType::kInt64;
    return Status::Ok();
  }
  const int r = x.shape.rank();
  if (r < 3) return ctx.Error("X must have rank >= 3 (N, C, spatial...), got " + x.shape.ToString());
  Window win;
  Status st = ParseWindow(ctx.attr(), r - 2, nullptr, true, &win);
  if (!st.ok()) return ctx.Error(st.message());
  Shape out;
  out.AddDim(x.shape.dim(0), x.shape.symbol(0));
  out.AddDim(x.shape.dim(1), x.shape.symbol(1));
  for (int i = 0; i < r - 2; ++i) {
    auto d = WindowOutputDim(&win, i, x.shape.dim(i + 2));
    if (!d.ok()) return ctx.Error(d.status().message());
    out.AddDim(*d);
  }
  ctx.output(0) = TensorDesc(out_dt, out);
  if (ctx.num_outputs() > 1) ctx.output(1) = TensorDesc(DataType::kInt64, out);
  return Status::Ok();
}

Status InferMaxPool(InferContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("X is required");
  DataType dt = ctx.input(0)->dtype;
  if (dt != DataType::kUndefined && !IsFloatingPoint(dt) && dt != DataType::kInt8 && dt != DataType::kUint8) {
    return ctx.Error(std::string("X must be a float, int8 or uint8 tensor, got ") + DataTypeName(dt));
  }
  int64_t so = ctx.attr().GetInt("storage_order", 0);
  if (so != 0 && so != 1) return ctx.Error("storage_order must be 0 or 1");
  return InferPoolShape(ctx, dt);
}

Status InferAveragePool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  int64_t cip = ctx.attr().GetInt("count_include_pad", 0);
  if (cip != 0 && cip != 1) return ctx.Error("count_include_pad must be 0 or 1");
  return InferPoolShape(ctx, ctx.input(0)->dtype);
}

Status InferLpPool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  if (ctx.attr().GetInt("p", 2) < 1) return ctx.Error("p must be >= 1");
  return InferPoolShape(ctx, ctx.input(0)->dtype);
}

Status InferGlobalPool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  if (ctx.op_type == "GlobalLpPool" && ctx.attr().GetInt("p", 2) < 1) return ctx.Error("p must be >= 1");
  const TensorDesc& x = *ctx.input(0);
  if (x.shape.unknown_rank()) {
    ctx.output(0) = TensorDesc(x.dtype, Shape::UnknownRank());
    return Status::Ok();
  }
  if (x.shape.rank() < 3) return ctx.Error("X must have rank >= 3 (N, C, spatial...), got " + x.shape.ToString());
  Shape out;
  out.AddDim(x.shape.dim(0), x.shape.symbol(0));
  out.AddDim(x.shape.dim(1), x.shape.symbol(1));
  for (int i = 2; i < x.shape.rank(); ++i) out.AddDim(1);
  ctx.output(0) = TensorDesc(x.dtype, out);
  return Status::Ok();
}

Status InferMaxUnpool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  if (!ctx.has_input(1)) return ctx.Error("I is required");
  if (ctx.input(1)->dtype != DataType::kInt64 && ctx.input(1)->dtype != DataType::kUndefined) {
    return ctx.Error("I must be int64");
  }
  const TensorDesc& x = *ctx.input(0);
  DataType dt = x.dtype;
  if (ctx.has_input(2)) {
    std::vector<int64_t> os;
    if (KnownInts(ctx, 2, &os)) {
      if (!x.shape.unknown_rank() && static_cast<int>(os.size()) != x.shape.rank()) {
        return ctx.Error("output_shape has " + std::to_string(os.size()) + " values, expected " +
                         std::to_string(x.shape.rank()));
      }
      for (int64_t v : os)
        if (v < 0) return ctx.Error("output_shape values must be non-negative");
      ctx.output(0) = TensorDesc(dt, Shape(os));
      return Status::Ok();
    }
    const Shape& ss = ctx.input(2)->shape;
    if (!ss.unknown_rank() && ss.rank() == 1 && ss.dim(0) != kUnknownDim) {
      ctx.output(0) = TensorDesc(dt, Shape(Dims(ss.dim(0), kUnknownDim)));
    } else {
      ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
    }
    return Status::Ok();
  }
  if (x.shape.unknown_rank()) {
    ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
    return Status::Ok();
  }
  const int r = x.shape.rank();
  if (r < 3) return ctx.Error("X must have rank >= 3, got " + x.shape.ToString());
  Window win;
  Status st = ParseWindow(ctx.attr(), r - 2, nullptr, true, &win);
  if (!st.ok()) return ctx.Error(st.message());
  Shape out;
  out.AddDim(x.shape.dim(0), x.shape.symbol(0));
  out.AddDim(x.shape.dim(1), x.shape.symbol(1));
  for (int i = 0; i < r - 2; ++i) {
    int64_t in = x.shape.dim(i + 2);
    if (in == kUnknownDim) {
      out.AddDim(kUnknownDim);
      continue;
    }
    int64_t o = (in - 1) * win.strides[i] + win.kernel[i] - win.pads[i] - win.pads[i + r - 2];
    if (o < 0) return ctx.Error("MaxUnpool output size would be negative");
    out.AddDim(o);
  }
  ctx.output(0) = TensorDesc(dt, out);
  return Status::Ok();
}

}  // namespace

void RegisterPoolOps(OpRegistry* r) {
  r->Add({OpId::kMaxPool, 1, 1, 1, 2, InferMaxPool});
  r->Add({OpId::kAveragePool, 1, 1, 1, 1, InferAveragePool});
  r->Add({OpId::kLpPool, 1, 1, 1, 1, InferLpPool});
  r->Add({OpId::kGlobalAveragePool, 1, 1, 1, 1, InferGlobalPool});
  r->Add({OpId::kGlobalMaxPool, 1, 1, 1, 1, InferGlobalPool});
  r->Add({OpId::kGlobalLpPool, 1, 1, 1, 1, InferGlobalPool});
  r->Add({OpId::kMaxUnpool, 2, 3, 1, 1, InferMaxUnpool});
}

}  // namespace ge::ops::nn
