// ConvInteger and QLinearConv: int32 accumulation of (x - x_zero_point) * (w - w_zero_point); padded input
// positions contribute zero (they read as x_zero_point).
#include <cmath>

#include "kernels/ref/nn/conv_core.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

bool IsInt8Type(DataType dt) { return dt == DataType::kUint8 || dt == DataType::kInt8; }

// A scalar or per-output-channel (count values) parameter, expanded to count values.
template <typename V>
Status PerChannel(const KernelContext& ctx, const Tensor* t, int64_t count, const char* what, std::vector<V>* out) {
  out->assign(static_cast<size_t>(count), V(0));
  if (!t) return Status::Ok();
  if (t->rank() > 1 || (t->numel() != 1 && t->numel() != count)) {
    return ctx.Error(std::string(what) + " must be a scalar or have " + std::to_string(count) + " elements, got " +
                     DimsToString(t->dims()));
  }
  for (int64_t i = 0; i < count; ++i) (*out)[i] = static_cast<V>(t->GetAsDouble(t->numel() == 1 ? 0 : i));
  return Status::Ok();
}

// Integer conv core: returns int32 accumulators [N, M, out] including bias (may be null).
Status IntegerConv(KernelContext& ctx, const Tensor& x, const Tensor* xzp, const Tensor& w, const Tensor* wzp,
                   const Tensor* bias, ConvGeom* g, std::vector<int32_t>* acc, int32_t* acc_out) {
  if (!IsInt8Type(x.dtype()) || !IsInt8Type(w.dtype())) return ctx.Error("x and w must be uint8 or int8");
  if (xzp && xzp->dtype() != x.dtype()) return ctx.Error("x_zero_point must have the type of x");
  if (wzp && wzp->dtype() != w.dtype()) return ctx.Error("w_zero_point must have the type of w");
  if (xzp && xzp->numel() != 1) return ctx.Error("x_zero_point must be a scalar");
  GE_ASSIGN_OR_RETURN(*g, MakeConvGeom(ctx, x.dims(), w.dims()));
  std::vector<int32_t> wz;
  GE_RETURN_IF_ERROR(PerChannel(ctx, wzp, g->m, "w_zero_point", &wz));
  const int32_t xz = xzp ? static_cast<int32_t>(xzp->GetAsInt64(0)) : 0;
  std::vector<int32_t> xi = ConvertTo<int32_t>(x);
  for (int32_t& v : xi) v -= xz;
  std::vector<int32_t> wi = ConvertTo<int32_t>(w);
  const int64_t per_m = g->m ? w.numel() / g->m : 0;
  for (int64_t mi = 0; mi < g->m; ++mi)
    for (int64_t r = 0; r < per_m; ++r) wi[mi * per_m + r] -= wz[mi];
  std::vector<int32_t> bv;
  if (bias) {
    if (bias->dtype() != DataType::kInt32 || bias->rank() != 1 || bias->numel() != g->m) {
      return ctx.Error("B must be int32 of shape [M]");
    }
    bv.assign(bias->data<int32_t>(), bias->data<int32_t>() + g->m);
  }
  int32_t* dst = acc_out;
  if (!dst) {
    acc->assign(static_cast<size_t>(NumElements(g->OutputDims())), 0);
    dst = acc->data();
  }
  ConvForward<int32_t>(*g, xi.data(), wi.data(), bias ? bv.data() : nullptr, dst);
  return Status::Ok();
}

Status RefConvInteger(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  if (!x || !w) return ctx.Error("x and w are required");
  // Geometry first, so the output can be allocated and accumulated into directly.
  GE_ASSIGN_OR_RETURN(ConvGeom g0, MakeConvGeom(ctx, x->dims(), w->dims()));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, g0.OutputDims(), DataType::kInt32));
  ConvGeom g;
  std::vector<int32_t> unused;
  return IntegerConv(ctx, *x, ctx.input(2), *w, ctx.input(3), nullptr, &g, &unused, y->data<int32_t>());
}

template <typename Q>
void Requantize(const ConvGeom& g, const std::vector<int32_t>& acc, const std::vector<float>& scale, int32_t yz, Q* y) {
  const int64_t p = g.out_size();
  constexpr int32_t lo = std::is_signed<Q>::value ? -128 : 0;
  constexpr int32_t hi = std::is_signed<Q>::value ? 127 : 255;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t mi = 0; mi < g.m; ++mi) {
      const int32_t* a = acc.data() + (n * g.m + mi) * p;
      Q* o = y + (n * g.m + mi) * p;
      const float s = scale[mi];
      for (int64_t j = 0; j < p; ++j) {
        float v = std::nearbyintf(static_cast<float>(a[j]) * s) + static_cast<float>(yz);
        v = v < lo ? lo : (v > hi ? hi : v);
        o[j] = static_cast<Q>(v);
      }
    }
  }
}

Status RefQLinearConv(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* xs = ctx.input(1);
  const Tensor* w = ctx.input(3);
  const Tensor* ws = ctx.input(4);
  const Tensor* ys = ctx.input(6);
  const Tensor* yzp = ctx.input(7);
  if (!x || !xs || !w || !ws || !ys) return ctx.Error("x, x_scale, w, w_scale and y_scale are required");
  for (const Tensor* s : {xs, ws, ys})
    if (s->dtype() != DataType::kFloat) return ctx.Error("scales must be float32");
  if (xs->numel() != 1 || ys->numel() != 1) return ctx.Error("x_scale and y_scale must be scalars");
  if (yzp && (!IsInt8Type(yzp->dtype()) || yzp->numel() != 1)) return ctx.Error("y_zero_point must be a uint8/int8 scalar");
  ConvGeom g;
  std::vector<int32_t> acc;
  GE_RETURN_IF_ERROR(IntegerConv(ctx, *x, ctx.input(2), *w, ctx.input(5), ctx.input(8), &g, &acc, nullptr));
  std::vector<float> wsv;
  GE_RETURN_IF_ERROR(PerChannel(ctx, ws, g.m, "w_scale", &wsv));
  const float xsv = xs->data<float>()[0], ysv = ys->data<float>()[0];
  if (!(ysv != 0)) return ctx.Error("y_scale must be non-zero");
  std::vector<float> scale(static_cast<size_t>(g.m));
  for (int64_t mi = 0; mi < g.m; ++mi) scale[mi] = xsv * wsv[mi] / ysv;
  const DataType out_dt = yzp ? yzp->dtype() : DataType::kUint8;
  const int32_t yz = yzp ? static_cast<int32_t>(yzp->GetAsInt64(0)) : 0;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, g.OutputDims(), out_dt));
  if (out_dt == DataType::kInt8) {
    Requantize(g, acc, scale, yz, y->data<int8_t>());
  } else {
    Requantize(g, acc, scale, yz, y->data<uint8_t>());
  }
  return Status::Ok();
}

}  // namespace

void RegisterQuantConvKernels(KernelRegistry* r) {
  r->Add(OpId::kConvInteger, RefConvInteger);
  r->Add(OpId::kQLinearConv, RefQLinearConv);
}

}  // namespace ge::ref::nn
