#include "kernels/exec/depthwise_conv_plain_kernel.h"

#include <algorithm>
#include <immintrin.h>

#include <limits>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/nhwc_conv.h"
#include "ops/nn/window_util.h"

namespace ge::exec {
namespace {

// Spatial dims padded to two (a 1-D convolution is H = 1).
struct DepthwiseGeometry {
  int64_t n = 0, c = 0, in_h = 1, in_w = 0, out_h = 1, out_w = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pad_top = 0, pad_left = 0;
};

// Bits [lo, hi) of a 16-lane mask (none when hi <= lo); lo, hi are clamped to [0, 16].
__mmask16 LaneRange(int64_t lo, int64_t hi) {
  lo = std::clamp<int64_t>(lo, 0, 16);
  hi = std::clamp<int64_t>(hi, 0, 16);
  return hi <= lo ? 0 : static_cast<__mmask16>((1u << hi) - (1u << lo));
}

// The masks of one tap j of one 16-output chunk, whose first tap element is e (may be negative): `lanes`, the outputs
// whose tap is inside [0, in_w) (the others skip it, as the reference kernel skips padding); for the loads, the
// elements inside [0, in_w) of what the lanes read. Stride 1: `lo` over e..e+15; stride 2: `lo` and `hi` over
// e..e+31 (the 2n - 1 elements that n outputs span); other strides: `lo`, the gathered lanes.
struct TapMask {
  __mmask16 lanes = 0, lo = 0, hi = 0;
};

TapMask MakeTapMask(int64_t e, int64_t n, int64_t in_w, int64_t s) {
  TapMask m;
  for (int64_t l = 0; l < n; ++l) {
    if (e + l * s >= 0 && e + l * s < in_w) m.lanes = static_cast<__mmask16>(m.lanes | (1u << l));
  }
  if (s == 1) {
    m.lo = LaneRange(-e, std::min(n, in_w - e));
  } else if (s == 2) {
    const int64_t end = std::min(2 * n - 1, in_w - e);
    m.lo = LaneRange(-e, end);
    m.hi = LaneRange(-e - 16, end - 16);
  } else {
    m.lo = m.lanes;
  }
  return m;
}

// GCC 12 reports its own _mm512_undefined_*() placeholders in the unmasked AVX-512 intrinsics as uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// acc += w * p[l S] in the lanes the tap reaches (S = 0: the stride `s`, gathered); `on` all-zero skips the tap. The
// masked loads read nothing outside the row.
template <int S>
__attribute__((target("avx512f,fma"))) inline __m512 Tap(__m512 acc, __m512 w, const float* p, TapMask m, __mmask16 on,
                                                         int64_t s) {
  __m512 x;
  if constexpr (S == 1) {
    x = _mm512_maskz_loadu_ps(m.lo & on, p);
  } else if constexpr (S == 2) {
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    x = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(m.lo & on, p), even, _mm512_maskz_loadu_ps(m.hi & on, p + 16));
  } else {
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i idx = _mm512_mullo_epi32(lane, _mm512_set1_epi32(static_cast<int>(s)));
    x = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m.lo & on, idx, p, 4);
  }
  return _mm512_mask3_fmadd_ps(w, x, acc, m.lanes & on);
}

// Up to kTile (output row, 16-output chunk) pairs of one channel computed together: independent accumulators hide
// the fused multiply-add's latency where a row has few chunks (a 7x7 or 14x14 image: the rows below are taken too).
constexpr int kTile = 4;

struct Chunk {
  int64_t row;    // output row within the channel plane: oh
  int64_t index;  // chunk within the row: outputs 16 index ...
};

struct ChannelArgs {
  const float* x;  // the channel's input plane
  const float* w;  // the channel's kh x kw taps
  float bias;
  const float* sum;  // the channel's residual plane, or null
  float* y;          // the channel's output plane
};

template <int S, int T>
__attribute__((target("avx512f,fma"))) void TileAvx512(const DepthwiseGeometry& g, const TapMask* masks,
                                                       const ConvEpilogue& ep, const ChannelArgs& a,
                                                       const Chunk* chunks) {
  const int64_t kh = g.kh, kw = g.kw, dh = g.dh, dw = g.dw, in_h = g.in_h, in_w = g.in_w, sw = g.sw;
  __m512 acc[T];
  const float* start[T];       // tap (0, 0)'s element of the chunk's first output (row may be outside the plane)
  const TapMask* tap_mask[T];  // the chunk's masks, one per tap j
  int64_t ih0[T];
  bool rows_inside = true;
  for (int t = 0; t < T; ++t) {
    acc[t] = _mm512_set1_ps(a.bias);
    ih0[t] = chunks[t].row * g.sh - g.pad_top;
    start[t] = a.x + ih0[t] * in_w + chunks[t].index * 16 * sw - g.pad_left;
    tap_mask[t] = masks + chunks[t].index * kw;
    rows_inside = rows_inside && ih0[t] >= 0 && ih0[t] + (kh - 1) * dh < in_h;
  }
  for (int64_t i = 0; i < kh; ++i) {
    __mmask16 on[T];  // all lanes, or none where tap row i is outside the plane
    for (int t = 0; t < T; ++t) {
      const bool inside = rows_inside || (ih0[t] + i * dh >= 0 && ih0[t] + i * dh < in_h);
      on[t] = inside ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>(0);
    }
    const float* wr = a.w + i * kw;
    const int64_t row_off = i * dh * in_w;
    for (int64_t j = 0; j < kw; ++j) {
      const __m512 w = _mm512_set1_ps(wr[j]);
      for (int t = 0; t < T; ++t) acc[t] = Tap<S>(acc[t], w, start[t] + row_off + j * dw, tap_mask[t][j], on[t], sw);
    }
  }
  const __m512 lo = _mm512_set1_ps(ep.act == ConvAct::kRelu ? 0.f : ep.lo), hi = _mm512_set1_ps(ep.hi);
  for (int t = 0; t < T; ++t) {
    const int64_t o = chunks[t].index * 16;
    const int64_t at = chunks[t].row * g.out_w + o;
    const __mmask16 m = LaneRange(0, g.out_w - o);
    __m512 v = acc[t];
    if (a.sum != nullptr) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, a.sum + at));
    // MAXPS / MINPS return the second operand when either is NaN: Relu(NaN) = Clip(NaN) = NaN, as in ref.
    if (ep.act != ConvAct::kNone) v = _mm512_max_ps(lo, v);
    if (ep.act == ConvAct::kClip) v = _mm512_min_ps(hi, v);
    _mm512_mask_storeu_ps(a.y + at, m, v);
  }
}

#pragma GCC diagnostic pop

using TileFn = void (*)(const DepthwiseGeometry&, const TapMask*, const ConvEpilogue&, const ChannelArgs&,
                        const Chunk*);

template <int S>
TileFn PickTile(int count) {
  switch (count) {
    case 1:
      return TileAvx512<S, 1>;
    case 2:
      return TileAvx512<S, 2>;
    case 3:
      return TileAvx512<S, 3>;
    default:
      return TileAvx512<S, 4>;
  }
}

TileFn PickTile(int64_t stride, int count) {
  return stride == 1 ? PickTile<1>(count) : stride == 2 ? PickTile<2>(count) : PickTile<0>(count);
}

class DepthwiseConvPlainKernel final : public PreparedKernel {
 public:
  DepthwiseConvPlainKernel(const DepthwiseGeometry& g, std::vector<float> w, bool bias, bool sum, ConvEpilogue ep)
      : g_(g), w_(std::move(w)), bias_(bias), sum_(sum), ep_(ep) {
    fn_ = &Task;
    num_inputs_ = sum ? 4 : bias ? 3 : 2;
    num_outputs_ = 1;
    for (int count = 1; count <= kTile; ++count) tile_fn_[count - 1] = PickTile(g.sw, count);
    const int64_t chunks = (g.out_w + 15) / 16;
    for (int64_t c = 0; c < chunks; ++c) {
      for (int64_t j = 0; j < g.kw; ++j) {
        masks_.push_back(
            MakeTapMask(c * 16 * g.sw - g.pad_left + j * g.dw, std::min<int64_t>(16, g.out_w - c * 16), g.in_w, g.sw));
      }
    }
    rows_per_unit_ = std::min<int64_t>(g.out_h, std::max<int64_t>(1, kTile / chunks));
    units_per_plane_ = (g.out_h + rows_per_unit_ - 1) / rows_per_unit_;
  }
  const char* impl_name() const override { return "exec.depthwise_conv_plain"; }

 private:
  // Unit u of [N * C * units_per_plane_]: rows_per_unit_ output rows of one channel plane, in tiles of chunks.
  void Unit(const KernelBinding& b, int64_t u) const {
    const DepthwiseGeometry& g = g_;
    const int64_t plane = u / units_per_plane_, c = plane % g.c;
    const int64_t row0 = u % units_per_plane_ * rows_per_unit_, row1 = std::min(g.out_h, row0 + rows_per_unit_);
    ChannelArgs a;
    a.x = static_cast<const float*>(b.io.inputs[0]) + plane * g.in_h * g.in_w;
    a.w = w_.data() + c * g.kh * g.kw;
    a.bias = bias_ ? static_cast<const float*>(b.io.inputs[2])[c] : 0.f;
    a.sum = sum_ ? static_cast<const float*>(b.io.inputs[3]) + plane * g.out_h * g.out_w : nullptr;
    a.y = static_cast<float*>(b.io.outputs[0]) + plane * g.out_h * g.out_w;
    const int64_t chunks = (g.out_w + 15) / 16;
    Chunk tile[kTile];
    int count = 0;
    for (int64_t row = row0; row < row1; ++row) {
      for (int64_t index = 0; index < chunks; ++index) {
        tile[count++] = {row, index};
        if (count == kTile) {
          tile_fn_[kTile - 1](g, masks_.data(), ep_, a, tile);
          count = 0;
        }
      }
    }
    if (count > 0) tile_fn_[count - 1](g, masks_.data(), ep_, a, tile);
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<DepthwiseConvPlainKernel>(binding);
    const DepthwiseGeometry& g = k.g_;
    // Work per unit: its outputs times the taps each reads.
    const int64_t per_unit = k.rows_per_unit_ * g.out_w * g.kh * g.kw;
    ParallelUnits(ctx, g.n * g.c * k.units_per_plane_, per_unit, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) k.Unit(binding, u);
    });
    return Status::Ok();
  }

  DepthwiseGeometry g_;
  std::vector<float> w_;  // [C][KH][KW], copied at prepare
  bool bias_, sum_;
  ConvEpilogue ep_;
  TileFn tile_fn_[kTile] = {};
  std::vector<TapMask> masks_;  // [chunk of 16 outputs][tap j]
  int64_t rows_per_unit_ = 1, units_per_plane_ = 1;
};

bool PlainFloat(const TensorDesc& d) {
  return d.dtype == DataType::kFloat && (d.format == Format::kND || d.format == Format::kNCHW) &&
         d.shape.IsFullyKnown();
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareDepthwiseConvPlain(const PrepareRequest& r) {
  if (r.node == nullptr || HasVaryingDims(r) || r.allow_bf16 || PickLoopIsa(r.max_isa) != LoopIsa::kAvx512) {
    return nullptr;
  }
  const ir::Node& node = *r.node;
  const bool fused = node.domain() == "ge" && node.op_type() == "FusedConv";
  if (!fused && !(node.domain().empty() && node.op_type() == "Conv")) return nullptr;
  const size_t n_in = r.input_descs.size();
  if (n_in < 2 || n_in > (fused ? 4u : 3u) || r.output_descs.size() != 1 || !InputPresent(r, 0) ||
      !OutputPresent(r, 0)) {
    return nullptr;
  }
  const bool bias = n_in > 2 && InputPresent(r, 2);
  const bool sum = n_in > 3 && InputPresent(r, 3);
  ConvEpilogue ep;
  if (!ParseConvEpilogue(node, &ep)) return nullptr;
  const Tensor* w = ConstInput(r, 1);
  const TensorDesc& xd = r.input_descs[0];
  const TensorDesc& yd = r.output_descs[0];
  const int rank = xd.shape.rank();
  if (w == nullptr || w->dtype() != DataType::kFloat || !PlainFloat(xd) || !PlainFloat(yd) || rank < 3 || rank > 4 ||
      yd.shape.rank() != rank) {
    return nullptr;
  }
  const Dims& x = xd.shape.dims();
  const Dims& wdims = w->dims();
  const int nsp = rank - 2;
  if (node.attrs().GetInt("group", 1) != x[1] || static_cast<int>(wdims.size()) != rank || wdims[0] != x[1] ||
      wdims[1] != 1) {
    return nullptr;
  }
  std::vector<int64_t> wk(wdims.begin() + 2, wdims.end());
  nn::Window win;
  if (!nn::ParseWindow(node.attrs(), nsp, &wk, false, &win).ok() || win.kernel != wk) return nullptr;
  Dims want = {x[0], x[1]};
  for (int i = 0; i < nsp; ++i) {
    StatusOr<int64_t> o = nn::WindowOutputDim(&win, i, x[i + 2]);
    if (!o.ok() || *o <= 0) return nullptr;
    want.push_back(*o);
  }
  if (want != yd.shape.dims()) return nullptr;
  if (bias && (r.input_descs[2].dtype != DataType::kFloat || r.input_descs[2].shape.dims() != Dims{x[1]})) {
    return nullptr;
  }
  if (sum && (!PlainFloat(r.input_descs[3]) || r.input_descs[3].shape.dims() != want)) return nullptr;
  DepthwiseGeometry g;
  g.n = x[0];
  g.c = x[1];
  const int off = 2 - nsp;  // 1-D: the W axis only
  int64_t* in[2] = {&g.in_h, &g.in_w};
  int64_t* out[2] = {&g.out_h, &g.out_w};
  int64_t* k[2] = {&g.kh, &g.kw};
  int64_t* s[2] = {&g.sh, &g.sw};
  int64_t* d[2] = {&g.dh, &g.dw};
  int64_t* pad[2] = {&g.pad_top, &g.pad_left};
  for (int i = 0; i < nsp; ++i) {
    *in[off + i] = x[i + 2];
    *out[off + i] = want[i + 2];
    *k[off + i] = win.kernel[i];
    *s[off + i] = win.strides[i];
    *d[off + i] = win.dilations[i];
    *pad[off + i] = win.pads[i];
  }
  // The gathered lanes' element offsets are 32-bit; the load masks are a table of chunks x taps.
  if (g.sw * 16 > std::numeric_limits<int32_t>::max() || (g.out_w + 15) / 16 * g.kw > (1 << 20)) return nullptr;
  std::vector<float> weights(w->data<float>(), w->data<float>() + w->numel());
  return std::make_unique<DepthwiseConvPlainKernel>(g, std::move(weights), bias, sum, ep);
}

}  // namespace ge::exec
