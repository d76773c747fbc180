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

// Output columns per pass of the linear path: two double rows of this width live on the stack.
constexpr int64_t kColumnTile = 1024;

// The loops, compiled for AVX-512, AVX2 and the baseline (they auto-vectorize; the file is built with
// -ffp-contract=off, so no variant fuses a multiply-add and every variant rounds as the reference kernel).
//   ColumnPass: h[j] = (0 + w0[j] * x[i0[j]]) + w1[j] * x[i1[j]] in double (the reference's column pass).
//   Widen: h = x in double. Narrow: y = h in float.
//   BlendOne / BlendTwo: y[j] = float(0 + w0 * h0[j]) / float((0 + w0 * h0[j]) + w1 * h1[j]) (its row pass).
//   Gather: y[j] = x[idx[j]]. Repeat2: y[2j] = y[2j + 1] = x[j]. RepeatK: y[jk + r] = x[j] for r < k.
#define GE_RESIZE_LOOPS(suffix, attr)                                                                         \
  attr void ColumnPass##suffix(const float* x, const int32_t* i0, const int32_t* i1, const double* w0,        \
                               const double* w1, int64_t n, double* h) {                                      \
    for (int64_t j = 0; j < n; ++j) {                                                                         \
      h[j] = (0.0 + w0[j] * static_cast<double>(x[i0[j]])) + w1[j] * static_cast<double>(x[i1[j]]);           \
    }                                                                                                         \
  }                                                                                                           \
  attr void Widen##suffix(const float* x, int64_t n, double* h) {                                             \
    for (int64_t j = 0; j < n; ++j) h[j] = static_cast<double>(x[j]);                                         \
  }                                                                                                           \
  attr void Narrow##suffix(const double* h, int64_t n, float* y) {                                            \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(h[j]);                                          \
  }                                                                                                           \
  attr void BlendOne##suffix(const double* h0, double w0, int64_t n, float* y) {                              \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(0.0 + w0 * h0[j]);                              \
  }                                                                                                           \
  attr void BlendTwo##suffix(const double* h0, const double* h1, double w0, double w1, int64_t n, float* y) { \
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>((0.0 + w0 * h0[j]) + w1 * h1[j]);               \
  }                                                                                                           \
  attr void Gather##suffix(const float* x, const int32_t* idx, int64_t n, float* y) {                         \
    for (int64_t j = 0; j < n; ++j) y[j] = x[idx[j]];                                                         \
  }                                                                                                           \
  attr void Repeat2##suffix(const float* x, int64_t n_in, float* y) {                                         \
    for (int64_t j = 0; j < n_in; ++j) {                                                                      \
      y[2 * j] = x[j];                                                                                        \
      y[2 * j + 1] = x[j];                                                                                    \
    }                                                                                                         \
  }                                                                                                           \
  attr void RepeatK##suffix(const float* x, int64_t n_in, int64_t k, float* y) {                              \
    for (int64_t j = 0; j < n_in; ++j) {                                                                      \
      const float v = x[j];                                                                                   \
      for (int64_t r = 0; r < k; ++r) y[j * k + r] = v;                                                       \
    }                                                                                                         \
  }
GE_RESIZE_LOOPS(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_RESIZE_LOOPS(Avx2, __attribute__((target("avx2,fma"))))
GE_RESIZE_LOOPS(Baseline, )
#undef GE_RESIZE_LOOPS

struct ResizeLoops {
  void (*column_pass)(const float*, const int32_t*, const int32_t*, const double*, const double*, int64_t, double*);
  void (*widen)(const float*, int64_t, double*);
  void (*narrow)(const double*, int64_t, float*);
  void (*blend_one)(const double*, double, int64_t, float*);
  void (*blend_two)(const double*, const double*, double, double, int64_t, float*);
  void (*gather)(const float*, const int32_t*, int64_t, float*);
  void (*repeat2)(const float*, int64_t, float*);
  void (*repeat_k)(const float*, int64_t, int64_t, float*);
};

ResizeLoops PickLoops(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {ColumnPassAvx512, WidenAvx512,  NarrowAvx512,  BlendOneAvx512,
              BlendTwoAvx512,   GatherAvx512, Repeat2Avx512, RepeatKAvx512};
    case LoopIsa::kAvx2:
      return {ColumnPassAvx2, WidenAvx2, NarrowAvx2, BlendOneAvx2, BlendTwoAvx2, GatherAvx2, Repeat2Avx2, RepeatKAvx2};
    case LoopIsa::kBaseline:
      break;
  }
  return {ColumnPassBaseline, WidenBaseline,  NarrowBaseline,  BlendOneBaseline,
          BlendTwoBaseline,   GatherBaseline, Repeat2Baseline, RepeatKBaseline};
}

// How the linear path makes an output row from the column-resized source rows h (the reference's row pass, whose
// zero-weight taps it skips).
enum class RowKind : uint8_t {
  kConstant,  // every element `value`: an extrapolated row, or one whose taps all weigh 0
  kCopy,      // float(h[i0]): the row axis is unchanged, so the reference has no row pass
  kOne,       // float(0 + w0 * h[i0])
  kTwo,       // float((0 + w0 * h[i0]) + w1 * h[i1])
};

struct RowTaps {
  RowKind kind = RowKind::kConstant;
  int32_t i0 = 0, i1 = 0;
  double w0 = 0, w1 = 0;
  double value = 0;
};

struct ResizePlan {
  bool linear = false;
  int64_t planes = 1, in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  double extrapolation = 0;
  // Linear: a leading axis of extent 1 has a pass that only turns -0 into +0 (HalvesOfOne); only the rows that the
  // row pass does not compute (kCopy, kConstant) can hold -0.
  bool positive_zeros = false;
  // Linear: per output row its taps; per output column two taps for ColumnPass (or none when the column axis is
  // unchanged), and the columns ColumnPass cannot make (a zero-weight tap, which the reference skips even when the
  // source is inf or NaN, or an extrapolated column), sorted, made one at a time as the reference makes them.
  std::vector<RowTaps> rows;
  bool columns_unchanged = false;
  std::vector<int32_t> col_i0, col_i1;
  std::vector<double> col_w0, col_w1;
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
  l.column_pass(xr, p.col_i0.data() + j0, p.col_i1.data() + j0, p.col_w0.data() + j0, p.col_w1.data() + j0, n, h);
  auto it = std::lower_bound(p.exact_cols.begin(), p.exact_cols.end(), static_cast<int32_t>(j0));
  for (; it != p.exact_cols.end() && *it < j0 + n; ++it) {
    const int32_t j = *it;
    double d = 0;
    if (p.col_extrapolate[j]) {
      d = p.extrapolation;
    } else {
      if (p.col_w0[j] != 0) d += p.col_w0[j] * static_cast<double>(xr[p.col_i0[j]]);
      if (p.col_w1[j] != 0) d += p.col_w1[j] * static_cast<double>(xr[p.col_i1[j]]);
    }
    h[j - j0] = d;
  }
}

// Output rows [y0, y1) of one plane, tile by tile of columns; the two most recent column-resized source rows are
// kept, so a source row is resized once per run of output rows that reads it.
void LinearRows(const ResizePlan& p, const ResizeLoops& l, const float* xp, float* yp, int64_t y0, int64_t y1) {
  alignas(64) double buf[2][kColumnTile];
  for (int64_t j0 = 0; j0 < p.out_w; j0 += kColumnTile) {
    const int64_t n = std::min(kColumnTile, p.out_w - j0);
    int64_t key[2] = {-1, -1};
    auto source = [&](int32_t i, int32_t keep) -> const double* {
      for (int s = 0; s < 2; ++s) {
        if (key[s] == i) return buf[s];
      }
      const int s = key[0] == keep ? 1 : 0;
      ColumnPassTile(p, l, xp + i * p.in_w, j0, n, buf[s]);
      key[s] = i;
      return buf[s];
    };
    for (int64_t y = y0; y < y1; ++y) {
      const RowTaps& t = p.rows[y];
      float* out = yp + y * p.out_w + j0;
      switch (t.kind) {
        case RowKind::kConstant:
          std::fill(out, out + n, static_cast<float>(t.value));
          break;
        case RowKind::kCopy:
          if (p.positive_zeros) {
            l.blend_one(source(t.i0, -1), 1.0, n, out);  // float(0 + h): -0 becomes +0
          } else {
            l.narrow(source(t.i0, -1), n, out);
          }
          break;
        case RowKind::kOne:
          l.blend_one(source(t.i0, -1), t.w0, n, out);
          break;
        case RowKind::kTwo: {
          const double* h0 = source(t.i0, t.i1);
          const double* h1 = source(t.i1, t.i0);
          l.blend_two(h0, h1, t.w0, t.w1, n, out);
          break;
        }
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
      if (p.linear) {
        LinearRows(p, l, xp, yp, r0, r1);
      } else {
        NearestRows(p, l, xp, yp, r0, r1);
      }
      u += r1 - r0;
    }
  });
  return Status::Ok();
}

void PlanLinearRows(const AxisPlan& a, int64_t out, double extrapolation, ResizePlan* p) {
  p->rows.resize(out);
  for (int64_t y = 0; y < out; ++y) {
    RowTaps& t = p->rows[y];
    if (a.identity) {
      t.kind = RowKind::kCopy;
      t.i0 = static_cast<int32_t>(y);
      continue;
    }
    if (a.extrapolate[y]) {
      t.kind = RowKind::kConstant;
      t.value = extrapolation;
      continue;
    }
    int taps = 0;
    for (int k = 0; k < 2; ++k) {
      const double w = a.weight[y * 2 + k];
      if (w == 0) continue;
      (taps == 0 ? t.i0 : t.i1) = static_cast<int32_t>(a.index[y * 2 + k]);
      (taps == 0 ? t.w0 : t.w1) = w;
      ++taps;
    }
    t.kind = taps == 0 ? RowKind::kConstant : taps == 1 ? RowKind::kOne : RowKind::kTwo;
  }
}

void PlanLinearColumns(const AxisPlan& a, int64_t out, ResizePlan* p) {
  p->columns_unchanged = a.identity;
  if (a.identity) return;
  p->col_i0.resize(out);
  p->col_i1.resize(out);
  p->col_w0.resize(out);
  p->col_w1.resize(out);
  p->col_extrapolate.assign(a.extrapolate.begin(), a.extrapolate.end());
  for (int64_t j = 0; j < out; ++j) {
    p->col_i0[j] = static_cast<int32_t>(a.index[j * 2]);
    p->col_i1[j] = static_cast<int32_t>(a.index[j * 2 + 1]);
    p->col_w0[j] = a.weight[j * 2];
    p->col_w1[j] = a.weight[j * 2 + 1];
    if (a.extrapolate[j] || p->col_w0[j] == 0 || p->col_w1[j] == 0) p->exact_cols.push_back(static_cast<int32_t>(j));
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

// An axis of extent 1 whose two taps weigh 0.5 each (pytorch_half_pixel, tf_half_pixel_for_nn): the reference's
// pass over it, (0 + 0.5 v) + 0.5 v in double, is v except that -0 becomes +0.
bool HalvesOfOne(const AxisPlan& a) {
  return a.index.size() == 2 && !a.extrapolate[0] && a.index[0] == 0 && a.index[1] == 0 && a.weight[0] == 0.5 &&
         a.weight[1] == 0.5;
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
  if (!ref::resize::ReadResizeConfig(node.op_type(), node.attrs(), r.opset, &cfg).ok() ||
      cfg.mode == ResizeMode::kCubic) {
    return nullptr;
  }
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
  p.linear = cfg.mode == ResizeMode::kLinear;
  p.extrapolation = cfg.extrapolation;
  if (NumElements(out) != 0) {
    for (int k = 0; k + 2 < rank; ++k) {
      const AxisPlan lead = ref::resize::PlanResizeAxis(cfg, k, rank, in[k], out[k]);
      if (!lead.identity && !(p.linear && HalvesOfOne(lead))) return nullptr;
      p.positive_zeros |= !lead.identity;
      p.planes *= in[k];
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
      rows.index = {0, 0};
      rows.weight = {1, 0};
      rows.extrapolate = {0};
      rows.identity = true;
    }
    if (p.linear) {
      PlanLinearRows(rows, p.out_h, p.positive_zeros ? 0.0 + cfg.extrapolation : cfg.extrapolation, &p);
      PlanLinearColumns(cols, p.out_w, &p);
    } else {
      PlanNearest(rows, cols, &p);
    }
  } else {
    p.planes = 0;
  }
  return std::make_unique<ResizeKernel>(std::move(p), PickLoops(r.max_isa), &ResizeTask, node.num_inputs());
}

}  // namespace ge::exec
