#include "kernels/exec/im2col_conv_kernel.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/nhwc_conv.h"
#include "kernels/exec/packed_gemm.h"

namespace ge::exec {
namespace {

// Patch rows gathered per chunk: about this many bytes, so that a chunk's rows stay in L2 / L3 while every panel
// of the weights passes over them.
constexpr int64_t kChunkBytes = 2 << 20;
constexpr int64_t kRowsPerUnit = 24;    // GEMM rows one parallel unit multiplies: 4 register tiles
constexpr int64_t kPanelsPerUnit = 4;   // and 64 output channels

struct Geometry {
  int64_t n = 0, h = 0, w = 0, ic = 0, oc = 0, oh = 0, ow = 0, kh = 0, kw = 0;
  int64_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  int64_t chunk = 0;  // output pixels per chunk
  int64_t k() const { return kh * kw * ic; }
  int64_t pixels() const { return n * oh * ow; }
};

using Act = ConvAct;
using Epilogue = ConvEpilogue;

// The patch of output pixel `pixel` (over the batch) into row[K], ordered (i, j, c) as the packed weights.
void GatherPatch(const Geometry& g, const float* x, int64_t pixel, float* row) {
  const int64_t b = pixel / (g.oh * g.ow), r = pixel % (g.oh * g.ow);
  const int64_t y0 = (r / g.ow) * g.stride_h - g.pad_top, x0 = (r % g.ow) * g.stride_w - g.pad_left;
  const float* image = x + b * g.h * g.w * g.ic;
  const size_t bytes = static_cast<size_t>(g.ic) * sizeof(float);
  for (int64_t i = 0; i < g.kh; ++i) {
    const int64_t yy = y0 + i;
    for (int64_t j = 0; j < g.kw; ++j) {
      const int64_t xx = x0 + j;
      float* dst = row + (i * g.kw + j) * g.ic;
      if (yy >= 0 && yy < g.h && xx >= 0 && xx < g.w) {
        std::memcpy(dst, image + (yy * g.w + xx) * g.ic, bytes);
      } else {
        std::memset(dst, 0, bytes);
      }
    }
  }
}

class Im2colConvKernel final : public PreparedKernel {
 public:
  Im2colConvKernel(const Geometry& g, PackedMatrix b, bool has_bias, bool has_sum, Epilogue e)
      : g_(g), b_(std::move(b)), has_bias_(has_bias), has_sum_(has_sum), epilogue_(e) {
    fn_ = &Task;
    num_inputs_ = has_sum ? 4 : has_bias ? 3 : 2;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.im2col_conv"; }
  size_t scratch_bytes() const override { return ScratchFloats() * sizeof(float); }

 protected:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(ScratchFloats()));
  }
  StatusOr<std::unique_ptr<KernelState>> CreateStateOnScratch(void* scratch) const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(scratch));
  }

 private:
  // The patch rows of a chunk, then (with a Sum) its products: the Sum may be Y's own buffer (the planner runs a
  // residual add in place), so the GEMM cannot write Y before the Sum is read.
  size_t ScratchFloats() const { return static_cast<size_t>(g_.chunk * (g_.k() + (has_sum_ ? g_.oc : 0))); }

  // The GEMM applies the bias, and Relu when nothing comes between; a Sum or Clip is applied after, per unit.
  bool GemmActivates() const { return !has_sum_ && epilogue_.act == Act::kRelu; }

  // Y = act(products + Sum) over rows [r0, r1) and channels [c0, c1) of the chunk; products may be Y itself.
  void Finish(const float* products, const float* sum, float* y, int64_t r0, int64_t r1, int64_t c0,
              int64_t c1) const {
    if (!has_sum_ && epilogue_.act != Act::kClip) return;
    const float lo = epilogue_.act == Act::kClip ? epilogue_.lo : 0.f, hi = epilogue_.hi;
    for (int64_t r = r0; r < r1; ++r) {
      const float* p = products + r * g_.oc;
      const float* s = has_sum_ ? sum + r * g_.oc : nullptr;
      float* row = y + r * g_.oc;
      for (int64_t c = c0; c < c1; ++c) {
        float v = p[c] + (s != nullptr ? s[c] : 0.f);
        if (epilogue_.act != Act::kNone) v = std::max(v, lo);
        if (epilogue_.act == Act::kClip) v = std::min(v, hi);
        row[c] = v;
      }
    }
  }

  void Chunk(rt::TaskContext& ctx, const float* x, const float* bias, const float* sum, float* y, float* a,
             int64_t first, int64_t count) const {
    const Geometry& g = g_;
    const int64_t k = g.k();
    ParallelUnits(ctx, count, k, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) GatherPatch(g, x, first + p, a + p * k);
    });
    const int64_t row_blocks = (count + kRowsPerUnit - 1) / kRowsPerUnit;
    const int64_t panels = (g.oc + kPanel - 1) / kPanel;
    const int64_t panel_groups = (panels + kPanelsPerUnit - 1) / kPanelsPerUnit;
    const GemmActivation act = GemmActivates() ? GemmActivation::kRelu : GemmActivation::kNone;
    float* out = y + first * g.oc;
    float* products = has_sum_ ? a + g.chunk * k : out;
    const float* sum_rows = sum != nullptr ? sum + first * g.oc : nullptr;
    ParallelUnits(ctx, row_blocks * panel_groups, kRowsPerUnit * kPanelsPerUnit * kPanel * k / 8,
                  [&](int64_t u0, int64_t u1) {
                    for (int64_t u = u0; u < u1; ++u) {
                      const int64_t r0 = (u / panel_groups) * kRowsPerUnit, r1 = std::min(count, r0 + kRowsPerUnit);
                      const int64_t q0 = (u % panel_groups) * kPanelsPerUnit;
                      const int64_t q1 = std::min(panels, q0 + kPanelsPerUnit);
                      PackedGemm(r0, r1, q0, q1, a, k, b_, bias, act, products, g.oc);
                      Finish(products, sum_rows, out, r0, r1, q0 * kPanel, std::min(g.oc, q1 * kPanel));
                    }
                  });
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<Im2colConvKernel>(binding);
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    const auto* bias = k.has_bias_ ? static_cast<const float*>(binding.io.inputs[2]) : nullptr;
    const auto* sum = k.has_sum_ ? static_cast<const float*>(binding.io.inputs[3]) : nullptr;
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    float* a = static_cast<const ScratchState&>(*binding.state).buffer();
    const int64_t total = k.g_.pixels();
    for (int64_t first = 0; first < total; first += k.g_.chunk) {
      k.Chunk(ctx, x, bias, sum, y, a, first, std::min(k.g_.chunk, total - first));
    }
    return Status::Ok();
  }

  Geometry g_;
  PackedMatrix b_;  // [KH*KW*IC x OC], rows ordered (i, j, c)
  bool has_bias_, has_sum_;
  Epilogue epilogue_;
};

// W [OC][IC][KH][KW] as B^T [OC][KH*KW*IC] (rows of B ordered (i, j, c)), packed.
PackedMatrix PackWeights(const float* w, const Geometry& g) {
  const int64_t k = g.k();
  std::vector<float> bt(static_cast<size_t>(g.oc * k));
  for (int64_t o = 0; o < g.oc; ++o) {
    for (int64_t c = 0; c < g.ic; ++c) {
      for (int64_t i = 0; i < g.kh; ++i) {
        for (int64_t j = 0; j < g.kw; ++j) {
          bt[o * k + (i * g.kw + j) * g.ic + c] = w[((o * g.ic + c) * g.kh + i) * g.kw + j];
        }
      }
    }
  }
  return PackB(bt.data(), k, g.oc, k, true);
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareIm2colConvNhwc(const PrepareRequest& r) {
  if (!PackedGemmAllowed(r.max_isa)) return nullptr;
  const std::optional<NhwcConv> c = ParseNhwcConv(r);
  if (!c) return nullptr;
  const Dims& x = c->x;
  const Dims& want = c->y;
  const nn::Window& win = c->window;
  const Dims& wd = c->w->dims();
  Geometry g;
  g.n = x[0];
  g.ic = x[1];
  g.h = x[2];
  g.w = x[3];
  g.oc = wd[0];
  g.kh = wd[2];
  g.kw = wd[3];
  g.oh = want[2];
  g.ow = want[3];
  g.stride_h = win.strides[0];
  g.stride_w = win.strides[1];
  g.pad_top = win.pads[0];
  g.pad_left = win.pads[1];
  if (g.pixels() < 1 || g.oc < 1 || g.ic < 1) return nullptr;
  const int64_t row_bytes = g.k() * static_cast<int64_t>(sizeof(float));
  const int64_t rows = std::max(kRowsPerUnit, (kChunkBytes / row_bytes) / kRowsPerUnit * kRowsPerUnit);
  g.chunk = std::min(rows, g.pixels());
  return std::make_unique<Im2colConvKernel>(g, PackWeights(c->w->data<float>(), g), c->has_bias, c->has_sum,
                                            c->epilogue);
}

}  // namespace ge::exec
