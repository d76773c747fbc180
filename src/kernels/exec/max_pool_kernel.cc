#include "kernels/exec/max_pool_kernel.h"

#include <algorithm>
#include <immintrin.h>

#include <cmath>
#include <limits>

#include "base/isa.h"
#include "kernels/exec/kernel_util.h"
#include "ops/nn/window_util.h"

namespace ge::exec {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// y[k] = max over the rows x cols taps (tap (i, j) at x + i * step_h + j * step_w, elements) of t[k], for k < c,
// starting from -inf: `v > acc ? v : acc` skips NaN and is the CPU's max instruction (MAXPS returns its second
// operand unless the first is greater). Returns whether some y[k] is still -inf (an all-NaN window, or one whose
// numbers are all -inf: the caller tells them apart). The vector builds keep a block of channels in registers over
// all taps and store it once; the baseline build is the plain loop.
bool MaxPixelBaseline(const float* x, int64_t rows, int64_t cols, int64_t step_h, int64_t step_w, int64_t c,
                      float* __restrict y) {
  for (int64_t k = 0; k < c; ++k) y[k] = kNegInf;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const float* __restrict t = x + i * step_h + j * step_w;
      for (int64_t k = 0; k < c; ++k) y[k] = t[k] > y[k] ? t[k] : y[k];
    }
  }
  bool any = false;
  for (int64_t k = 0; k < c; ++k) any |= y[k] == kNegInf;
  return any;
}

// GCC 12 reports its own _mm512_undefined_*() placeholders in the unmasked AVX-512 intrinsics as uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// P pixels (1 or 2) whose windows have the same taps, each `pstep` elements after the previous one's (written to y,
// y + c): two pixels keep eight accumulators in flight instead of four, as the max's latency, not the loads,
// bounds one pixel.
template <int P>
__attribute__((target("avx512f"))) bool MaxPixelsAvx512(const float* x, int64_t rows, int64_t cols, int64_t step_h,
                                                        int64_t step_w, int64_t pstep, int64_t c, float* __restrict y) {
  const __m512 neg_inf = _mm512_set1_ps(kNegInf);
  __mmask16 any = 0;
  int64_t k = 0;
  for (; k + 64 <= c; k += 64) {
    __m512 a[4 * P];
    for (__m512& v : a) v = neg_inf;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const float* t = x + i * step_h + j * step_w + k;
        for (int p = 0; p < P; ++p) {
          for (int v = 0; v < 4; ++v)
            a[4 * p + v] = _mm512_max_ps(_mm512_loadu_ps(t + p * pstep + 16 * v), a[4 * p + v]);
        }
      }
    }
    for (int p = 0; p < P; ++p) {
      for (int v = 0; v < 4; ++v) {
        _mm512_storeu_ps(y + p * c + k + 16 * v, a[4 * p + v]);
        any |= _mm512_cmp_ps_mask(a[4 * p + v], neg_inf, _CMP_EQ_OQ);
      }
    }
  }
  for (; k < c; k += 16) {
    const __mmask16 m = c - k >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (c - k)) - 1);
    __m512 a[P];
    for (__m512& v : a) v = neg_inf;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const float* t = x + i * step_h + j * step_w + k;
        for (int p = 0; p < P; ++p) a[p] = _mm512_max_ps(_mm512_maskz_loadu_ps(m, t + p * pstep), a[p]);
      }
    }
    for (int p = 0; p < P; ++p) {
      _mm512_mask_storeu_ps(y + p * c + k, m, a[p]);
      any |= _mm512_mask_cmp_ps_mask(m, a[p], neg_inf, _CMP_EQ_OQ);
    }
  }
  return any != 0;
}

__attribute__((target("avx512f"))) bool MaxPixelAvx512(const float* x, int64_t rows, int64_t cols, int64_t step_h,
                                                       int64_t step_w, int64_t c, float* __restrict y) {
  return MaxPixelsAvx512<1>(x, rows, cols, step_h, step_w, 0, c, y);
}

#pragma GCC diagnostic pop

__attribute__((target("avx2"))) bool MaxPixelAvx2(const float* x, int64_t rows, int64_t cols, int64_t step_h,
                                                  int64_t step_w, int64_t c, float* __restrict y) {
  const __m256 neg_inf = _mm256_set1_ps(kNegInf);
  __m256 any = _mm256_setzero_ps();
  int64_t k = 0;
  for (; k + 32 <= c; k += 32) {
    __m256 a0 = neg_inf, a1 = neg_inf, a2 = neg_inf, a3 = neg_inf;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const float* t = x + i * step_h + j * step_w + k;
        a0 = _mm256_max_ps(_mm256_loadu_ps(t), a0);
        a1 = _mm256_max_ps(_mm256_loadu_ps(t + 8), a1);
        a2 = _mm256_max_ps(_mm256_loadu_ps(t + 16), a2);
        a3 = _mm256_max_ps(_mm256_loadu_ps(t + 24), a3);
      }
    }
    _mm256_storeu_ps(y + k, a0);
    _mm256_storeu_ps(y + k + 8, a1);
    _mm256_storeu_ps(y + k + 16, a2);
    _mm256_storeu_ps(y + k + 24, a3);
    any = _mm256_or_ps(
        any,
        _mm256_or_ps(_mm256_or_ps(_mm256_cmp_ps(a0, neg_inf, _CMP_EQ_OQ), _mm256_cmp_ps(a1, neg_inf, _CMP_EQ_OQ)),
                     _mm256_or_ps(_mm256_cmp_ps(a2, neg_inf, _CMP_EQ_OQ), _mm256_cmp_ps(a3, neg_inf, _CMP_EQ_OQ))));
  }
  for (; k + 8 <= c; k += 8) {
    __m256 a = neg_inf;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) a = _mm256_max_ps(_mm256_loadu_ps(x + i * step_h + j * step_w + k), a);
    }
    _mm256_storeu_ps(y + k, a);
    any = _mm256_or_ps(any, _mm256_cmp_ps(a, neg_inf, _CMP_EQ_OQ));
  }
  const bool tail = k < c && MaxPixelBaseline(x + k, rows, cols, step_h, step_w, c - k, y + k);
  return tail || _mm256_movemask_ps(any) != 0;
}

template <bool (*kPixel)(const float*, int64_t, int64_t, int64_t, int64_t, int64_t, float*)>
bool TwoPixels(const float* x, int64_t rows, int64_t cols, int64_t step_h, int64_t step_w, int64_t pstep, int64_t c,
               float* y) {
  const bool first = kPixel(x, rows, cols, step_h, step_w, c, y);
  return kPixel(x + pstep, rows, cols, step_h, step_w, c, y + c) || first;
}

using MaxPixelFn = bool (*)(const float*, int64_t, int64_t, int64_t, int64_t, int64_t, float*);
using MaxPixelPairFn = bool (*)(const float*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, float*);
struct MaxPixelLoops {
  MaxPixelFn one;
  MaxPixelPairFn two;
};

MaxPixelLoops PickMaxPixel(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {MaxPixelAvx512, MaxPixelsAvx512<2>};
    case LoopIsa::kAvx2:
      return {MaxPixelAvx2, TwoPixels<MaxPixelAvx2>};
    case LoopIsa::kBaseline:
      break;
  }
  return {MaxPixelBaseline, TwoPixels<MaxPixelBaseline>};
}

// The taps i < k of a window starting at `start` (step d) that fall inside [0, extent): first and count.
void TapRange(int64_t start, int64_t k, int64_t d, int64_t extent, int64_t* first, int64_t* count) {
  *first = start < 0 ? (-start + d - 1) / d : 0;
  const int64_t end = start >= extent ? 0 : std::min(k, (extent - start + d - 1) / d);
  *count = std::max<int64_t>(0, end - *first);
}

struct PoolGeometry {
  int64_t n = 0, c = 0, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pad_top = 0, pad_left = 0;
};

class MaxPoolNhwcKernel final : public PreparedKernel {
 public:
  MaxPoolNhwcKernel(const PoolGeometry& g, MaxPixelLoops loops) : g_(g), loops_(loops) {
    fn_ = &Task;
    num_inputs_ = 1;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.max_pool"; }

 private:
  // Output row r of [N * OH] rows.
  void Row(const float* x, float* y, int64_t r) const {
    const PoolGeometry& g = g_;
    const int64_t b = r / g.oh, oh = r % g.oh;
    const int64_t ih0 = oh * g.sh - g.pad_top;
    int64_t i_first = 0, rows = 0;
    TapRange(ih0, g.kh, g.dh, g.h, &i_first, &rows);
    const int64_t step_h = g.dh * g.w * g.c, step_w = g.dw * g.c;
    const float* image = x + b * g.h * g.w * g.c;
    float* out = y + r * g.ow * g.c;
    for (int64_t ow = 0; ow < g.ow;) {
      const int64_t iw0 = ow * g.sw - g.pad_left;
      int64_t j_first = 0, cols = 0;
      TapRange(iw0, g.kw, g.dw, g.w, &j_first, &cols);
      const float* base = image + ((ih0 + i_first * g.dh) * g.w + iw0 + j_first * g.dw) * g.c;
      if (rows == 0 || cols == 0) base = image;  // no tap: the loops read nothing
      int64_t j_next = 0, cols_next = -1;
      if (ow + 1 < g.ow) TapRange(iw0 + g.sw, g.kw, g.dw, g.w, &j_next, &cols_next);
      if (rows > 0 && cols > 0 && j_next == j_first && cols_next == cols) {  // the next window's taps line up
        const int64_t pstep = g.sw * g.c;
        if (loops_.two(base, rows, cols, step_h, step_w, pstep, g.c, out)) {
          FixNoNumber(base, rows, cols, step_h, step_w, out);
          FixNoNumber(base + pstep, rows, cols, step_h, step_w, out + g.c);
        }
        ow += 2;
        out += 2 * g.c;
        continue;
      }
      if (loops_.one(base, rows, cols, step_h, step_w, g.c, out)) FixNoNumber(base, rows, cols, step_h, step_w, out);
      ++ow;
      out += g.c;
    }
  }

  // Where a channel's max stayed -inf: the lowest float when its window holds no number (as the reference kernel
  // gives), else -inf (some tap was -inf).
  void FixNoNumber(const float* base, int64_t rows, int64_t cols, int64_t step_h, int64_t step_w, float* out) const {
    for (int64_t k = 0; k < g_.c; ++k) {
      if (out[k] != kNegInf) continue;
      bool number = false;
      for (int64_t i = 0; i < rows && !number; ++i) {
        for (int64_t j = 0; j < cols && !number; ++j) number = !std::isnan(base[i * step_h + j * step_w + k]);
      }
      if (!number) out[k] = std::numeric_limits<float>::lowest();
    }
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<MaxPoolNhwcKernel>(binding);
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    const PoolGeometry& g = k.g_;
    // Work per output row: its elements times the taps each reads.
    const int64_t per_row = g.ow * g.c * std::max<int64_t>(1, g.kh * g.kw);
    ParallelUnits(ctx, g.n * g.oh, per_row, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) k.Row(x, y, r);
    });
    return Status::Ok();
  }

  PoolGeometry g_;
  MaxPixelLoops loops_;
};

}  // namespace

std::unique_ptr<PreparedKernel> PrepareMaxPoolNhwc(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (!node.domain().empty() || node.op_type() != "MaxPool" || HasVaryingDims(r)) return nullptr;
  if (r.input_descs.size() != 1 || r.output_descs.empty() || !InputPresent(r, 0) || !OutputPresent(r, 0) ||
      (r.output_descs.size() > 1 && OutputPresent(r, 1))) {
    return nullptr;
  }
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& y = r.output_descs[0];
  if (x.dtype != DataType::kFloat || y.dtype != DataType::kFloat || x.format != Format::kNHWC ||
      y.format != Format::kNHWC || x.shape.rank() != 4 || y.shape.rank() != 4) {
    return nullptr;
  }
  nn::Window win;
  if (!nn::ParseWindow(node.attrs(), 2, nullptr, true, &win).ok()) return nullptr;
  const Dims& xd = x.shape.dims();
  Dims want = {xd[0], xd[1]};
  for (int i = 0; i < 2; ++i) {
    StatusOr<int64_t> o = nn::WindowOutputDim(&win, i, xd[i + 2]);
    if (!o.ok()) return nullptr;
    want.push_back(*o);
  }
  if (want != y.shape.dims()) return nullptr;
  PoolGeometry g;
  g.n = xd[0];
  g.c = xd[1];
  g.h = xd[2];
  g.w = xd[3];
  g.oh = want[2];
  g.ow = want[3];
  g.kh = win.kernel[0];
  g.kw = win.kernel[1];
  g.sh = win.strides[0];
  g.sw = win.strides[1];
  g.dh = win.dilations[0];
  g.dw = win.dilations[1];
  g.pad_top = win.pads[0];
  g.pad_left = win.pads[1];
  return std::make_unique<MaxPoolNhwcKernel>(g, PickMaxPixel(r.max_isa));
}

}  // namespace ge::exec
