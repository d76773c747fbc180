// Dropout, RoiAlign (ONNX Runtime's algorithm, incl. its max mode), GridSample (4-D, opset 16).
#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

Status RefDropout(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("data is required");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported data type ") + DataTypeName(x->dtype()));
  double ratio = 0.5;
  bool training = false;
  if (ctx.opset >= 12) {
    if (const Tensor* r = ctx.input(1)) {
      if (r->numel() != 1) return ctx.Error("ratio must be a scalar");
      ratio = r->GetAsDouble(0);
    }
    if (const Tensor* t = ctx.input(2)) {
      if (t->dtype() != DataType::kBool || t->numel() != 1) return ctx.Error("training_mode must be a bool scalar");
      training = t->data<bool>()[0];
    }
  }
  // Before opset 12 Dropout has no training mode: it is the identity (ratio only matters for training).
  if (training && !(ratio >= 0 && ratio < 1)) return ctx.Error("ratio must be in [0, 1)");
  const bool want_mask = ctx.num_outputs() > 1;
  const DataType mask_dt = ctx.opset >= 10 ? DataType::kBool : x->dtype();
  if (!training || ratio == 0) {
    ctx.SetOutput(0, *x);
    if (want_mask) {
      GE_ASSIGN_OR_RETURN(Tensor * m, ctx.AllocateOutput(1, x->dims(), mask_dt));
      GE_RETURN_IF_ERROR(VisitDataType(mask_dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          std::fill(m->data<bool>(), m->data<bool>() + m->numel(), true);
        } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16> ||
                             std::is_same_v<T, bfloat16>) {
          std::fill(m->data<T>(), m->data<T>() + m->numel(), T(1.0f));
        }
      }));
    }
    return Status::Ok();
  }
  std::mt19937_64 local(static_cast<uint64_t>(ctx.attr().GetInt("seed", 0)));
  std::mt19937_64* rng = ctx.attr().Has("seed") || !ctx.rng ? &local : ctx.rng;
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  Tensor* m = nullptr;
  if (want_mask) {
    GE_ASSIGN_OR_RETURN(m, ctx.AllocateOutput(1, x->dims(), DataType::kBool));
  }
  const double scale = 1.0 / (1.0 - ratio);
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xd = x->data<T>();
    T* yd = y->data<T>();
    for (int64_t i = 0; i < x->numel(); ++i) {
      const bool keep = uni(*rng) >= ratio;
      yd[i] = static_cast<T>(keep ? static_cast<double>(xd[i]) * scale : 0.0);
      if (m) m->data<bool>()[i] = keep;
    }
  });
}

struct Bilinear {
  int64_t pos[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

// Sample point (y, x) of an h x w plane as ONNX Runtime's RoiAlign does (clamping into the plane).
Bilinear RoiSample(double y, double x, int64_t h, int64_t w) {
  Bilinear b;
  if (y < -1.0 || y > static_cast<double>(h) || x < -1.0 || x > static_cast<double>(w)) return b;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= h - 1) {
    y1 = y0 = h - 1;
    y = static_cast<double>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= w - 1) {
    x1 = x0 = w - 1;
    x = static_cast<double>(x0);
  } else {
    x1 = x0 + 1;
  }
  const double ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
  b.pos[0] = y0 * w + x0;
  b.pos[1] = y0 * w + x1;
  b.pos[2] = y1 * w + x0;
  b.pos[3] = y1 * w + x1;
  b.w[0] = hy * hx;
  b.w[1] = hy * lx;
  b.w[2] = ly * hx;
  b.w[3] = ly * lx;
  return b;
}

Status RefRoiAlign(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* rois = ctx.input(1);
  const Tensor* bi = ctx.input(2);
  if (!x || !rois || !bi) return ctx.Error("X, rois and batch_indices are required");
  if (!IsFloatingPoint(x->dtype()) || !IsFloatingPoint(rois->dtype())) return ctx.Error("X and rois must be float");
  if (bi->dtype() != DataType::kInt64) return ctx.Error("batch_indices must be int64");
  if (x->rank() != 4) return ctx.Error("X must be 4-D");
  if (rois->rank() != 2 || rois->dim(1) != 4) return ctx.Error("rois must have shape [R, 4]");
  if (bi->rank() != 1 || bi->dim(0) != rois->dim(0)) return ctx.Error("batch_indices must have shape [R]");
  const ir::AttrMap& a = ctx.attr();
  const std::string mode = a.GetString("mode", "avg");
  if (mode != "avg" && mode != "max") return ctx.Error("mode must be avg or max");
  // Opset 10 has no coordinate_transformation_mode and behaves as output_half_pixel.
  const std::string ctm = ctx.opset >= 16 ? a.GetString("coordinate_transformation_mode", "half_pixel") : "output_half_pixel";
  if (ctm != "half_pixel" && ctm != "output_half_pixel") return ctx.Error("unknown coordinate_transformation_mode");
  const int64_t ph = a.GetInt("output_height", 1), pw = a.GetInt("output_width", 1);
  const int64_t sr = a.GetInt("sampling_ratio", 0);
  const double scale = a.GetFloat("spatial_scale", 1.0f);
  if (ph < 1 || pw < 1 || sr < 0) return ctx.Error("bad output size or sampling_ratio");
  const int64_t n = x->dim(0), c = x->dim(1), h = x->dim(2), w = x->dim(3), nr = rois->dim(0);
  const bool half = ctm == "half_pixel";
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> rv = ConvertTo<double>(*rois);
  std::vector<double> yv(static_cast<size_t>(nr * c * ph * pw), 0.0);
  const int64_t* bidx = bi->data<int64_t>();
  std::vector<Bilinear> samples;
  for (int64_t r = 0; r < nr; ++r) {
    const int64_t b = bidx[r];
    if (b < 0 || b >= n) return ctx.Error("batch index " + std::to_string(b) + " is out of range");
    const double off = half ? 0.5 : 0.0;
    const double x0 = rv[r * 4] * scale - off, y0 = rv[r * 4 + 1] * scale - off;
    const double x1 = rv[r * 4 + 2] * scale - off, y1 = rv[r * 4 + 3] * scale - off;
    double rw = x1 - x0, rh = y1 - y0;
    if (!half) {
      rw = std::max(rw, 1.0);
      rh = std::max(rh, 1.0);
    }
    const double bh = rh / ph, bw = rw / pw;
    if (!std::isfinite(rh) || !std::isfinite(rw) || rh / ph > 4096 || rw / pw > 4096) {
      return ctx.Error("roi " + std::to_string(r) + " is not finite or too large");
    }
    const int64_t gh = sr > 0 ? sr : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(rh / ph)));
    const int64_t gw = sr > 0 ? sr : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(rw / pw)));
    if (ph * pw * gh * gw > (int64_t{1} << 26)) return ctx.Error("roi sampling grid is too large");
    const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
    samples.clear();
    for (int64_t py = 0; py < ph; ++py)
      for (int64_t px = 0; px < pw; ++px)
        for (int64_t iy = 0; iy < gh; ++iy) {
          const double yy = y0 + py * bh + (iy + 0.5) * bh / static_cast<double>(gh);
          for (int64_t ix = 0; ix < gw; ++ix) {
            const double xx = x0 + px * bw + (ix + 0.5) * bw / static_cast<double>(gw);
            samples.push_back(RoiSample(yy, xx, h, w));
          }
        }
    const int64_t per_bin = gh * gw;
    for (int64_t ci = 0; ci < c; ++ci) {
      const double* plane = xv.data() + (b * c + ci) * h * w;
      double* out = yv.data() + (r * c + ci) * ph * pw;
      for (int64_t bin = 0; bin < ph * pw; ++bin) {
        const Bilinear* s = samples.data() + bin * per_bin;
        double v = 0;
        if (mode == "avg") {
          for (int64_t k = 0; k < per_bin; ++k)
            for (int q = 0; q < 4; ++q) v += s[k].w[q] * plane[s[k].pos[q]];
          v /= count;
        } else {
          for (int64_t k = 0; k < per_bin; ++k) {
            double m = s[k].w[0] * plane[s[k].pos[0]];
            for (int q = 1; q < 4; ++q) m = std::max(m, s[k].w[q] * plane[s[k].pos[q]]);
            v = k == 0 ? m : std::max(v, m);
          }
        }
        out[bin] = v;
      }
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {nr, c, ph, pw}, x->dtype()));
  return VisitFloatType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = y->data<T>();
    for (size_t i = 0; i < yv.size(); ++i) d[i] = static_cast<T>(yv[i]);
  });
}

}  // namespace

void RegisterSampleKernels(KernelRegistry* r) {
  r->Add(OpId::kDropout, RefDropout);
  r->Add(OpId::kRoiAlign, RefRoiAlign);
}

}  // namespace ge::ref::nn
