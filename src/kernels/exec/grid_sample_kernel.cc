#include "kernels/exec/grid_sample_kernel.h"

#include <cmath>

#include "kernels/exec/kernel_util.h"
#include "kernels/ref/nn/grid_sample_plan.h"

namespace ge::exec {
namespace {

using ref::grid_sample::Mode;
using ref::grid_sample::Sampler;

class GridSampleKernel final : public PreparedKernel {
 public:
  GridSampleKernel(Sampler sampler, Mode mode, int64_t n, int64_t c, int64_t ho, int64_t wo, int num_inputs)
      : sampler_(sampler), mode_(mode), n_(n), c_(c), ho_(ho), wo_(wo) {
    fn_ = &Task;
    num_inputs_ = num_inputs;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.grid_sample"; }

 private:
  // The value at flat index i of a plane, 0 for -1 (a tap outside).
  static double At(const float* plane, int64_t i) { return i >= 0 ? static_cast<double>(plane[i]) : 0.0; }

  // Output pixels [p0, p1) of image `b` (flat over Ho x Wo), every channel.
  void Pixels(const float* x, const float* grid, float* y, int64_t b, int64_t p0, int64_t p1) const {
    const Sampler& s = sampler_;
    const int64_t plane = s.h * s.w, out_plane = ho_ * wo_;
    const float* xb = x + b * c_ * plane;
    float* yb = y + b * c_ * out_plane;
    for (int64_t i = p0; i < p1; ++i) {
      const float* g = grid + (b * out_plane + i) * 2;
      const double ix = s.Unnormalize(static_cast<double>(g[0]), s.w);
      const double iy = s.Unnormalize(static_cast<double>(g[1]), s.h);
      if (!ref::grid_sample::Samplable(ix, iy)) {
        for (int64_t ch = 0; ch < c_; ++ch) yb[ch * out_plane + i] = 0.f;
        continue;
      }
      if (mode_ == Mode::kBicubic) {
        const double fx = std::floor(ix), fy = std::floor(iy);
        double wx[4], wy[4];
        ref::grid_sample::CubicWeights(ix - fx, wx);
        ref::grid_sample::CubicWeights(iy - fy, wy);
        const int64_t x0 = static_cast<int64_t>(fx) - 1, y0 = static_cast<int64_t>(fy) - 1;
        int64_t taps[4][4];
        for (int r = 0; r < 4; ++r) {
          for (int q = 0; q < 4; ++q) taps[r][q] = s.TapIndex(y0 + r, x0 + q);
        }
        for (int64_t ch = 0; ch < c_; ++ch) {
          const float* src = xb + ch * plane;
          double v = 0;
          for (int r = 0; r < 4; ++r) {
            double row = 0;
            for (int q = 0; q < 4; ++q) row += wx[q] * At(src, taps[r][q]);
            v += wy[r] * row;
          }
          yb[ch * out_plane + i] = static_cast<float>(v);
        }
        continue;
      }
      const double sx = s.Fold(ix, s.w), sy = s.Fold(iy, s.h);
      if (mode_ == Mode::kNearest) {
        const int64_t t = s.Index(static_cast<int64_t>(std::nearbyint(sy)), static_cast<int64_t>(std::nearbyint(sx)));
        for (int64_t ch = 0; ch < c_; ++ch) yb[ch * out_plane + i] = static_cast<float>(At(xb + ch * plane, t));
        continue;
      }
      const double fx = std::floor(sx), fy = std::floor(sy);
      const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
      const double lx = sx - fx, ly = sy - fy;
      const int64_t t00 = s.Index(y0, x0), t01 = s.Index(y0, x0 + 1);
      const int64_t t10 = s.Index(y0 + 1, x0), t11 = s.Index(y0 + 1, x0 + 1);
      for (int64_t ch = 0; ch < c_; ++ch) {
        const float* src = xb + ch * plane;
        // The reference kernel's expression, term for term.
        const double v = (1 - ly) * ((1 - lx) * At(src, t00) + lx * At(src, t01)) +
                         ly * ((1 - lx) * At(src, t10) + lx * At(src, t11));
        yb[ch * out_plane + i] = static_cast<float>(v);
      }
    }
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& bd = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<GridSampleKernel>(bd);
    const auto* x = static_cast<const float*>(bd.io.inputs[0]);
    const auto* grid = static_cast<const float*>(bd.io.inputs[1]);
    auto* y = static_cast<float*>(bd.io.outputs[0]);
    // Units: rows of output pixels over every image.
    ParallelUnits(ctx, k.n_ * k.ho_, k.wo_ * k.c_, [&](size_t u0, size_t u1) {
      for (size_t u = u0; u < u1; ++u) {
        const int64_t b = static_cast<int64_t>(u) / k.ho_, row = static_cast<int64_t>(u) % k.ho_;
        k.Pixels(x, grid, y, b, row * k.wo_, (row + 1) * k.wo_);
      }
    });
    return Status::Ok();
  }

  Sampler sampler_;
  Mode mode_;
  int64_t n_, c_, ho_, wo_;
};

bool PlainFloat4d(const TensorDesc& d) {
  return d.dtype == DataType::kFloat && !IsNonPlainLayout(d.format) && d.shape.rank() == 4;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareGridSample(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() != 2 || node.num_outputs() != 1) return nullptr;
  if (!InputPresent(r, 0) || !InputPresent(r, 1) || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& grid = r.input_descs[1];
  const TensorDesc& y = r.output_descs[0];
  if (!PlainFloat4d(x) || !PlainFloat4d(grid) || !PlainFloat4d(y)) return nullptr;
  const Dims& xd = x.shape.dims();
  const Dims& gd = grid.shape.dims();
  if (gd[0] != xd[0] || gd[3] != 2 || y.shape.dims() != Dims{xd[0], xd[1], gd[1], gd[2]}) return nullptr;
  const ir::AttrMap& a = node.attrs();
  Mode mode;
  ref::grid_sample::Pad pad;
  if (!ref::grid_sample::ParseMode(a.GetString("mode", "bilinear"), &mode) ||
      !ref::grid_sample::ParsePad(a.GetString("padding_mode", "zeros"), &pad)) {
    return nullptr;
  }
  const Sampler sampler{xd[2], xd[3], a.GetInt("align_corners", 0) != 0, pad};
  return std::make_unique<GridSampleKernel>(sampler, mode, xd[0], xd[1], gd[1], gd[2], node.num_inputs());
}

}  // namespace ge::exec
