#include "kernels/exec/max_pool_plain_kernel.h"

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

// The input rows one output row reads, in the reference kernel's tap order (depth taps outer, height taps inner):
// row (a, b) starts at base + a * step_d + b * step_h.
struct TapRows {
  const float* base = nullptr;
  int64_t nd = 0, step_d = 0, nh = 0, step_h = 0;
};

// Along the row (elements): the window's taps, stride, dilation and begin pad; outputs [lo, hi) have every tap in
// [0, in_w) (the vector loops' range), the others are borders.
struct RowWindow {
  int64_t in_w = 0, out_w = 0, k = 1, s = 1, d = 1, pad = 0, lo = 0, hi = 0;
};

// The taps j < k of a window starting at `start` (step d) that fall inside [0, extent): first and count.
void TapRange(int64_t start, int64_t k, int64_t d, int64_t extent, int64_t* first, int64_t* count) {
  *first = start < 0 ? (-start + d - 1) / d : 0;
  const int64_t end = start >= extent ? 0 : std::min(k, (extent - start + d - 1) / d);
  *count = std::max<int64_t>(0, end - *first);
}

// Output o of the row, tap by tap as the reference kernel takes them: `v > acc ? v : acc` from -inf skips NaN and
// keeps the first of equal values (-0 before +0); a window holding no number gives the lowest float.
float OneOutput(const TapRows& t, const RowWindow& w, int64_t o) {
  const int64_t start = o * w.s - w.pad;
  int64_t first = 0, count = 0;
  TapRange(start, w.k, w.d, w.in_w, &first, &count);
  float acc = kNegInf;
  bool number = false;
  for (int64_t a = 0; a < t.nd; ++a) {
    for (int64_t b = 0; b < t.nh; ++b) {
      const float* row = t.base + a * t.step_d + b * t.step_h + start + first * w.d;
      for (int64_t j = 0; j < count; ++j) {
        const float v = row[j * w.d];
        acc = v > acc ? v : acc;
        number |= v == v;
      }
    }
  }
  return number ? acc : std::numeric_limits<float>::lowest();
}

void Borders(const TapRows& t, const RowWindow& w, float* y) {
  for (int64_t o = 0; o < std::min(w.lo, w.out_w); ++o) y[o] = OneOutput(t, w, o);
  for (int64_t o = std::max(w.lo, w.hi); o < w.out_w; ++o) y[o] = OneOutput(t, w, o);
}

void RowBaseline(const TapRows& t, const RowWindow& w, float* y) {
  for (int64_t o = 0; o < w.out_w; ++o) y[o] = OneOutput(t, w, o);
}

// GCC 12 reports its own _mm512_undefined_*() placeholders in the unmasked AVX-512 intrinsics as uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// n (1..16) elements p[0], p[S], ..., p[(n - 1) S] into lanes (S = 0: the stride `s`, gathered); lanes past n hold
// -inf. Reads no element past p[(n - 1) S].
template <int S>
__attribute__((target("avx512f"))) __m512 LoadLanesAvx512(const float* p, int64_t n, int64_t s) {
  const __m512 neg_inf = _mm512_set1_ps(kNegInf);
  const __mmask16 m = static_cast<__mmask16>((1u << n) - 1);
  if constexpr (S == 1) {
    return _mm512_mask_loadu_ps(neg_inf, m, p);
  } else if constexpr (S == 2) {
    const int64_t elems = 2 * n - 1;
    const __mmask16 m_lo = static_cast<__mmask16>(elems >= 16 ? 0xFFFFu : (1u << elems) - 1);
    const __mmask16 m_hi = static_cast<__mmask16>(elems <= 16 ? 0u : (1u << (elems - 16)) - 1);
    const __m512 lo = _mm512_maskz_loadu_ps(m_lo, p), hi = _mm512_maskz_loadu_ps(m_hi, p + 16);
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    return _mm512_mask_mov_ps(neg_inf, m, _mm512_permutex2var_ps(lo, even, hi));
  } else {
    const __m512i idx = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi32(static_cast<int>(s)));
    return _mm512_mask_i32gather_ps(neg_inf, m, idx, p, 4);
  }
}

template <int S>
__attribute__((target("avx512f"))) void RowAvx512(const TapRows& t, const RowWindow& w, float* y) {
  Borders(t, w, y);
  const __m512 neg_inf = _mm512_set1_ps(kNegInf);
  for (int64_t o = w.lo; o < w.hi; o += 16) {
    const int64_t n = std::min<int64_t>(16, w.hi - o);
    __m512 acc = neg_inf;
    const float* start = t.base + o * w.s - w.pad;
    for (int64_t a = 0; a < t.nd; ++a) {
      for (int64_t b = 0; b < t.nh; ++b) {
        const float* row = start + a * t.step_d + b * t.step_h;
        for (int64_t j = 0; j < w.k; ++j) acc = _mm512_max_ps(LoadLanesAvx512<S>(row + j * w.d, n, w.s), acc);
      }
    }
    const __mmask16 m = static_cast<__mmask16>((1u << n) - 1);
    _mm512_mask_storeu_ps(y + o, m, acc);
    __mmask16 none = _mm512_mask_cmp_ps_mask(m, acc, neg_inf, _CMP_EQ_OQ);
    for (int lane = 0; none != 0; ++lane, none >>= 1) {
      if (none & 1) y[o + lane] = OneOutput(t, w, o + lane);
    }
  }
}

#pragma GCC diagnostic pop

// Eight elements p[0], p[S], ..., p[7 S] (S = 0: the stride `s`, gathered); reads no element past p[7 S].
template <int S>
__attribute__((target("avx2"))) __m256 LoadLanesAvx2(const float* p, int64_t s) {
  if constexpr (S == 1) {
    return _mm256_loadu_ps(p);
  } else if constexpr (S == 2) {
    // a = p[0..7], b = p[7..14]: per 128-bit half {a0 a2 b1 b3} {a4 a6 b5 b7}, then the 64-bit pairs reordered.
    const __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 7);
    const __m256 mixed = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
  } else {
    const __m256i idx =
        _mm256_mullo_epi32(_mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0), _mm256_set1_epi32(static_cast<int>(s)));
    return _mm256_i32gather_ps(p, idx, 4);
  }
}

template <int S>
__attribute__((target("avx2"))) void RowAvx2(const TapRows& t, const RowWindow& w, float* y) {
  Borders(t, w, y);
  const __m256 neg_inf = _mm256_set1_ps(kNegInf);
  int64_t o = w.lo;
  for (; o + 8 <= w.hi; o += 8) {
    __m256 acc = neg_inf;
    const float* start = t.base + o * w.s - w.pad;
    for (int64_t a = 0; a < t.nd; ++a) {
      for (int64_t b = 0; b < t.nh; ++b) {
        const float* row = start + a * t.step_d + b * t.step_h;
        for (int64_t j = 0; j < w.k; ++j) acc = _mm256_max_ps(LoadLanesAvx2<S>(row + j * w.d, w.s), acc);
      }
    }
    _mm256_storeu_ps(y + o, acc);
    int none = _mm256_movemask_ps(_mm256_cmp_ps(acc, neg_inf, _CMP_EQ_OQ));
    for (int lane = 0; none != 0; ++lane, none >>= 1) {
      if (none & 1) y[o + lane] = OneOutput(t, w, o + lane);
    }
  }
  for (; o < w.hi; ++o) y[o] = OneOutput(t, w, o);
}

using RowFn = void (*)(const TapRows&, const RowWindow&, float*);

RowFn PickRow(IsaLevel max_level, int64_t stride) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return stride == 1 ? RowAvx512<1> : stride == 2 ? RowAvx512<2> : RowAvx512<0>;
    case LoopIsa::kAvx2:
      return stride == 1 ? RowAvx2<1> : stride == 2 ? RowAvx2<2> : RowAvx2<0>;
    case LoopIsa::kBaseline:
      break;
  }
  return RowBaseline;
}

// Spatial dims padded to three (a 1-D pool is D = H = 1), as the reference kernel pads them.
struct PlainPoolGeometry {
  int64_t planes = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
};

class MaxPoolPlainKernel final : public PreparedKernel {
 public:
  MaxPoolPlainKernel(const PlainPoolGeometry& g, RowFn row) : g_(g), row_fn_(row) {
    fn_ = &Task;
    num_inputs_ = 1;
    num_outputs_ = 1;
    w_.in_w = g.in[2];
    w_.out_w = g.out[2];
    w_.k = g.k[2];
    w_.s = g.s[2];
    w_.d = g.d[2];
    w_.pad = g.pad[2];
    // Outputs whose taps are all inside the row: o * s >= pad and o * s - pad + (k - 1) d <= in_w - 1.
    w_.lo = std::min(w_.out_w, (w_.pad + w_.s - 1) / w_.s);
    const int64_t last = w_.in_w - 1 - (w_.k - 1) * w_.d + w_.pad;
    w_.hi = last < 0 ? w_.lo : std::max(w_.lo, std::min(w_.out_w, last / w_.s + 1));
  }
  const char* impl_name() const override { return "exec.max_pool_plain"; }

 private:
  // Output row r of [planes * out_d * out_h] rows.
  void Row(const float* x, float* y, int64_t r) const {
    const PlainPoolGeometry& g = g_;
    const int64_t plane = r / (g.out[0] * g.out[1]), od = r / g.out[1] % g.out[0], oh = r % g.out[1];
    const int64_t id0 = od * g.s[0] - g.pad[0], ih0 = oh * g.s[1] - g.pad[1];
    int64_t d_first = 0, h_first = 0;
    TapRows t;
    TapRange(id0, g.k[0], g.d[0], g.in[0], &d_first, &t.nd);
    TapRange(ih0, g.k[1], g.d[1], g.in[1], &h_first, &t.nh);
    t.step_d = g.d[0] * g.in[1] * g.in[2];
    t.step_h = g.d[1] * g.in[2];
    t.base = x + plane * g.in[0] * g.in[1] * g.in[2];
    if (t.nd > 0 && t.nh > 0) t.base += ((id0 + d_first * g.d[0]) * g.in[1] + ih0 + h_first * g.d[1]) * g.in[2];
    row_fn_(t, w_, y + r * g.out[2]);
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<MaxPoolPlainKernel>(binding);
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    const PlainPoolGeometry& g = k.g_;
    // Work per output row: its elements times the taps each reads.
    const int64_t per_row = g.out[2] * std::max<int64_t>(1, g.k[0] * g.k[1] * g.k[2]);
    ParallelUnits(ctx, g.planes * g.out[0] * g.out[1], per_row, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) k.Row(x, y, r);
    });
    return Status::Ok();
  }

  PlainPoolGeometry g_;
  RowWindow w_;
  RowFn row_fn_;
};

}  // namespace

std::unique_ptr<PreparedKernel> PrepareMaxPoolPlain(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (!node.domain().empty() || node.op_type() != "MaxPool" || HasVaryingDims(r)) return nullptr;
  if (r.input_descs.size() != 1 || r.output_descs.empty() || !InputPresent(r, 0) || !OutputPresent(r, 0) ||
      (r.output_descs.size() > 1 && OutputPresent(r, 1))) {
    return nullptr;
  }
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& y = r.output_descs[0];
  const auto plain = [](Format f) { return f == Format::kND || f == Format::kNCHW; };
  const int rank = x.shape.rank();
  if (x.dtype != DataType::kFloat || y.dtype != DataType::kFloat || !plain(x.format) || !plain(y.format) || rank < 3 ||
      rank > 5 || y.shape.rank() != rank) {
    return nullptr;
  }
  const int nsp = rank - 2;
  nn::Window win;
  if (!nn::ParseWindow(node.attrs(), nsp, nullptr, true, &win).ok()) return nullptr;
  const Dims& xd = x.shape.dims();
  Dims want = {xd[0], xd[1]};
  PlainPoolGeometry g;
  g.planes = xd[0] * xd[1];
  const int off = 3 - nsp;
  for (int i = 0; i < nsp; ++i) {
    StatusOr<int64_t> o = nn::WindowOutputDim(&win, i, xd[i + 2]);
    if (!o.ok()) return nullptr;
    want.push_back(*o);
    g.in[off + i] = xd[i + 2];
    g.out[off + i] = *o;
    g.k[off + i] = win.kernel[i];
    g.s[off + i] = win.strides[i];
    g.d[off + i] = win.dilations[i];
    g.pad[off + i] = win.pads[i];
  }
  if (want != y.shape.dims()) return nullptr;
  for (int64_t v : want) {
    if (v <= 0) return nullptr;
  }
  // The gather's element offsets are 32-bit.
  if (g.s[2] * 16 > std::numeric_limits<int32_t>::max()) return nullptr;
  return std::make_unique<MaxPoolPlainKernel>(g, PickRow(r.max_isa, g.s[2]));
}

}  // namespace ge::exec
