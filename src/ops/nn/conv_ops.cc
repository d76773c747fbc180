// Conv, ConvTranspose, ConvInteger, QLinearConv: shape and dtype inference.
#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"
#include "ops/nn/window_util.h"

namespace ge::ops::nn {
namespace {

using ge::nn::ParseTransposeExtras;
using ge::nn::ParseWindow;
using ge::nn::TransposeExtras;
using ge::nn::TransposeOutputDim;
using ge::nn::Window;
using ge::nn::WindowOutputDim;

// Rank of the conv (N, C, spatial...) from x or w; -1 when neither is known.
StatusOr<int> ConvRank(const InferContext& ctx, const TensorDesc& x, const TensorDesc& w) {
  int r = -1;
  if (!x.shape.unknown_rank()) r = x.shape.rank();
  if (!w.shape.unknown_rank()) {
    if (r >= 0 && w.shape.rank() != r) {
      return ctx.Error("X " + x.shape.ToString() + " and W " + w.shape.ToString() + " must have the same rank");
    }
    r = w.shape.rank();
  }
  if (r >= 0 && r < 3) return ctx.Error("X must have rank >= 3 (N, C, spatial...), got rank " + std::to_string(r));
  return r;
}

Status CheckBias(const InferContext& ctx, int bi, int64_t m) {
  if (bi < 0 || !ctx.has_input(bi)) return Status::Ok();
  const Shape& b = ctx.input(bi)->shape;
  if (b.unknown_rank()) return Status::Ok();
  if (b.rank() != 1) return ctx.Error("bias must be 1-D, got " + b.ToString());
  if (m != kUnknownDim && b.dim(0) != kUnknownDim && b.dim(0) != m) {
    return ctx.Error("bias has " + std::to_string(b.dim(0)) + " elements, expected " + std::to_string(m));
  }
  return Status::Ok();
}

// Forward convolution output shape: [N, M, out spatial...].
Status InferConvLike(InferContext& ctx, int xi, int wi, int bi, DataType out_dt) {
  if (!ctx.has_input(xi) || !ctx.has_input(wi)) return ctx.Error("X and W are required");
  const TensorDesc& x = *ctx.input(xi);
  const TensorDesc& w = *ctx.input(wi);
  int64_t group = ctx.attr().GetInt("group", 1);
  if (group < 1) return ctx.Error("group must be >= 1");
  GE_ASSIGN_OR_RETURN(int r, ConvRank(ctx, x, w));
  if (r < 0) {
    ctx.output(0) = TensorDesc(out_dt, Shape::UnknownRank());
    return Status::Ok();
  }
  const int nsp = r - 2;
  std::vector<int64_t> wk(nsp, kUnknownDim);
  if (!w.shape.unknown_rank())
    for (int i = 0; i < nsp; ++i) wk[i] = w.shape.dim(i + 2);
  Window win;
  Status st = ParseWindow(ctx.attr(), nsp, &wk, false, &win);
  if (!st.ok()) return ctx.Error(st.message());
  for (int i = 0; i < nsp; ++i) {
    if (wk[i] != kUnknownDim && win.kernel[i] != wk[i]) {
      return ctx.Error("kernel_shape does not match the weight shape " + w.shape.ToString());
    }
  }
  int64_t m = w.shape.unknown_rank() ? kUnknownDim : w.shape.dim(0);
  if (m != kUnknownDim && m % group != 0) {
    return ctx.Error("output channels " + std::to_string(m) + " are not divisible by group " + std::to_string(group));
  }
  if (!x.shape.unknown_rank() && !w.shape.unknown_rank()) {
    int64_t c = x.shape.dim(1), wc = w.shape.dim(1);
    if (c != kUnknownDim && wc != kUnknownDim && c != wc * group) {
      return ctx.Error("input channels " + std::to_string(c) + " != W channels " + std::to_string(wc) + " * group " +
                       std::to_string(group));
    }
  }
  GE_RETURN_IF_ERROR(CheckBias(ctx, bi, m));
  Shape out;
  if (x.shape.unknown_rank()) {
    out.AddDim(kUnknownDim);
  } else {
    out.AddDim(x.shape.dim(0), x.shape.symbol(0));
  }
  out.AddDim(m);
  for (int i = 0; i < nsp; ++i) {
    int64_t in = x.shape.unknown_rank() ? kUnknownDim : x.shape.dim(i + 2);
    auto d = WindowOutputDim(&win, i, in);
    if (!d.ok()) return ctx.Error(d.status().message());
    out.AddDim(*d);
  }
  ctx.output(0) = TensorDesc(out_dt, out);
  return Status::Ok();
}

}  // namespace

Status InferConv(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "W"));
  return InferConvLike(ctx, 0, 1, 2, ctx.input(0)->dtype);
}

namespace {

Status RequireInt8(const InferContext& ctx, int i, const char* what) {
  if (!ctx.has_input(i)) return Status::Ok();
  DataType dt = ctx.input(i)->dtype;
  if (dt != DataType::kUint8 && dt != DataType::kInt8 && dt != DataType::kUndefined) {
    return ctx.Error(std::string(what) + " must be uint8 or int8, got " + DataTypeName(dt));
  }
  return Status::Ok();
}

Status InferConvInteger(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 0, "x"));
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 1, "w"));
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 2, "x_zero_point"));
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 3, "w_zero_point"));
  return InferConvLike(ctx, 0, 1, -1, DataType::kInt32);
}

Status InferQLinearConv(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 0, "x"));
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 3, "w"));
  GE_RETURN_IF_ERROR(RequireInt8(ctx, 7, "y_zero_point"));
  for (int i : {1, 4, 6}) {
    if (ctx.has_input(i) && ctx.input(i)->dtype != DataType::kFloat && ctx.input(i)->dtype != DataType::kUndefined)
      return ctx.Error("scales must be float32");
  }
  if (ctx.has_input(8) && ctx.input(8)->dtype != DataType::kInt32 && ctx.input(8)->dtype != DataType::kUndefined) {
    return ctx.Error("B must be int32");
  }
  DataType out_dt = ctx.has_input(7) ? ctx.input(7)->dtype : DataType::kUint8;
  return InferConvLike(ctx, 0, 3, 8, out_dt);
}

Status InferConvTranspose(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 1, "W"));
  const TensorDesc& x = *ctx.input(0);
  const TensorDesc& w = *ctx.input(1);
  int64_t group = ctx.attr().GetInt("group", 1);
  if (group < 1) return ctx.Error("group must be >= 1");
  GE_ASSIGN_OR_RETURN(int r, ConvRank(ctx, x, w));
  if (r < 0) {
    ctx.output(0) = TensorDesc(x.dtype, Shape::UnknownRank());
    return Status::Ok();
  }
  const int nsp = r - 2;
  std::vector<int64_t> wk(nsp, kUnknownDim);
  if (!w.shape.unknown_rank())
    for (int i = 0; i < nsp; ++i) wk[i] = w.shape.dim(i + 2);
  Window win;
  Status st = ParseWindow(ctx.attr(), nsp, &wk, false, &win);
  if (!st.ok()) return ctx.Error(st.message());
  TransposeExtras extras;
  st = ParseTransposeExtras(ctx.attr(), nsp, &extras);
  if (!st.ok()) return ctx.Error(st.message());
  int64_t m = kUnknownDim;
  if (!w.shape.unknown_rank()) {
    if (w.shape.dim(1) != kUnknownDim) m = w.shape.dim(1) * group;
    int64_t c = x.shape.unknown_rank() ? kUnknownDim : x.shape.dim(1);
    if (c != kUnknownDim && w.shape.dim(0) != kUnknownDim && c != w.shape.dim(0)) {
      return ctx.Error("input channels " + std::to_string(c) + " != W dim 0 " + std::to_string(w.shape.dim(0)));
    }
    if (w.shape.dim(0) != kUnknownDim && w.shape.dim(0) % group != 0) {
      return ctx.Error("W dim 0 is not divisible by group");
    }
  }
  GE_RETURN_IF_ERROR(CheckBias(ctx, 2, m));
  Shape out;
  if (x.shape.unknown_rank()) {
    out.AddDim(kUnknownDim);
  } else {
    out.AddDim(x.shape.dim(0), x.shape.symbol(0));
  }
  out.AddDim(m);
  for (int i = 0; i < nsp; ++i) {
    int64_t in = x.shape.unknown_rank() ? kUnknownDim : x.shape.dim(i + 2);
    auto d = TransposeOutputDim(&win, extras, i, in);
    if (!d.ok()) return ctx.Error(d.status().message());
    out.AddDim(*d);
  }
  ctx.output(0) = TensorDesc(x.dtype, out);
  return Status::Ok();
}

}  // namespace

void RegisterConvOps(OpRegistry* r) {
  r->Add({OpId::kConv, 2, 3, 1, 1, InferConv});
  r->Add({OpId::kConvTranspose, 2, 3, 1, 1, InferConvTranspose});
  r->Add({OpId::kConvInteger, 2, 4, 1, 1, InferConvInteger});
  r->Add({OpId::kQLinearConv, 8, 9, 1, 1, InferQLinearConv});
}

}  // namespace ge::ops::nn
