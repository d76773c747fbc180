#include "kernels/exec/resize_kernel.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/format.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/ref/shape/resize_plan.h"

namespace ge::exec {
namespace {

using ref::resize::AxisPlan;
using ref::resize::ResizeConfig;
using ref::resize::ResizeMode;

// Output columns per pass of the interpolating path: kSlots double rows of this width live on the stack.
constexpr int64_t kColumnTile = 1024;
constexpr int kMaxTaps = 4;       // cubic
constexpr int kSlots = kMaxTaps;  // column-passed source rows kept per tile

// The loops, compiled for AVX-512, AVX2 and the baseline (they auto-vectorize; the file is built with
// -ffp-contract=off, so no variant fuses a multiply-add and every variant rounds as the reference kernel).
//   ColumnPass2 / 4: h[j] = (0 + w0[j] * x[i0[j]]) + w1[j] * x[i1[j]] (+ ...) in double, the reference's column
//   pass. Widen: h = x in double. Narrow: y = h in float.
//   Blend1..4: y[j] = float((0 + w0 * h0[j]) + w1 * h1[j] + ...), its row pass.
//   Gather: y[j] = x[idx[j]]. Repeat2: y[2j] = y[2j + 1] = x[j]. RepeatK: y[jk + r] = x[j] for r < k.
#define GE_RESIZE_LOOPS(suffix, attr)                                                                          \
  attr void ColumnPass2##suffix(const float* x, const int32_t* const* i, const double* const* w, int64_t n,    \
                                double* __restrict h) {                                                        \
    const int32_t *i0 = i[0], *i1 = i[1];                                                                      \
    const double *w0 = w[0], *w1 = w[1];                                                                       \
    for (int64_t j = 0; j < n; ++j) {                                                                          \
      h[j] = (0.0 + w0[j] * static_cast<double>(x[i0[j]])) + w1[j] * static_cast<double>(x[i1[j]]);            \
    }                                                                                                          \
  }                                                                                                            \
  attr void ColumnPass4##suffix(const float* x, const int32_t* const* i, const double* const* w, int64_t n,    \
                                double* __restrict h) {                                                        \
    const int32_t *i0 = i[0], *i1 = i[1], *i2 = i[2], *i3 = i[3];                                              \
    const double *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];                                               \
    for (int64_t j = 0; j < n; ++j) {                                                                          \
      h[j] = (((0.0 + w0[j] * static_cast<double>(x[i0[j]])) + w1[j] * static_cast<double>(x[i1[j]])) +        \
              w2[j] * static_cast<double>(x[i2[j]])) +                                                         \
             w3[j] * static_cast<double>(x[i3[j]]);                                                            \
    }                                                                                                          \
  }                                                                                                            \
  attr void Widen##suffix(const float* x, int64_t n, double* h) {                                              \
    for (int64_t j = 0; j < n; ++j) h[j] = static_cast<double>(x[j]);                                          \
  }                                                                                                            \
  attr void Narrow##suffix(const double* const* h, const double* /*w*/, int64_t n, float* y) {                 \
    const double* h0 = h[0];                                                                                   \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(h0[j]);                                          \
  }                                                                                                            \
  attr void Blend1##suffix(const double* const* h, const double* w, int64_t n, float* y) {                     \
    const double* h0 = h[0];                                                                                   \
    const double w0 = w[0];                                                                                    \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(0.0 + w0 * h0[j]);                               \
  }                                                                                                            \
  attr void Blend2##suffix(const double* const* h, const double* w, int64_t n, float* y) {                     \
    const double *h0 = h[0], *h1 = h[1];                                                                       \
    const double w0 = w[0], w1 = w[1];                                                                         \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>((0.0 + w0 * h0[j]) + w1 * h1[j]);                \
  }                                                                                                            \
  attr void Blend3##suffix(const double* const* h, const double* w, int64_t n, float* y) {                     \
    const double *h0 = h[0], *h1 = h[1], *h2 = h[2];                                                           \
    const double w0 = w[0], w1 = w[1], w2 = w[2];                                                              \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(((0.0 + w0 * h0[j]) + w1 * h1[j]) + w2 * h2[j]); \
  }                                                                                                            \
  attr void Blend4##suffix(const double* const* h, const double* w, int64_t n, float* y) {                     \
    const double *h0 = h[0], *h1 = h[1], *h2 = h[2], *h3 = h[3];                                               \
    const double w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];                                                   \
    for (int64_t j = 0; j < n; ++j) {                                                                          \
      y[j] = static_cast<float>((((0.0 + w0 * h0[j]) + w1 * h1[j]) + w2 * h2[j]) + w3 * h3[j]);                \
    }                                                                                                          \
  }                                                                                                            \
  attr void Gather##suffix(const float* x, const int32_t* idx, int64_t n, float* y) {                          \
    for (int64_t j = 0; j < n; ++j) y[j] = x[idx[j]];                                                          \
  }                                                                                                            \
  attr void Repeat2##suffix(const float* x, int64_t n_in, float* y) {                                          \
    for (int64_t j = 0; j < n_in; ++j) {                                                                       \
      y[2 * j] = x[j];                                                                                         \
      y[2 * j + 1] = x[j];                                                                                     \
    }                                                                                                          \
  }                                                                                                            \
  attr void RepeatK##suffix(const float* x, int64_t n_in, int64_t k, float* y) {                               \
    for (int64_t j = 0; j < n_in; ++j) {                                                                       \
      const float v = x[j];                                                                                    \
      for (int64_t r = 0; r < k; ++r) y[j * k + r] = v;                                                        \
    }                                                                                                          \
  }
GE_RESIZE_LOOPS(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_RESIZE_LOOPS(Avx2, __attribute__((target("avx2,fma"))))
GE_RESIZE_LOOPS(Baseline, )
#undef GE_RESIZE_LOOPS

using ColumnPassFn = void (*)(const float*, const int32_t* const*, const double* const*, int64_t, double*);
using BlendFn = void (*)(const double* const*, const double*, int64_t, float*);

struct ResizeLoops {
  ColumnPassFn column_pass[kMaxTaps + 1];  // by taps: 2 and 4
  void (*widen)(const float*, int64_t, double*);
  BlendFn blend[kMaxTaps + 1];  // by taps; [0]: Narrow
  void (*gather)(const float*, const int32_t*, int64_t, float*);
  void (*repeat2)(const float*, int64_t, float*);
  void (*repeat_k)(const float*, int64_t, int64_t, float*);
};

#define GE_RESIZE_LOOP_SET(suffix)                                                                        \
  ResizeLoops {                                                                                           \
    {nullptr, nullptr, ColumnPass2##suffix, nullptr, ColumnPass4##suffix}, Widen##suffix,                 \
        {Narrow##suffix, Blend1##suffix, Blend2##suffix, Blend3##suffix, Blend4##suffix}, Gather##suffix, \
        Repeat2##suffix, RepeatK##suffix                                                                  \
  }

ResizeLoops PickLoops(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return GE_RESIZE_LOOP_SET(Avx512);
    case LoopIsa::kAvx2:
      return GE_RESIZE_LOOP_SET(Avx2);
    case LoopIsa::kBaseline:
      break;
  }
  return GE_RESIZE_LOOP_SET(Baseline);
}
#undef GE_RESIZE_LOOP_SET

// How the interpolating path makes an output row from the column-passed source rows h (the reference's row pass,
// which skips zero-weight taps).
enum class RowKind : uint8_t {
  kConstant,  // every element `value`: an extrapolated row, or one whose taps all weigh 0
  kCopy,      // float(h[i[0]]): the row axis is unchanged, so the reference has no row pass
  kBlend,     // float((0 + w[0] * h[i[0]]) + ...) over the `taps` taps of non-zero weight
};

struct RowTaps {
  RowKind kind = RowKind::kConstant;
  int taps = 0;
  int32_t i[kMaxTaps] = {};
  double w[kMaxTaps] = {};
  double value = 0;
};

struct ResizePlan {
  bool interpolate = false;  // linear or cubic; else nearest
  int taps = 1;              // per output element and axis: 2 (linear) or 4 (cubic)
  int64_t planes = 1, in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  double extrapolation = 0;
  // The passes of leading axes of extent 1 that the reference does not skip (pytorch_half_pixel's taps around
  // -0.5), innermost first, each one's weights: each maps an output value v to (0 + w[0] v) + w[1] v + ... in
  // double. positive_zeros instead: there is such a pass, and each weighs 0.5 + 0.5, which only turns -0 into +0;
  // only the rows that the row pass does not compute (kCopy, kConstant) can hold -0.
  std::vector<std::vector<double>> lead_passes;
  bool positive_zeros = false;
  // Interpolating: per output row its taps; per output column `taps` taps for ColumnPass (none when the column axis
  // is unchanged), and the columns ColumnPass cannot make (a zero-weight tap, which the reference skips even when
  // the source is inf or NaN, or an extrapolated column), sorted, made one at a time as the reference makes them.
  std::vector<RowTaps> rows;
  bool columns_unchanged = false;
  std::vector<int32_t> col_i[kMaxTaps];
  std::vector<double> col_w[kMaxTaps];
  std::vector<char> col_extrapolate;
  std::vector<int32_t> exact_cols;
  // Nearest: per output row its source row (-1: extrapolated); per output column its source (0 where extrapolated,
  // those columns listed in fill_cols). repeat > 0: column j takes source j / repeat (out_w = in_w * repeat).
  std::vector<int32_t> row_src;
  std::vector<int32_t> col_src;
  std::vector<int32_t> fill_cols;
  int64_t repeat = 0;
};

class ResizeKernel final : public PreparedKernel {
 public:
  ResizeKernel(ResizePlan plan, ResizeLoops loops, rt::TaskFn fn, int num_inputs)
      : plan_(std::move(plan)), loops_(loops) {
    fn_ = fn;
    num_inputs_ = num_inputs;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.resize"; }
  const ResizePlan& plan() const { return plan_; }
  const ResizeLoops& loops() const { return loops_; }

 private:
  ResizePlan plan_;
  ResizeLoops loops_;
};

// Output columns [j0, j0 + n) of source row xr after the column pass, into h.
void ColumnPassTile(const ResizePlan& p, const ResizeLoops& l, const float* xr, int64_t j0, int64_t n, double* h) {
  if (p.columns_unchanged) {
    l.widen(xr + j0, n, h);
    return;
  }
  const int32_t* idx[kMaxTaps];
  const double* w[kMaxTaps];
  for (int t = 0; t < p.taps; ++t) {
    idx[t] = p.col_i[t].data() + j0;
    w[t] = p.col_w[t].data() + j0;
  }
  l.column_pass[p.taps](xr, idx, w, n, h);
  auto it = std::lower_bound(p.exact_cols.begin(), p.exact_cols.end(), static_cast<int32_t>(j0));
  for (; it != p.exact_cols.end() && *it < j0 + n; ++it) {
    const int32_t j = *it;
    double d = 0;
    if (p.col_extrapolate[j]) {
      d = p.extrapolation;
    } else {
      for (int t = 0; t < p.taps; ++t) {
        if (p.col_w[t][j] != 0) d += p.col_w[t][j] * static_cast<double>(xr[p.col_i[t][j]]);
      }
    }
    h[j - j0] = d;
  }
}

// y = float(v) after the leading axes' passes, for a row of row-pass results v (scalar: only cubic with
// pytorch_half_pixel over a unit batch or channel axis comes here).
void NarrowThroughLeadPasses(const ResizePlan& p, const RowTaps& t, const double* const* h, int64_t n, float* y) {
  for (int64_t j = 0; j < n; ++j) {
    double v = t.value;
    if (t.kind == RowKind::kCopy) {
      v = h[0][j];
    } else if (t.kind == RowKind::kBlend) {
      v = 0;
      for (int k = 0; k < t.taps; ++k) v += t.w[k] * h[k][j];
    }
    for (const std::vector<double>& pass : p.lead_passes) {
      double d = 0;
      for (double w : pass) {
        if (w != 0) d += w * v;
      }
      v = d;
    }
    y[j] = static_cast<float>(v);
  }
}

// Output rows [y0, y1) of one plane, tile by tile of columns; the most recent column-passed source rows are kept
// (kSlots of them), so a source row is column-passed once per run of output rows that reads it.
void InterpolateRows(const ResizePlan& p, const ResizeLoops& l, const float* xp, float* yp, int64_t y0, int64_t y1) {
  alignas(64) double buf[kSlots][kColumnTile];
  for (int64_t j0 = 0; j0 < p.out_w; j0 += kColumnTile) {
    const int64_t n = std::min(kColumnTile, p.out_w - j0);
    int64_t key[kSlots], last_use[kSlots];
    for (int s = 0; s < kSlots; ++s) key[s] = last_use[s] = -1;
    for (int64_t y = y0; y < y1; ++y) {
      const RowTaps& t = p.rows[y];
      const int needed = t.kind == RowKind::kBlend ? t.taps : t.kind == RowKind::kCopy ? 1 : 0;
      // The row's sources: kept ones first, then the others into the least recently used slots it does not read.
      const double* h[kMaxTaps];
      bool held[kSlots] = {};
      for (int k = 0; k < needed; ++k) {
        h[k] = nullptr;
        for (int s = 0; s < kSlots; ++s) {
          if (key[s] == t.i[k]) {
            h[k] = buf[s];
            held[s] = true;
            last_use[s] = y;
          }
        }
      }
      for (int k = 0; k < needed; ++k) {
        if (h[k] != nullptr) continue;
        int victim = -1;
        for (int s = 0; s < kSlots; ++s) {
          if (!held[s] && (victim < 0 || last_use[s] < last_use[victim])) victim = s;
        }
        ColumnPassTile(p, l, xp + t.i[k] * p.in_w, j0, n, buf[victim]);
        key[victim] = t.i[k];
        last_use[victim] = y;
        held[victim] = true;
        h[k] = buf[victim];
        for (int m = k + 1; m < needed; ++m) {  // a source named twice
          if (h[m] == nullptr && t.i[m] == t.i[k]) h[m] = buf[victim];
        }
      }
      float* out = yp + y * p.out_w + j0;
      if (!p.lead_passes.empty()) {
        NarrowThroughLeadPasses(p, t, h, n, out);
        continue;
      }
      switch (t.kind) {
        case RowKind::kConstant:
          std::fill(out, out + n, static_cast<float>(p.positive_zeros ? 0.0 + t.value : t.value));
          break;
        case RowKind::kCopy: {
          static constexpr double kOne[1] = {1.0};
          // float(0 + 1 * h) turns -0 into +0.
          l.blend[p.positive_zeros ? 1 : 0](h, kOne, n, out);
          break;
        }
        case RowKind::kBlend:
          l.blend[t.taps](h, t.w, n, out);
          break;
      }
    }
  }
}

// Output rows [y0, y1) of one plane; a row with the same source as the row before it is a copy of that row.
void NearestRows(const ResizePlan& p, const ResizeLoops& l, const float* xp, float* yp, int64_t y0, int64_t y1) {
  const float fill = static_cast<float>(p.extrapolation);
  for (int64_t y = y0; y < y1; ++y) {
    float* out = yp + y * p.out_w;
    const int32_t src = p.row_src[y];
    if (src < 0) {
      std::fill(out, out + p.out_w, fill);
      continue;
    }
    if (y > y0 && p.row_src[y - 1] == src) {
      std::memcpy(out, out - p.out_w, static_cast<size_t>(p.out_w) * sizeof(float));
      continue;
    }
    const float* xr = xp + src * p.in_w;
    if (p.repeat == 1) {
      std::memcpy(out, xr, static_cast<size_t>(p.out_w) * sizeof(float));
    } else if (p.repeat == 2) {
      l.repeat2(xr, p.in_w, out);
    } else if (p.repeat > 2) {
      l.repeat_k(xr, p.in_w, p.repeat, out);
    } else {
      l.gather(xr, p.col_src.data(), p.out_w, out);
      for (int32_t j : p.fill_cols) out[j] = fill;
    }
  }
}

Status ResizeTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const auto& kernel = BoundKernel<ResizeKernel>(binding);
  const ResizePlan& p = kernel.plan();
  const ResizeLoops& l = kernel.loops();
  const auto* x = static_cast<const float*>(binding.io.inputs[0]);
  auto* y = static_cast<float*>(binding.io.outputs[0]);
  const int64_t units = p.planes * p.out_h;  // output rows of every plane
  if (units == 0 || p.out_w == 0) return Status::Ok();
  ParallelUnits(ctx, units, p.out_w, [&](size_t b, size_t e) {
    for (int64_t u = static_cast<int64_t>(b); u < static_cast<int64_t>(e);) {
      const int64_t plane = u / p.out_h, r0 = u % p.out_h;
      const int64_t r1 = std::min(p.out_h, r0 + (static_cast<int64_t>(e) - u));
      const float* xp = x + plane * p.in_h * p.in_w;
      float* yp = y + plane * p.out_h * p.out_w;
      if (p.interpolate) {
        InterpolateRows(p, l, xp, yp, r0, r1);
      } else {
        NearestRows(p, l, xp, yp, r0, r1);
      }
      u += r1 - r0;
    }
  });
  return Status::Ok();
}

void PlanInterpolatedRows(const AxisPlan& a, int64_t out, ResizePlan* p) {
  p->rows.resize(out);
  for (int64_t y = 0; y < out; ++y) {
    RowTaps& t = p->rows[y];
    if (a.identity) {
      t.kind = RowKind::kCopy;
      t.i[0] = static_cast<int32_t>(y);
      continue;
    }
    if (a.extrapolate[y]) {
      t.kind = RowKind::kConstant;
      t.value = p->extrapolation;
      continue;
    }
    for (int k = 0; k < a.taps; ++k) {
      const double w = a.weight[y * a.taps + k];
      if (w == 0) continue;
      t.i[t.taps] = static_cast<int32_t>(a.index[y * a.taps + k]);
      t.w[t.taps] = w;
      ++t.taps;
    }
    t.kind = t.taps == 0 ? RowKind::kConstant : RowKind::kBlend;
  }
}

void PlanInterpolatedColumns(const AxisPlan& a, int64_t out, ResizePlan* p) {
  p->columns_unchanged = a.identity;
  if (a.identity) return;
  for (int t = 0; t < a.taps; ++t) {
    p->col_i[t].resize(out);
    p->col_w[t].resize(out);
  }
  p->col_extrapolate.assign(a.extrapolate.begin(), a.extrapolate.end());
  for (int64_t j = 0; j < out; ++j) {
    bool exact = a.extrapolate[j] != 0;
    for (int t = 0; t < a.taps; ++t) {
      p->col_i[t][j] = static_cast<int32_t>(a.index[j * a.taps + t]);
      p->col_w[t][j] = a.weight[j * a.taps + t];
      exact |= p->col_w[t][j] == 0;
    }
    if (exact) p->exact_cols.push_back(static_cast<int32_t>(j));
  }
}

void PlanNearest(const AxisPlan& rows, const AxisPlan& cols, ResizePlan* p) {
  p->row_src.resize(p->out_h);
  for (int64_t y = 0; y < p->out_h; ++y) {
    p->row_src[y] = rows.extrapolate[y] ? -1 : static_cast<int32_t>(rows.index[y]);
  }
  p->col_src.resize(p->out_w);
  for (int64_t j = 0; j < p->out_w; ++j) {
    if (cols.extrapolate[j]) {
      p->fill_cols.push_back(static_cast<int32_t>(j));
    } else {
      p->col_src[j] = static_cast<int32_t>(cols.index[j]);
    }
  }
  if (p->fill_cols.empty() && p->out_w % p->in_w == 0) {
    const int64_t k = p->out_w / p->in_w;
    bool repeats = true;
    for (int64_t j = 0; j < p->out_w && repeats; ++j) repeats = p->col_src[j] == j / k;
    if (repeats) p->repeat = k;
  }
}

// An axis of extent 1 (in and out) whose taps all read its one element: the reference's pass over it maps each
// value v to (0 + w[0] v) + w[1] v + ... in double. Sets *weights; false for any other axis.
bool UnitAxisPass(const AxisPlan& a, std::vector<double>* weights) {
  if (a.extrapolate.size() != 1 || a.extrapolate[0]) return false;
  for (int64_t i : a.index) {
    if (i != 0) return false;
  }
  weights->assign(a.weight.begin(), a.weight.end());
  return true;
}

std::vector<double> DoublesOf(const Tensor& t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.GetAsDouble(i));
  return v;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareResize(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_outputs() != 1 || !OutputPresent(r, 0) || !InputPresent(r, 0)) return nullptr;
  const TensorDesc& xd = r.input_descs[0];
  const TensorDesc& yd = r.output_descs[0];
  if (xd.dtype != DataType::kFloat || yd.dtype != DataType::kFloat || IsNonPlainLayout(xd.format) ||
      IsNonPlainLayout(yd.format)) {
    return nullptr;
  }
  ResizeConfig cfg;
  if (!ref::resize::ReadResizeConfig(node.op_type(), node.attrs(), r.opset, &cfg).ok()) return nullptr;
  // scales, sizes and (for tf_crop_and_resize) roi must be constants, read as the reference reads them.
  const ref::resize::ResizeInputSlots slots = ref::resize::ResizeInputsOf(node.op_type(), r.opset);
  auto constant = [&](int slot, const Tensor** t) {
    *t = nullptr;
    if (slot < 0 || slot >= node.num_inputs() || !InputPresent(r, slot)) return true;
    *t = ConstInput(r, slot);
    return *t != nullptr;
  };
  const Tensor *roi = nullptr, *scales_t = nullptr, *sizes_t = nullptr;
  if (!constant(slots.scales, &scales_t) || !constant(slots.sizes, &sizes_t)) return nullptr;
  if (cfg.coord == "tf_crop_and_resize") {
    if (!constant(slots.roi, &roi)) return nullptr;
    if (roi != nullptr) cfg.roi = DoublesOf(*roi);
  }
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (slots.scales >= 0) {
    if (scales_t != nullptr) scales = DoublesOf(*scales_t);
  } else {
    for (float f : node.attrs().GetFloats("scales")) scales.push_back(f);
  }
  if (sizes_t != nullptr) sizes = sizes_t->ToInt64Vector();
  const Dims& in = xd.shape.dims();
  const int rank = static_cast<int>(in.size());
  auto target = ops::shape_family::ComputeResizeTarget(in, &scales, &sizes);
  if (rank == 0 || !target.ok() || target->out != yd.shape.dims()) return nullptr;
  cfg.target = std::move(target).value();
  if (cfg.coord == "tf_crop_and_resize" && cfg.roi.size() != 2 * static_cast<size_t>(rank)) return nullptr;
  const Dims& out = cfg.target.out;
  if (NumElements(in) == 0 && NumElements(out) != 0) return nullptr;  // the reference's error
  for (int k = 0; k < rank; ++k) {
    if (in[k] > INT32_MAX || out[k] > INT32_MAX) return nullptr;
  }

  ResizePlan p;
  p.interpolate = cfg.mode != ResizeMode::kNearest;
  p.taps = cfg.mode == ResizeMode::kCubic ? 4 : cfg.mode == ResizeMode::kLinear ? 2 : 1;
  p.extrapolation = cfg.extrapolation;
  if (NumElements(out) != 0) {
    for (int k = rank - 3; k >= 0; --k) {
      const AxisPlan lead = ref::resize::PlanResizeAxis(cfg, k, rank, in[k], out[k]);
      std::vector<double> weights;
      if (!lead.identity) {
        if (!p.interpolate || !UnitAxisPass(lead, &weights)) return nullptr;
        p.lead_passes.push_back(std::move(weights));
      }
      p.planes *= in[k];
    }
    // Linear's unit-axis passes weigh 0.5 + 0.5: v stays v but for the sign of a zero.
    bool halves = true;
    for (const std::vector<double>& w : p.lead_passes) halves &= w == std::vector<double>{0.5, 0.5};
    if (halves && !p.lead_passes.empty()) {
      p.lead_passes.clear();
      p.positive_zeros = true;
    }
    p.in_w = in[rank - 1];
    p.out_w = out[rank - 1];
    const AxisPlan cols = ref::resize::PlanResizeAxis(cfg, rank - 1, rank, p.in_w, p.out_w);
    AxisPlan rows;
    if (rank >= 2) {
      p.in_h = in[rank - 2];
      p.out_h = out[rank - 2];
      rows = ref::resize::PlanResizeAxis(cfg, rank - 2, rank, p.in_h, p.out_h);
    } else {
      rows.taps = p.taps;
      rows.index.assign(p.taps, 0);
      rows.weight.assign(p.taps, 0);
      rows.weight[0] = 1;
      rows.extrapolate = {0};
      rows.identity = true;
    }
    if (p.interpolate) {
      PlanInterpolatedRows(rows, p.out_h, &p);
      PlanInterpolatedColumns(cols, p.out_w, &p);
    } else {
      PlanNearest(rows, cols, &p);
    }
  } else {
    p.planes = 0;
  }
  return std::make_unique<ResizeKernel>(std::move(p), PickLoops(r.max_isa), &ResizeTask, node.num_inputs());
}

}  // namespace ge::exec
