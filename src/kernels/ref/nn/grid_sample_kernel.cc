// GridSample (opset 16, 4-D): bilinear / nearest / bicubic sampling with zeros / border / reflection padding,
// following PyTorch's grid_sample (which ONNX specifies and ONNX Runtime matches). Computes in double.
#include <cmath>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

enum class Pad { kZeros, kBorder, kReflection };

struct Sampler {
  int64_t h, w;
  bool align;
  Pad pad;

  double Unnormalize(double g, int64_t size) const {
    return align ? (g + 1) / 2 * (size - 1) : ((g + 1) * size - 1) / 2;
  }
  static double Reflect(double v, double twice_lo, double twice_hi) {
    if (twice_lo == twice_hi) return 0;
    const double lo = twice_lo / 2, span = (twice_hi - twice_lo) / 2;
    v = std::fabs(v - lo);
    const double extra = std::fmod(v, span);
    const int64_t flips = static_cast<int64_t>(std::floor(v / span));
    return flips % 2 == 0 ? extra + lo : span - extra + lo;
  }
  // Applies border / reflection padding to a source coordinate.
  double Fold(double v, int64_t size) const {
    if (pad == Pad::kBorder) return std::min(static_cast<double>(size - 1), std::max(v, 0.0));
    if (pad == Pad::kReflection) {
      v = align ? Reflect(v, 0, 2.0 * (size - 1)) : Reflect(v, -1, 2.0 * size - 1);
      return std::min(static_cast<double>(size - 1), std::max(v, 0.0));
    }
    return v;
  }
  double At(const double* plane, int64_t y, int64_t x) const {
    return y >= 0 && y < h && x >= 0 && x < w ? plane[y * w + x] : 0.0;
  }
  // A bicubic tap: padding applies to the integer tap coordinate.
  double Tap(const double* plane, int64_t y, int64_t x) const {
    if (pad == Pad::kZeros) return At(plane, y, x);
    const int64_t fy = static_cast<int64_t>(Fold(static_cast<double>(y), h));
    const int64_t fx = static_cast<int64_t>(Fold(static_cast<double>(x), w));
    return At(plane, fy, fx);
  }
};

void CubicWeights(double t, double out[4]) {
  const double a = -0.75;
  auto near = [a](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [a](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  out[0] = far(t + 1);
  out[1] = near(t);
  out[2] = near(1 - t);
  out[3] = far(2 - t);
}

Status RefGridSample(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* grid = ctx.input(1);
  if (!x || !grid) return ctx.Error("X and grid are required");
  if (!IsFloatingPoint(x->dtype()) || !IsFloatingPoint(grid->dtype())) return ctx.Error("X and grid must be float");
  if (x->rank() != 4) return ctx.Unsupported("only 4-D GridSample is supported (opset 16)");
  if (grid->rank() != 4 || grid->dim(3) != 2 || grid->dim(0) != x->dim(0)) {
    return ctx.Error("grid must have shape [N, H_out, W_out, 2], got " + DimsToString(grid->dims()));
  }
  const ir::AttrMap& a = ctx.attr();
  const std::string mode = a.GetString("mode", "bilinear");
  const std::string pm = a.GetString("padding_mode", "zeros");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") return ctx.Error("unknown mode '" + mode + "'");
  Pad pad;
  if (pm == "zeros") pad = Pad::kZeros;
  else if (pm == "border") pad = Pad::kBorder;
  else if (pm == "reflection") pad = Pad::kReflection;
  else return ctx.Error("unknown padding_mode '" + pm + "'");
  const int64_t n = x->dim(0), c = x->dim(1), h = x->dim(2), w = x->dim(3);
  const int64_t ho = grid->dim(1), wo = grid->dim(2);
  Sampler s{h, w, a.GetInt("align_corners", 0) != 0, pad};
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> gv = ConvertTo<double>(*grid);
  std::vector<double> yv(static_cast<size_t>(n * c * ho * wo));
  for (int64_t ni = 0; ni < n; ++ni) {
    for (int64_t i = 0; i < ho * wo; ++i) {
      const double gx = gv[(ni * ho * wo + i) * 2], gy = gv[(ni * ho * wo + i) * 2 + 1];
      double ix = s.Unnormalize(gx, w), iy = s.Unnormalize(gy, h);
      for (int64_t ci = 0; ci < c; ++ci) {
        const double* plane = xv.data() + (ni * c + ci) * h * w;
        double v = 0;
        if (!(std::fabs(ix) < 1e15) || !(std::fabs(iy) < 1e15)) {
          v = 0;
        } else if (mode == "bicubic") {
          const double fx = std::floor(ix), fy = std::floor(iy);
          double wx[4], wy[4];
          CubicWeights(ix - fx, wx);
          CubicWeights(iy - fy, wy);
          const int64_t x0 = static_cast<int64_t>(fx) - 1, y0 = static_cast<int64_t>(fy) - 1;
          for (int r = 0; r < 4; ++r) {
            double row = 0;
            for (int q = 0; q < 4; ++q) row += wx[q] * s.Tap(plane, y0 + r, x0 + q);
            v += wy[r] * row;
          }
        } else {
          const double sx = s.Fold(ix, w), sy = s.Fold(iy, h);
          if (mode == "nearest") {
            v = s.At(plane, static_cast<int64_t>(std::nearbyint(sy)), static_cast<int64_t>(std::nearbyint(sx)));
          } else {
            const double fx = std::floor(sx), fy = std::floor(sy);
            const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
            const double lx = sx - fx, ly = sy - fy;
            v = (1 - ly) * ((1 - lx) * s.At(plane, y0, x0) + lx * s.At(plane, y0, x0 + 1)) +
                ly * ((1 - lx) * s.At(plane, y0 + 1, x0) + lx * s.At(plane, y0 + 1, x0 + 1));
          }
        }
        yv[(ni * c + ci) * ho * wo + i] = v;
      }
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {n, c, ho, wo}, x->dtype()));
  return VisitFloatType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = y->data<T>();
    for (size_t i = 0; i < yv.size(); ++i) d[i] = static_cast<T>(yv[i]);
  });
}

}  // namespace

void RegisterGridSampleKernels(KernelRegistry* r) { r->Add(OpId::kGridSample, RefGridSample); }

}  // namespace ge::ref::nn
