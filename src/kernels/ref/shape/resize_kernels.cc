// Resize (opsets 10/11/13) and Upsample (7/9). The sampling (resize_plan.h) follows the ONNX reference
// implementation: per axis, an output index maps to a source coordinate x_ori; nearest picks one neighbour, linear
// two and cubic four, with edge-clamped indices. Interpolation is separable, so it runs
// as one 1-D pass per resized axis (last axis first) in double precision; nearest is a pure gather for every dtype.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/ref/shape/shape_kernels_internal.h"
#include "kernels/ref/shape/resize_plan.h"
#include "ops/shape/shape_params.h"

namespace ge::ref::shape_family {
namespace {

using resize::AxisPlan;
using resize::PlanResizeAxis;
using resize::ResizeConfig;
using resize::ResizeMode;

template <typename T>
T FromDouble(double v) {
  if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v)) return T{};
    const double r = std::round(v);
    if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  } else {
    return static_cast<T>(static_cast<typename ComputeTypeOf<T>::type>(v));
  }
}

Status RunNearest(KernelContext& ctx, const ResizeConfig& cfg, const Tensor& x, Tensor* y) {
  const int r = x.rank();
  std::vector<std::vector<int64_t>> maps(r);
  for (int k = 0; k < r; ++k) {
    AxisPlan p = PlanResizeAxis(cfg, k, r, x.dim(k), y->dim(k));
    maps[k] = std::move(p.index);
    for (int64_t j = 0; j < y->dim(k); ++j)
      if (p.extrapolate[j]) maps[k][j] = -1;
  }
  GE_ASSIGN_OR_RETURN(Tensor fill, Tensor::Create(x.dtype(), {}));
  VisitNumericType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill.data<T>()[0] = FromDouble<T>(cfg.extrapolation);
  }).IgnoreError();  // non-numeric types extrapolate with their zero value
  return VisitCopyType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    GatherByAxisMaps(x.data<T>(), RowMajorStrides(x.dims()), y->dims(), maps, fill.data<T>()[0], y->data<T>());
  });
}

Status RunInterpolate(KernelContext& ctx, const ResizeConfig& cfg, const Tensor& x, Tensor* y) {
  const int r = x.rank();
  Dims cur = x.dims();
  for (int k = 0; k < r; ++k) {
    Dims next = cur;
    next[k] = std::max(cur[k], y->dim(k));
    if (NumElements(next) > kMaxTensorBytes / static_cast<int64_t>(sizeof(double))) {
      return ResourceExhausted("node '" + ctx.node_name + "' (Resize): intermediate buffer is too large");
    }
  }
  std::vector<double> buf(x.numel());
  GE_RETURN_IF_ERROR(VisitNumericType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = x.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i)
      buf[i] = static_cast<double>(static_cast<typename ComputeTypeOf<T>::type>(s[i]));
  }));
  for (int k = r - 1; k >= 0; --k) {
    const int64_t in_k = cur[k], out_k = y->dim(k);
    AxisPlan p = PlanResizeAxis(cfg, k, r, in_k, out_k);
    if (p.identity) continue;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < k; ++i) outer *= cur[i];
    for (int i = k + 1; i < r; ++i) inner *= cur[i];
    std::vector<double> next(outer * out_k * inner, 0.0);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < out_k; ++j) {
        double* d = next.data() + (o * out_k + j) * inner;
        if (p.extrapolate[j]) {
          std::fill(d, d + inner, cfg.extrapolation);
          continue;
        }
        for (int t = 0; t < p.taps; ++t) {
          const double w = p.weight[j * p.taps + t];
          if (w == 0) continue;
          const double* s = buf.data() + (o * in_k + p.index[j * p.taps + t]) * inner;
          for (int64_t i = 0; i < inner; ++i) d[i] += w * s[i];
        }
      }
    }
    buf.swap(next);
    cur[k] = out_k;
  }
  return VisitNumericType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = y->data<T>();
    for (int64_t i = 0; i < y->numel(); ++i) d[i] = FromDouble<T>(buf[i]);
  });
}

std::vector<double> DoublesOf(const Tensor* t) {
  std::vector<double> v;
  if (t)
    for (int64_t i = 0; i < t->numel(); ++i) v.push_back(t->GetAsDouble(i));
  return v;
}

Status RunResize(KernelContext& ctx, ResizeConfig& cfg, const Tensor& x, const std::vector<double>& scales,
                 const std::vector<int64_t>& sizes) {
  auto target = ops::shape_family::ComputeResizeTarget(x.dims(), &scales, &sizes);
  if (!target.ok()) return ctx.Error(target.status().message());
  cfg.target = std::move(target).value();
  if (cfg.coord == "tf_crop_and_resize" && cfg.roi.size() != 2 * static_cast<size_t>(x.rank())) {
    return ctx.Error("roi must have 2 * rank entries");
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, cfg.target.out, x.dtype()));
  if (y->numel() == 0) return Status::Ok();
  if (x.numel() == 0) return ctx.Error("cannot resize an empty tensor to a non-empty one");
  if (cfg.mode == ResizeMode::kNearest) return RunNearest(ctx, cfg, x, y);
  return RunInterpolate(ctx, cfg, x, y);
}

Status RefResize(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input X must be a tensor");
  ResizeConfig cfg;
  Status st = resize::ReadResizeConfig(ctx.op_type, ctx.attr(), ctx.opset, &cfg);
  if (!st.ok()) return ctx.Error(st.message());
  const resize::ResizeInputSlots slots = resize::ResizeInputsOf(ctx.op_type, ctx.opset);
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (slots.roi >= 0) cfg.roi = DoublesOf(ctx.input(slots.roi));
  if (slots.scales >= 0) {
    scales = DoublesOf(ctx.input(slots.scales));
  } else {
    for (float f : ctx.attr().GetFloats("scales")) scales.push_back(f);
  }
  if (slots.sizes >= 0) {
    if (const Tensor* s = ctx.input(slots.sizes)) sizes = s->ToInt64Vector();
  }
  return RunResize(ctx, cfg, *x, scales, sizes);
}

}  // namespace

void RegisterResizeKernels(KernelRegistry* r) {
  r->Add(OpId::kResize, RefResize);
  r->Add(OpId::kUpsample, RefResize);
}

}  // namespace ge::ref::shape_family
