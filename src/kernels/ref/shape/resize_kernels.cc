// Resize (opsets 10/11/13) and Upsample (7/9). The sampling follows the ONNX reference implementation
// (onnx/backend/test/case/node/resize.py): per axis, an output index maps to a source coordinate x_ori; nearest
// picks one neighbour, linear two and cubic four, with edge-clamped indices. Interpolation is separable, so it runs
// as one 1-D pass per resized axis (last axis first) in double precision; nearest is a pure gather for every dtype.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/ref/shape/shape_kernels_internal.h"
#include "ops/shape/shape_params.h"

namespace ge::ref::shape_family {
namespace {

enum class Mode { kNearest, kLinear, kCubic };

struct ResizeConfig {
  Mode mode = Mode::kNearest;
  std::string coord = "half_pixel";
  std::string nearest_mode = "round_prefer_floor";  // or "simple" (opset 10 / Upsample: floor, ceil when shrinking)
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
  std::vector<double> roi;  // [starts..., ends...] for tf_crop_and_resize
  ops::shape_family::ResizeTarget target;
};

// Taps of one axis: for output j, `taps` (index, weight) pairs starting at j * taps; extrapolate[j] marks outputs
// that take the extrapolation value.
struct AxisPlan {
  int taps = 1;
  std::vector<int64_t> index;
  std::vector<double> weight;
  std::vector<char> extrapolate;
  bool identity = false;
};

void CubicCoeffs(double t, double a, double* c) {
  const double t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  c[0] = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  c[2] = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  c[3] = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
}

AxisPlan PlanAxis(const ResizeConfig& cfg, int axis, int rank, int64_t in, int64_t out) {
  AxisPlan p;
  p.taps = cfg.mode == Mode::kNearest ? 1 : cfg.mode == Mode::kLinear ? 2 : 4;
  p.index.assign(out * p.taps, 0);
  p.weight.assign(out * p.taps, 0.0);
  p.extrapolate.assign(out, 0);
  const double s = cfg.target.scales[axis];
  const double out_w = cfg.target.from_sizes ? static_cast<double>(out) : s * static_cast<double>(in);
  const double in_last = static_cast<double>(in - 1);
  for (int64_t x = 0; x < out; ++x) {
    const double xd = static_cast<double>(x);
    double xo = 0;
    if (cfg.coord == "half_pixel") {
      xo = (xd + 0.5) / s - 0.5;
    } else if (cfg.coord == "pytorch_half_pixel") {
      xo = out_w == 1 ? -0.5 : (xd + 0.5) / s - 0.5;
    } else if (cfg.coord == "align_corners") {
      xo = out_w == 1 ? 0 : xd * in_last / (out_w - 1);
    } else if (cfg.coord == "asymmetric") {
      xo = xd / s;
    } else if (cfg.coord == "tf_half_pixel_for_nn") {
      xo = (xd + 0.5) / s;
    } else {  // tf_crop_and_resize
      const double r0 = cfg.roi[axis], r1 = cfg.roi[axis + rank];
      xo = out_w == 1 ? (r1 - r0) * in_last / 2 : xd * (r1 - r0) * in_last / (out_w - 1);
      xo += r0 * in_last;
      if (xo < 0 || xo > in_last) {
        p.extrapolate[x] = 1;
        continue;
      }
    }
    int64_t* idx = &p.index[x * p.taps];
    double* w = &p.weight[x * p.taps];
    const double fl = std::floor(xo);
    const bool integral = xo == fl;
    if (cfg.mode == Mode::kNearest) {
      double pick;
      if (cfg.nearest_mode == "simple") {
        pick = s < 1 ? std::ceil(xo) : fl;
      } else if (integral) {
        pick = xo;
      } else {
        const double ratio = xo - fl;
        bool up = cfg.nearest_mode == "ceil" ||
                  (cfg.nearest_mode == "round_prefer_floor" && ratio > 0.5) ||
                  (cfg.nearest_mode == "round_prefer_ceil" && ratio >= 0.5);
        pick = up ? fl + 1 : fl;
      }
      idx[0] = static_cast<int64_t>(std::clamp(pick, 0.0, in_last));
      w[0] = 1;
      continue;
    }
    // The left neighbour is strictly left of xo (ratio in (0, 1]), as in the reference.
    const double base = integral ? xo - 1 : fl;
    const double ratio = integral ? 1.0 : xo - fl;
    double raw[4];
    if (cfg.mode == Mode::kLinear) {
      raw[0] = base;
      raw[1] = base + 1;
      w[0] = 1 - ratio;
      w[1] = ratio;
    } else {
      for (int t = 0; t < 4; ++t) raw[t] = base - 1 + t;
      CubicCoeffs(ratio, cfg.cubic_a, w);
    }
    if (cfg.exclude_outside) {
      double sum = 0;
      for (int t = 0; t < p.taps; ++t) {
        if (raw[t] < 0 || raw[t] > in_last) w[t] = 0;
        sum += w[t];
      }
      if (sum != 0)
        for (int t = 0; t < p.taps; ++t) w[t] /= sum;
    }
    for (int t = 0; t < p.taps; ++t) idx[t] = static_cast<int64_t>(std::clamp(raw[t], 0.0, in_last));
  }
  p.identity = in == out;
  for (int64_t x = 0; x < out && p.identity; ++x) {
    if (p.extrapolate[x]) p.identity = false;
    for (int t = 0; t < p.taps; ++t) {
      const double w = p.weight[x * p.taps + t];
      if (w != 0 && (p.index[x * p.taps + t] != x || w != 1)) p.identity = false;
    }
  }
  return p;
}

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
    AxisPlan p = PlanAxis(cfg, k, r, x.dim(k), y->dim(k));
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
    for (int64_t i = 0; i < x.numel(); ++i) buf[i] = static_cast<double>(static_cast<typename ComputeTypeOf<T>::type>(s[i]));
  }));
  for (int k = r - 1; k >= 0; --k) {
    const int64_t in_k = cur[k], out_k = y->dim(k);
    AxisPlan p = PlanAxis(cfg, k, r, in_k, out_k);
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
  if (cfg.mode == Mode::kNearest) return RunNearest(ctx, cfg, x, y);
  return RunInterpolate(ctx, cfg, x, y);
}

Status ParseMode(const KernelContext& ctx, ResizeConfig* cfg) {
  const std::string m = ctx.attr().GetString("mode", "nearest");
  if (m == "nearest") {
    cfg->mode = Mode::kNearest;
  } else if (m == "linear" || m == "bilinear") {
    cfg->mode = Mode::kLinear;
  } else if (m == "cubic") {
    cfg->mode = Mode::kCubic;
  } else {
    return ctx.Error("unsupported mode '" + m + "'");
  }
  return Status::Ok();
}

Status RefResize(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input X must be a tensor");
  ResizeConfig cfg;
  GE_RETURN_IF_ERROR(ParseMode(ctx, &cfg));
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (ctx.opset < 11) {
    // Resize-10 samples like Upsample: asymmetric coordinates.
    cfg.coord = "asymmetric";
    cfg.nearest_mode = "simple";
    scales = DoublesOf(ctx.input(1));
  } else {
    cfg.coord = ctx.attr().GetString("coordinate_transformation_mode", "half_pixel");
    cfg.nearest_mode = ctx.attr().GetString("nearest_mode", "round_prefer_floor");
    cfg.cubic_a = ctx.attr().GetFloat("cubic_coeff_a", -0.75f);
    cfg.exclude_outside = ctx.attr().GetInt("exclude_outside", 0) != 0;
    cfg.extrapolation = ctx.attr().GetFloat("extrapolation_value", 0.0f);
    if (!ops::shape_family::IsValidCoordinateMode(cfg.coord, ctx.opset)) {
      return ctx.Error("unsupported coordinate_transformation_mode '" + cfg.coord + "'");
    }
    if (!ops::shape_family::IsValidNearestMode(cfg.nearest_mode)) {
      return ctx.Error("unsupported nearest_mode '" + cfg.nearest_mode + "'");
    }
    cfg.roi = DoublesOf(ctx.input(1));
    scales = DoublesOf(ctx.input(2));
    if (const Tensor* s = ctx.input(3)) sizes = s->ToInt64Vector();
  }
  return RunResize(ctx, cfg, *x, scales, sizes);
}

Status RefUpsample(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input X must be a tensor");
  ResizeConfig cfg;
  GE_RETURN_IF_ERROR(ParseMode(ctx, &cfg));
  if (cfg.mode == Mode::kCubic) return ctx.Error("Upsample does not support cubic");
  cfg.coord = "asymmetric";
  cfg.nearest_mode = "simple";
  std::vector<double> scales;
  if (ctx.opset < 9) {
    for (float f : ctx.attr().GetFloats("scales")) scales.push_back(f);
  } else {
    scales = DoublesOf(ctx.input(1));
  }
  return RunResize(ctx, cfg, *x, scales, {});
}

}  // namespace

void RegisterResizeKernels(KernelRegistry* r) {
  r->Add(OpId::kResize, RefResize);
  r->Add(OpId::kUpsample, RefUpsample);
}

}  // namespace ge::ref::shape_family
