#include "kernels/exec/winograd_conv_kernel.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/isa.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/nhwc_conv.h"
#include "kernels/exec/packed_gemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GE_WINOGRAD_X86 1
#endif

namespace ge::exec {

bool WinogradConvAvailable(IsaLevel max_isa) { return PackedGemmAllowed(max_isa); }

#ifdef GE_WINOGRAD_X86
namespace {

constexpr int kAlpha = 6;                    // input tile side (F(4, 3): 4 + 3 - 1)
constexpr int kOut = 4;                      // output tile side
constexpr int kPositions = kAlpha * kAlpha;  // products per tile: one GEMM each
constexpr int64_t kMinTilesPerImage = 16;    // 14x14 outputs: below (ResNet-18 7x7x512: 2.8 vs 2.0 ms), reading the
                                             // transformed weights outweighs the saving
// Tiles transformed, multiplied and transformed back together: V and M of a chunk (36 x tiles x (IC + OC) floats)
// stay near this size, so that they live in L2 / L3 between the three phases, and the transformed weights are read
// once per chunk.
constexpr int64_t kChunkBytes = 4 << 20;
constexpr int64_t kGemmRowsPerUnit = 24;  // GEMM rows (tiles) one parallel unit multiplies: 4 register tiles

struct Geometry {
  int64_t n = 0, h = 0, w = 0, ic = 0, oc = 0, oh = 0, ow = 0, pad_top = 0, pad_left = 0;
  int64_t tiles_h = 0, tiles_w = 0, chunk = 0;  // tiles per chunk
  int64_t tiles_per_image() const { return tiles_h * tiles_w; }
};

// The 36 matrices U[pos] = [IC x OC] of the transformed weights u = G g G^T (W: [OC][IC][3][3]), computed in double
// for a panel of 16 output channels at a time and written straight into PackedGemm's layout ([OC / 16][IC][16],
// packed_gemm.h): u[a][b] = sum_m,k G[a][m] g[m][k] G[b][k].
std::vector<PackedMatrix> TransformWeights(const float* w, int64_t ic, int64_t oc) {
  static const double kG[kAlpha][3] = {{1.0 / 4, 0, 0},
                                       {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                       {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                       {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                       {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                       {0, 0, 1}};
  const int64_t panels = (oc + kPanel - 1) / kPanel;
  std::vector<PackedMatrix> packed(kPositions);
  for (PackedMatrix& m : packed) {
    m.k = ic;
    m.n = oc;
    m.data.assign(static_cast<size_t>(panels * ic * kPanel), 0.f);
  }
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t lanes = std::min(kPanel, oc - q * kPanel);
    for (int64_t i = 0; i < ic; ++i) {
      double g[9][kPanel] = {}, t[kAlpha][3][kPanel];  // g for 16 output channels; t = G g
      for (int64_t j = 0; j < lanes; ++j) {
        for (int e = 0; e < 9; ++e) g[e][j] = w[((q * kPanel + j) * ic + i) * 9 + e];
      }
      for (int a = 0; a < kAlpha; ++a) {
        for (int k = 0; k < 3; ++k) {
          for (int64_t j = 0; j < kPanel; ++j) {
            t[a][k][j] = kG[a][0] * g[k][j] + kG[a][1] * g[3 + k][j] + kG[a][2] * g[6 + k][j];
          }
        }
      }
      for (int a = 0; a < kAlpha; ++a) {
        for (int b = 0; b < kAlpha; ++b) {
          float* out = packed[a * kAlpha + b].data.data() + (q * ic + i) * kPanel;
          for (int64_t j = 0; j < lanes; ++j) {
            out[j] = static_cast<float>(t[a][0][j] * kG[b][0] + t[a][1][j] * kG[b][1] + t[a][2][j] * kG[b][2]);
          }
        }
      }
    }
  }
  return packed;
}

#define GE_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline

// out = B^T d over six vectors (one row or column of a 6x6 tile), B^T of F(4, 3) at points 0, +-1, +-2:
//   [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1]
GE_AVX2 void InputTransform6(const __m256 d[kAlpha], __m256 out[kAlpha]) {
  const __m256 four = _mm256_set1_ps(4.f), minus4 = _mm256_set1_ps(-4.f), minus5 = _mm256_set1_ps(-5.f);
  const __m256 two = _mm256_set1_ps(2.f);
  out[0] = _mm256_fmadd_ps(four, d[0], _mm256_fmadd_ps(minus5, d[2], d[4]));
  const __m256 a = _mm256_fmadd_ps(minus4, d[2], d[4]);  // d4 - 4 d2
  const __m256 b = _mm256_fmadd_ps(minus4, d[1], d[3]);  // d3 - 4 d1
  out[1] = _mm256_add_ps(a, b);
  out[2] = _mm256_sub_ps(a, b);
  const __m256 c = _mm256_sub_ps(d[4], d[2]);
  const __m256 e = _mm256_mul_ps(two, _mm256_sub_ps(d[3], d[1]));
  out[3] = _mm256_add_ps(c, e);
  out[4] = _mm256_sub_ps(c, e);
  out[5] = _mm256_fmadd_ps(four, d[1], _mm256_fmadd_ps(minus5, d[3], d[5]));
}

// y = A^T m over six vectors: A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
GE_AVX2 void OutputTransform6(const __m256 m[kAlpha], __m256 y[kOut]) {
  const __m256 s12 = _mm256_add_ps(m[1], m[2]), d12 = _mm256_sub_ps(m[1], m[2]);
  const __m256 s34 = _mm256_add_ps(m[3], m[4]), d34 = _mm256_sub_ps(m[3], m[4]);
  y[0] = _mm256_add_ps(_mm256_add_ps(m[0], s12), s34);
  y[1] = _mm256_fmadd_ps(_mm256_set1_ps(2.f), d34, d12);
  y[2] = _mm256_fmadd_ps(_mm256_set1_ps(4.f), s34, s12);
  y[3] = _mm256_add_ps(_mm256_fmadd_ps(_mm256_set1_ps(8.f), d34, d12), m[5]);
}

// The first `lanes` (0-8) lanes set, for masked loads and stores of a channel tail.
GE_AVX2 __m256i LaneMask(int64_t lanes) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(lanes)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

GE_AVX2 __m256 Load(const float* p, int64_t lanes, __m256i mask) {
  return lanes == 8 ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, mask);
}

using Act = ConvAct;
using Epilogue = ConvEpilogue;

// Input tile `tile` (global index over the batch) into V[pos][t][ic] (t: its row in the chunk).
__attribute__((target("avx2,fma"))) void TransformInputTile(const Geometry& g, const float* x, int64_t tile,
                                                            float* v, int64_t t) {
  const int64_t b = tile / g.tiles_per_image(), r = tile % g.tiles_per_image();
  const int64_t y0 = (r / g.tiles_w) * kOut - g.pad_top, x0 = (r % g.tiles_w) * kOut - g.pad_left;
  const float* image = x + b * g.h * g.w * g.ic;
  const float* src[kAlpha][kAlpha];  // nullptr: a padding element
  for (int i = 0; i < kAlpha; ++i) {
    for (int j = 0; j < kAlpha; ++j) {
      const int64_t yy = y0 + i, xx = x0 + j;
      src[i][j] = yy >= 0 && yy < g.h && xx >= 0 && xx < g.w ? image + (yy * g.w + xx) * g.ic : nullptr;
    }
  }
  const int64_t pos_stride = g.chunk * g.ic;
  float* dst = v + t * g.ic;
  for (int64_t c = 0; c < g.ic; c += 8) {
    const int64_t lanes = std::min<int64_t>(8, g.ic - c);
    const __m256i mask = LaneMask(lanes);
    __m256 rows[kAlpha][kAlpha];  // rows[i][b]: row i transformed along its columns
    for (int i = 0; i < kAlpha; ++i) {
      __m256 d[kAlpha];
      for (int j = 0; j < kAlpha; ++j) {
        d[j] = src[i][j] == nullptr ? _mm256_setzero_ps() : Load(src[i][j] + c, lanes, mask);
      }
      InputTransform6(d, rows[i]);
    }
    for (int bcol = 0; bcol < kAlpha; ++bcol) {
      __m256 col[kAlpha], out[kAlpha];
      for (int i = 0; i < kAlpha; ++i) col[i] = rows[i][bcol];
      InputTransform6(col, out);
      for (int a = 0; a < kAlpha; ++a) {
        float* at = dst + (a * kAlpha + bcol) * pos_stride + c;
        if (lanes == 8) {
          _mm256_storeu_ps(at, out[a]);
        } else {
          _mm256_maskstore_ps(at, mask, out[a]);
        }
      }
    }
  }
}

// M[pos][t][oc] back to the 4x4 output tile `tile`, with bias, residual sum and activation.
__attribute__((target("avx2,fma"))) void TransformOutputTile(const Geometry& g, const float* m, int64_t t,
                                                             int64_t tile, const float* bias, const float* sum,
                                                             const Epilogue& e, float* y) {
  const int64_t b = tile / g.tiles_per_image(), r = tile % g.tiles_per_image();
  const int64_t oy0 = (r / g.tiles_w) * kOut, ox0 = (r % g.tiles_w) * kOut;
  const int rows = static_cast<int>(std::min<int64_t>(kOut, g.oh - oy0));
  const int cols = static_cast<int>(std::min<int64_t>(kOut, g.ow - ox0));
  const int64_t pos_stride = g.chunk * g.oc;
  const float* src = m + t * g.oc;
  const int64_t image = b * g.oh * g.ow * g.oc;
  const __m256 lo = _mm256_set1_ps(e.act == Act::kRelu ? 0.f : e.lo), hi = _mm256_set1_ps(e.hi);
  for (int64_t c = 0; c < g.oc; c += 8) {
    const int64_t lanes = std::min<int64_t>(8, g.oc - c);
    const __m256i mask = LaneMask(lanes);
    __m256 half[kAlpha][kOut];  // half[a][q]: row a of M transformed along its columns
    for (int a = 0; a < kAlpha; ++a) {
      __m256 row[kAlpha];
      for (int bcol = 0; bcol < kAlpha; ++bcol) row[bcol] = Load(src + (a * kAlpha + bcol) * pos_stride + c, lanes, mask);
      OutputTransform6(row, half[a]);
    }
    const __m256 bv = bias != nullptr ? Load(bias + c, lanes, mask) : _mm256_setzero_ps();
    for (int q = 0; q < cols; ++q) {
      __m256 col[kAlpha], out[kOut];
      for (int a = 0; a < kAlpha; ++a) col[a] = half[a][q];
      OutputTransform6(col, out);
      for (int p = 0; p < rows; ++p) {
        const int64_t at = image + ((oy0 + p) * g.ow + ox0 + q) * g.oc + c;
        __m256 v = _mm256_add_ps(out[p], bv);
        if (sum != nullptr) v = _mm256_add_ps(v, Load(sum + at, lanes, mask));
        // max/min return their second operand when either is NaN: v second keeps NaN, as the reference does.
        if (e.act != Act::kNone) v = _mm256_max_ps(lo, v);
        if (e.act == Act::kClip) v = _mm256_min_ps(hi, v);
        if (lanes == 8) {
          _mm256_storeu_ps(y + at, v);
        } else {
          _mm256_maskstore_ps(y + at, mask, v);
        }
      }
    }
  }
}

#undef GE_AVX2

class WinogradConvKernel final : public PreparedKernel {
 public:
  WinogradConvKernel(const Geometry& g, std::vector<PackedMatrix> u, bool has_bias, bool has_sum, Epilogue e)
      : g_(g), u_(std::move(u)), has_bias_(has_bias), has_sum_(has_sum), epilogue_(e) {
    fn_ = &Task;
    num_inputs_ = has_sum ? 4 : has_bias ? 3 : 2;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.winograd_conv"; }
  size_t scratch_bytes() const override { return ScratchFloats() * sizeof(float); }

 protected:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(ScratchFloats()));
  }
  StatusOr<std::unique_ptr<KernelState>> CreateStateOnScratch(void* scratch) const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(scratch));
  }

 private:
  size_t ScratchFloats() const { return static_cast<size_t>(kPositions * g_.chunk * (g_.ic + g_.oc)); }

  void Chunk(rt::TaskContext& ctx, const float* x, const float* bias, const float* sum, float* y, float* v, float* m,
             int64_t first, int64_t count) const {
    const Geometry& g = g_;
    ParallelUnits(ctx, count, kPositions * g.ic, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) TransformInputTile(g, x, first + t, v, t);
    });
    const int64_t row_blocks = (count + kGemmRowsPerUnit - 1) / kGemmRowsPerUnit;
    const int64_t panels = (g.oc + kPanel - 1) / kPanel;
    ParallelUnits(ctx, kPositions * row_blocks, kGemmRowsPerUnit * g.ic * g.oc / 8, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t pos = u / row_blocks, r0 = (u % row_blocks) * kGemmRowsPerUnit;
        const int64_t r1 = std::min(count, r0 + kGemmRowsPerUnit);
        PackedGemm(r0, r1, 0, panels, v + pos * g.chunk * g.ic, g.ic, u_[pos], nullptr, GemmActivation::kNone,
                   m + pos * g.chunk * g.oc, g.oc);
      }
    });
    ParallelUnits(ctx, count, kPositions * g.oc, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) TransformOutputTile(g, m, t, first + t, bias, sum, epilogue_, y);
    });
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<WinogradConvKernel>(binding);
    const Geometry& g = k.g_;
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    const auto* bias = k.has_bias_ ? static_cast<const float*>(binding.io.inputs[2]) : nullptr;
    const auto* sum = k.has_sum_ ? static_cast<const float*>(binding.io.inputs[3]) : nullptr;
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    float* v = static_cast<const ScratchState&>(*binding.state).buffer();
    float* m = v + kPositions * g.chunk * g.ic;
    const int64_t total = g.n * g.tiles_per_image();
    for (int64_t first = 0; first < total; first += g.chunk) {
      k.Chunk(ctx, x, bias, sum, y, v, m, first, std::min(g.chunk, total - first));
    }
    return Status::Ok();
  }

  Geometry g_;
  std::vector<PackedMatrix> u_;  // U[pos], [IC x OC] packed
  bool has_bias_, has_sum_;
  Epilogue epilogue_;
};

}  // namespace

std::unique_ptr<PreparedKernel> PrepareWinogradConvNhwc(const PrepareRequest& r, WinogradPolicy policy) {
  if (!WinogradConvAvailable(r.max_isa)) return nullptr;
  const std::optional<NhwcConv> c = ParseNhwcConv(r);
  if (!c || c->window.kernel != std::vector<int64_t>{3, 3} || c->window.strides != std::vector<int64_t>{1, 1}) {
    return nullptr;
  }
  const Dims& x = c->x;
  const Dims& want = c->y;
  const nn::Window& win = c->window;
  const Tensor* w = c->w;
  const Dims& wd = w->dims();
  Geometry g;
  g.n = x[0];
  g.ic = x[1];
  g.h = x[2];
  g.w = x[3];
  g.oc = wd[0];
  g.oh = want[2];
  g.ow = want[3];
  g.pad_top = win.pads[0];
  g.pad_left = win.pads[1];
  g.tiles_h = (g.oh + kOut - 1) / kOut;
  g.tiles_w = (g.ow + kOut - 1) / kOut;
  if (policy == WinogradPolicy::kWherePays &&
      (g.ic < 16 || g.oc < 16 || g.tiles_per_image() < kMinTilesPerImage)) {
    return nullptr;
  }
  const int64_t per_tile = kPositions * (g.ic + g.oc) * static_cast<int64_t>(sizeof(float));
  g.chunk = std::min(std::max(kChunkBytes / per_tile, kGemmRowsPerUnit), g.n * g.tiles_per_image());
  return std::make_unique<WinogradConvKernel>(g, TransformWeights(w->data<float>(), g.ic, g.oc), c->has_bias,
                                              c->has_sum, c->epilogue);
}

#else

std::unique_ptr<PreparedKernel> PrepareWinogradConvNhwc(const PrepareRequest&, WinogradPolicy) { return nullptr; }

#endif

}  // namespace ge::exec
