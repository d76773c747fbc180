// GridSample (opset 16, 4-D): bilinear / nearest / bicubic sampling with zeros / border / reflection padding,
// following PyTorch's grid_sample (which ONNX specifies and ONNX Runtime matches). Computes in double.
#include <cmath>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/grid_sample_plan.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

using grid_sample::CubicWeights;
using grid_sample::Mode;
using grid_sample::Pad;
using grid_sample::Sampler;

// The value at flat index i of a plane, 0 for -1 (outside).
double At(const double* plane, int64_t i) { return i >= 0 ? plane[i] : 0.0; }

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
  const std::string mode_name = a.GetString("mode", "bilinear");
  const std::string pm = a.GetString("padding_mode", "zeros");
  Mode mode;
  Pad pad;
  if (!grid_sample::ParseMode(mode_name, &mode)) return ctx.Error("unknown mode '" + mode_name + "'");
  if (!grid_sample::ParsePad(pm, &pad)) return ctx.Error("unknown padding_mode '" + pm + "'");
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
        if (!grid_sample::Samplable(ix, iy)) {
          v = 0;
        } else if (mode == Mode::kBicubic) {
          const double fx = std::floor(ix), fy = std::floor(iy);
          double wx[4], wy[4];
          CubicWeights(ix - fx, wx);
          CubicWeights(iy - fy, wy);
          const int64_t x0 = static_cast<int64_t>(fx) - 1, y0 = static_cast<int64_t>(fy) - 1;
          for (int r = 0; r < 4; ++r) {
            double row = 0;
            for (int q = 0; q < 4; ++q) row += wx[q] * At(plane, s.TapIndex(y0 + r, x0 + q));
            v += wy[r] * row;
          }
        } else {
          const double sx = s.Fold(ix, w), sy = s.Fold(iy, h);
          if (mode == Mode::kNearest) {
            v = At(plane, s.Index(static_cast<int64_t>(std::nearbyint(sy)), static_cast<int64_t>(std::nearbyint(sx))));
          } else {
            const double fx = std::floor(sx), fy = std::floor(sy);
            const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
            const double lx = sx - fx, ly = sy - fy;
            v = (1 - ly) * ((1 - lx) * At(plane, s.Index(y0, x0)) + lx * At(plane, s.Index(y0, x0 + 1))) +
                ly * ((1 - lx) * At(plane, s.Index(y0 + 1, x0)) + lx * At(plane, s.Index(y0 + 1, x0 + 1)));
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
