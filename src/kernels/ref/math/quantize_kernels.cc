// Reference kernels for QuantizeLinear, DequantizeLinear (per-tensor, or per-axis along `axis` since opset 13)
// and DynamicQuantizeLinear. Rounding is half-to-even, results saturate to the quantized type.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

// How scale/zero point index an element: element (o, c, i) of x viewed as [outer, channels, inner] uses
// scale[c] (channels = 1 for per-tensor quantization).
struct QuantLayout {
  int64_t outer = 1, channels = 1, inner = 1;
};

StatusOr<QuantLayout> GetLayout(const KernelContext& ctx, const Tensor& x, const Tensor& scale, const Tensor* zp) {
  QuantLayout l;
  if (scale.rank() > 1) return ctx.Error("scale must be a scalar or 1-D, got " + DimsToString(scale.dims()));
  if (zp && zp->numel() != scale.numel()) {
    return ctx.Error("zero point " + DimsToString(zp->dims()) + " does not match scale " + DimsToString(scale.dims()));
  }
  if (scale.numel() == 1) {
    l.inner = x.numel();
    return l;
  }
  auto axis = NormalizeAxis(ctx.attr().GetInt("axis", 1), x.rank());
  if (!axis.ok()) return ctx.Error("attribute axis: " + axis.status().message());
  if (x.dim(*axis) != scale.numel()) {
    return ctx.Error("scale " + DimsToString(scale.dims()) + " does not match dim " + std::to_string(*axis) + " of x " +
                     DimsToString(x.dims()));
  }
  for (int d = 0; d < *axis; ++d) l.outer *= x.dim(d);
  l.channels = x.dim(*axis);
  for (int d = *axis + 1; d < x.rank(); ++d) l.inner *= x.dim(d);
  return l;
}

template <typename Q, typename C>
Q Saturate(C v) {
  constexpr C lo = static_cast<C>(std::numeric_limits<Q>::min());
  constexpr C hi = static_cast<C>(std::numeric_limits<Q>::max());
  if (std::isnan(v)) return Q(0);
  return static_cast<Q>(v < lo ? lo : v > hi ? hi : v);
}

template <typename X, typename S, typename Q>
void QuantizeTyped(const QuantLayout& l, const X* x, const S* scale, const Q* zp, Q* y) {
  using C = std::conditional_t<std::is_same_v<X, double> || std::is_same_v<X, int32_t> || std::is_same_v<S, double>,
                               double, float>;
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t c = 0; c < l.channels; ++c) {
      const C s = static_cast<C>(scale[c]);
      const C z = zp ? static_cast<C>(zp[c]) : C(0);
      const int64_t base = (o * l.channels + c) * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        y[base + i] = Saturate<Q, C>(std::nearbyint(static_cast<C>(x[base + i]) / s) + z);
      }
    }
  }
}

template <typename X, typename S>
Status QuantizeDispatchQ(const KernelContext& ctx, const QuantLayout& l, const Tensor& x, const Tensor& scale,
                         const Tensor* zp, Tensor* y) {
  const X* xp = x.data<X>();
  const S* sp = scale.data<S>();
  switch (y->dtype()) {
    case DataType::kUint8: QuantizeTyped(l, xp, sp, zp ? zp->data<uint8_t>() : nullptr, y->data<uint8_t>()); break;
    case DataType::kInt8: QuantizeTyped(l, xp, sp, zp ? zp->data<int8_t>() : nullptr, y->data<int8_t>()); break;
    case DataType::kUint16: QuantizeTyped(l, xp, sp, zp ? zp->data<uint16_t>() : nullptr, y->data<uint16_t>()); break;
    case DataType::kInt16: QuantizeTyped(l, xp, sp, zp ? zp->data<int16_t>() : nullptr, y->data<int16_t>()); break;
    default: return ctx.Unsupported(std::string("quantized dtype ") + DataTypeName(y->dtype()));
  }
  return Status::Ok();
}

template <typename X>
Status QuantizeDispatchS(const KernelContext& ctx, const QuantLayout& l, const Tensor& x, const Tensor& scale,
                         const Tensor* zp, Tensor* y) {
  switch (scale.dtype()) {
    case DataType::kFloat: return QuantizeDispatchQ<X, float>(ctx, l, x, scale, zp, y);
    case DataType::kDouble: return QuantizeDispatchQ<X, double>(ctx, l, x, scale, zp, y);
    case DataType::kFloat16: return QuantizeDispatchQ<X, float16>(ctx, l, x, scale, zp, y);
    case DataType::kBFloat16: return QuantizeDispatchQ<X, bfloat16>(ctx, l, x, scale, zp, y);
    default: return ctx.Unsupported(std::string("scale dtype ") + DataTypeName(scale.dtype()));
  }
}

Status RefQuantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* scale = ctx.input(1);
  const Tensor* zp = ctx.input(2);
  if (!x || !scale) return ctx.Error("inputs x and y_scale are required");
  GE_ASSIGN_OR_RETURN(QuantLayout l, GetLayout(ctx, *x, *scale, zp));
  const DataType qt = zp ? zp->dtype() : DataType::kUint8;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), qt));
  switch (x->dtype()) {
    case DataType::kFloat: return QuantizeDispatchS<float>(ctx, l, *x, *scale, zp, y);
    case DataType::kDouble: return QuantizeDispatchS<double>(ctx, l, *x, *scale, zp, y);
    case DataType::kFloat16: return QuantizeDispatchS<float16>(ctx, l, *x, *scale, zp, y);
    case DataType::kBFloat16: return QuantizeDispatchS<bfloat16>(ctx, l, *x, *scale, zp, y);
    case DataType::kInt32: return QuantizeDispatchS<int32_t>(ctx, l, *x, *scale, zp, y);
    default: return ctx.Unsupported(std::string("x dtype ") + DataTypeName(x->dtype()));
  }
}

template <typename X, typename S>
void DequantizeTyped(const QuantLayout& l, const X* x, const S* scale, const X* zp, S* y) {
  using C = std::conditional_t<std::is_same_v<S, double>, double, float>;
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t c = 0; c < l.channels; ++c) {
      const C s = static_cast<C>(scale[c]);
      const int64_t z = zp ? static_cast<int64_t>(zp[c]) : 0;
      const int64_t base = (o * l.channels + c) * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        y[base + i] = static_cast<S>(static_cast<C>(static_cast<int64_t>(x[base + i]) - z) * s);
      }
    }
  }
}

template <typename X>
Status DequantizeDispatchS(const KernelContext& ctx, const QuantLayout& l, const Tensor& x, const Tensor& scale,
                           const Tensor* zp, Tensor* y) {
  const X* xp = x.data<X>();
  const X* zpp = zp ? zp->data<X>() : nullptr;
  switch (scale.dtype()) {
    case DataType::kFloat: DequantizeTyped(l, xp, scale.data<float>(), zpp, y->data<float>()); break;
    case DataType::kDouble: DequantizeTyped(l, xp, scale.data<double>(), zpp, y->data<double>()); break;
    case DataType::kFloat16: DequantizeTyped(l, xp, scale.data<float16>(), zpp, y->data<float16>()); break;
    case DataType::kBFloat16: DequantizeTyped(l, xp, scale.data<bfloat16>(), zpp, y->data<bfloat16>()); break;
    default: return ctx.Unsupported(std::string("scale dtype ") + DataTypeName(scale.dtype()));
  }
  return Status::Ok();
}

Status RefDequantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* scale = ctx.input(1);
  const Tensor* zp = ctx.input(2);
  if (!x || !scale) return ctx.Error("inputs x and x_scale are required");
  if (zp && zp->dtype() != x->dtype()) return ctx.Error("x_zero_point must have the dtype of x");
  GE_ASSIGN_OR_RETURN(QuantLayout l, GetLayout(ctx, *x, *scale, zp));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), scale->dtype()));
  switch (x->dtype()) {
    case DataType::kUint8: return DequantizeDispatchS<uint8_t>(ctx, l, *x, *scale, zp, y);
    case DataType::kInt8: return DequantizeDispatchS<int8_t>(ctx, l, *x, *scale, zp, y);
    case DataType::kUint16: return DequantizeDispatchS<uint16_t>(ctx, l, *x, *scale, zp, y);
    case DataType::kInt16: return DequantizeDispatchS<int16_t>(ctx, l, *x, *scale, zp, y);
    case DataType::kInt32: return DequantizeDispatchS<int32_t>(ctx, l, *x, *scale, zp, y);
    default: return ctx.Unsupported(std::string("x dtype ") + DataTypeName(x->dtype()));
  }
}

// DynamicQuantizeLinear: uint8 with scale = (max(0, max x) - min(0, min x)) / 255 and the zero point that maps 0
// exactly. An all-zero (or empty) input gets scale 0 and zero point 0.
Status RefDynamicQuantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input x is required");
  if (x->dtype() != DataType::kFloat) return ctx.Unsupported(std::string("x dtype ") + DataTypeName(x->dtype()));
  const float* xp = x->data<float>();
  const int64_t n = x->numel();
  float lo = 0.f, hi = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(xp[i])) continue;
    lo = std::fmin(lo, xp[i]);
    hi = std::fmax(hi, xp[i]);
  }
  const float scale = (hi - lo) / 255.f;
  uint8_t zp = 0;
  if (scale != 0.f && std::isfinite(scale)) zp = Saturate<uint8_t, float>(std::nearbyint((0.f - lo) / scale));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), DataType::kUint8));
  uint8_t* yp = y->data<uint8_t>();
  if (scale != 0.f && std::isfinite(scale)) {
    for (int64_t i = 0; i < n; ++i) yp[i] = Saturate<uint8_t, float>(std::nearbyint(xp[i] / scale) + zp);
  }
  if (ctx.num_outputs() > 1) {
    GE_ASSIGN_OR_RETURN(Tensor * s, ctx.AllocateOutput(1, {}, DataType::kFloat));
    *s->data<float>() = scale;
  }
  if (ctx.num_outputs() > 2) {
    GE_ASSIGN_OR_RETURN(Tensor * z, ctx.AllocateOutput(2, {}, DataType::kUint8));
    *z->data<uint8_t>() = zp;
  }
  return Status::Ok();
}

}  // namespace

void RegisterQuantizeRefKernels(KernelRegistry* r) {
  r->Add(OpId::kQuantizeLinear, RefQuantizeLinear);
  r->Add(OpId::kDequantizeLinear, RefDequantizeLinear);
  r->Add(OpId::kDynamicQuantizeLinear, RefDynamicQuantizeLinear);
}

}  // namespace ge::ref
