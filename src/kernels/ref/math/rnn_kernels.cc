// Reference kernels for RNN, GRU and LSTM (opset 7 semantics; `layout` since opset 14). Every direction runs on
// a canonical layout: X [seq, batch, input], Y [seq, dirs, batch, hidden], states [dirs, batch, hidden]. The input
// projection of all steps is one GEMM; each step adds H @ R^T. float16/bfloat16 compute in float.
#include <algorithm>
#include <type_traits>

#include "kernels/ref/math/gemm.h"
#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/math/rnn_activation.h"

namespace ge::ref {
namespace {

using math::Activation;

enum class Cell { kRnn, kGru, kLstm };

struct RnnConfig {
  Cell cell = Cell::kRnn;
  int gates = 1;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
  bool reverse_only = false;  // direction == "reverse"
  int64_t layout = 0;
  float clip = 0.f;           // > 0: pre-activations are clipped to [-clip, clip]
  bool linear_before_reset = false;
  bool input_forget = false;
  int acts_per_dir = 1;
  std::vector<Activation> acts;  // acts_per_dir per direction
};

// Inputs converted to compute type C and canonical layout.
template <typename C>
struct RnnData {
  std::vector<C> x, w, r, b, p, h0, c0;
  std::vector<int64_t> lens;
};

template <typename C>
std::vector<C> Load(const Tensor& t) {
  std::vector<C> out;
  VisitFloatType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = math::ConvertTo<C>(t.data<T>(), t.numel());
  }).IgnoreError();
  return out;
}

// Swaps the first two dims of a [d0, d1, inner] array.
template <typename C>
std::vector<C> Swap01(const std::vector<C>& in, int64_t d0, int64_t d1, int64_t inner) {
  std::vector<C> out(in.size());
  for (int64_t i = 0; i < d0; ++i)
    for (int64_t j = 0; j < d1; ++j)
      std::copy_n(in.data() + (i * d1 + j) * inner, inner, out.data() + (j * d0 + i) * inner);
  return out;
}

Status CheckDims(const KernelContext& ctx, const Tensor* t, const Dims& want, const char* name) {
  if (t && t->dims() != want) {
    return ctx.Error(std::string(name) + " has shape " + DimsToString(t->dims()) + ", expected " + DimsToString(want));
  }
  return Status::Ok();
}

StatusOr<RnnConfig> ReadConfig(const KernelContext& ctx, Cell cell) {
  RnnConfig cfg;
  cfg.cell = cell;
  cfg.gates = cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 3 : 4;
  cfg.acts_per_dir = cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 2 : 3;
  const ir::AttrMap& at = ctx.attr();
  const std::string direction = at.GetString("direction", "forward");
  if (direction == "bidirectional") {
    cfg.dirs = 2;
  } else if (direction == "reverse") {
    cfg.reverse_only = true;
  } else if (direction != "forward") {
    return ctx.Error("unknown direction '" + direction + "'");
  }
  cfg.layout = ctx.opset >= 14 ? at.GetInt("layout", 0) : 0;
  if (cfg.layout != 0 && cfg.layout != 1) return ctx.Error("attribute layout must be 0 or 1");
  cfg.clip = at.Has("clip") ? at.GetFloat("clip", 0.f) : 0.f;
  if (at.Has("clip") && !(cfg.clip > 0.f)) return ctx.Error("attribute clip must be positive");
  cfg.linear_before_reset = at.GetInt("linear_before_reset", 0) != 0;
  cfg.input_forget = at.GetInt("input_forget", 0) != 0;

  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* r = ctx.input(2);
  if (!x || !w || !r) return ctx.Error("inputs X, W and R are required");
  if (x->dtype() != w->dtype() || x->dtype() != r->dtype()) return ctx.Error("X, W and R must share a dtype");
  if (x->rank() != 3 || w->rank() != 3 || r->rank() != 3) return ctx.Error("X, W and R must be 3-D");
  cfg.seq = x->dim(cfg.layout == 0 ? 0 : 1);
  cfg.batch = x->dim(cfg.layout == 0 ? 1 : 0);
  cfg.input = x->dim(2);
  cfg.hidden = at.GetInt("hidden_size", r->dim(2));
  if (cfg.hidden <= 0) return ctx.Error("hidden_size must be positive");
  const int64_t gh = cfg.gates * cfg.hidden;
  GE_RETURN_IF_ERROR(CheckDims(ctx, w, {cfg.dirs, gh, cfg.input}, "W"));
  GE_RETURN_IF_ERROR(CheckDims(ctx, r, {cfg.dirs, gh, cfg.hidden}, "R"));
  GE_RETURN_IF_ERROR(CheckDims(ctx, ctx.input(3), {cfg.dirs, 2 * gh}, "B"));
  GE_RETURN_IF_ERROR(CheckDims(ctx, ctx.input(4), {cfg.batch}, "sequence_lens"));
  const Dims state = cfg.layout == 0 ? Dims{cfg.dirs, cfg.batch, cfg.hidden} : Dims{cfg.batch, cfg.dirs, cfg.hidden};
  GE_RETURN_IF_ERROR(CheckDims(ctx, ctx.input(5), state, "initial_h"));
  if (cell == Cell::kLstm) {
    GE_RETURN_IF_ERROR(CheckDims(ctx, ctx.input(6), state, "initial_c"));
    GE_RETURN_IF_ERROR(CheckDims(ctx, ctx.input(7), {cfg.dirs, 3 * cfg.hidden}, "P"));
  }
  for (int i : {3, 5, 6, 7}) {
    const Tensor* t = ctx.input(i);
    if (t && (i < 6 || cell == Cell::kLstm) && t->dtype() != x->dtype()) {
      return ctx.Error("input " + std::to_string(i) + " must have the dtype of X");
    }
  }

  std::vector<std::string> names = at.GetStrings("activations");
  if (names.empty()) {
    const std::vector<std::string> defaults =
        cell == Cell::kRnn ? std::vector<std::string>{"Tanh"}
        : cell == Cell::kGru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                             : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    for (int64_t d = 0; d < cfg.dirs; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  } else if (static_cast<int64_t>(names.size()) == cfg.acts_per_dir && cfg.dirs == 2) {
    names.insert(names.end(), names.begin(), names.end());  // one set given for both directions
  }
  if (static_cast<int64_t>(names.size()) != cfg.acts_per_dir * cfg.dirs) {
    return ctx.Error("attribute activations must hold " + std::to_string(cfg.acts_per_dir * cfg.dirs) +
                     " functions, got " + std::to_string(names.size()));
  }
  auto acts = math::ParseActivations(names, at.GetFloats("activation_alpha"), at.GetFloats("activation_beta"));
  if (!acts.ok()) return ctx.Error(acts.status().message());
  cfg.acts = std::move(acts).value();
  return cfg;
}

template <typename C>
StatusOr<RnnData<C>> LoadData(const KernelContext& ctx, const RnnConfig& cfg) {
  RnnData<C> d;
  const int64_t gh = cfg.gates * cfg.hidden;
  d.x = Load<C>(*ctx.input(0));
  if (cfg.layout == 1) d.x = Swap01(d.x, cfg.batch, cfg.seq, cfg.input);
  d.w = Load<C>(*ctx.input(1));
  d.r = Load<C>(*ctx.input(2));
  d.b = ctx.input(3) ? Load<C>(*ctx.input(3)) : std::vector<C>(cfg.dirs * 2 * gh, C(0));
  d.h0 = ctx.input(5) ? Load<C>(*ctx.input(5)) : std::vector<C>(cfg.dirs * cfg.batch * cfg.hidden, C(0));
  if (ctx.input(5) && cfg.layout == 1) d.h0 = Swap01(d.h0, cfg.batch, cfg.dirs, cfg.hidden);
  if (cfg.cell == Cell::kLstm) {
    d.c0 = ctx.input(6) ? Load<C>(*ctx.input(6)) : std::vector<C>(cfg.dirs * cfg.batch * cfg.hidden, C(0));
    if (ctx.input(6) && cfg.layout == 1) d.c0 = Swap01(d.c0, cfg.batch, cfg.dirs, cfg.hidden);
    d.p = ctx.input(7) ? Load<C>(*ctx.input(7)) : std::vector<C>(cfg.dirs * 3 * cfg.hidden, C(0));
  }
  d.lens.assign(cfg.batch, cfg.seq);
  if (const Tensor* sl = ctx.input(4)) {
    for (int64_t b = 0; b < cfg.batch; ++b) {
      d.lens[b] = sl->GetAsInt64(b);
      if (d.lens[b] < 0 || d.lens[b] > cfg.seq) {
        return ctx.Error("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(d.lens[b]) +
                         " is outside [0, " + std::to_string(cfg.seq) + "]");
      }
    }
  }
  return d;
}

template <typename C>
void Clip(C* v, int64_t n, float clip) {
  if (clip <= 0.f) return;
  const C c = static_cast<C>(clip);
  for (int64_t i = 0; i < n; ++i) v[i] = v[i] < -c ? -c : v[i] > c ? c : v[i];
}

// Runs direction `dir` (reverse when `reverse`), writing y [seq, dirs, batch, H] and the final states.
template <typename C>
void RunDirection(const RnnConfig& cfg, const RnnData<C>& d, int64_t dir, bool reverse, C* y, C* y_h, C* y_c) {
  const int64_t S = cfg.seq, N = cfg.batch, I = cfg.input, H = cfg.hidden, G = cfg.gates, GH = G * H;
  const C* w = d.w.data() + dir * GH * I;
  const C* r = d.r.data() + dir * GH * H;
  const C* wb = d.b.data() + dir * 2 * GH;
  const C* rb = wb + GH;
  const Activation* act = cfg.acts.data() + dir * cfg.acts_per_dir;
  const bool gru = cfg.cell == Cell::kGru, lstm = cfg.cell == Cell::kLstm;

  // xw[t, b] = X[t, b] @ W^T + Wb (+ Rb, except GRU's hidden gate whose Rb sits inside the reset product).
  std::vector<C> xw(static_cast<size_t>(S * N * GH));
  for (int64_t row = 0; row < S * N; ++row) {
    C* dst = xw.data() + row * GH;
    for (int64_t j = 0; j < GH; ++j) dst[j] = wb[j] + ((gru && j >= 2 * H) ? C(0) : rb[j]);
  }
  math::Gemm(false, true, S * N, GH, I, C(1), d.x.data(), I, w, I, xw.data(), GH);

  std::vector<C> h(d.h0.begin() + dir * N * H, d.h0.begin() + (dir + 1) * N * H);
  std::vector<C> c;
  if (lstm) c.assign(d.c0.begin() + dir * N * H, d.c0.begin() + (dir + 1) * N * H);
  std::vector<C> hr(static_cast<size_t>(N * GH)), gates(static_cast<size_t>(GH)), rh, hh;
  if (gru) {
    rh.assign(static_cast<size_t>(N * H), C(0));
    hh.assign(static_cast<size_t>(N * H), C(0));
  }
  const C* p = lstm ? d.p.data() + dir * 3 * H : nullptr;

  for (int64_t s = 0; s < S; ++s) {
    std::fill(hr.begin(), hr.end(), C(0));
    // GRU without linear_before_reset needs r before the hidden-gate product: only z and r columns here.
    const int64_t hr_cols = (gru && !cfg.linear_before_reset) ? 2 * H : GH;
    math::Gemm(false, true, N, hr_cols, H, C(1), h.data(), H, r, H, hr.data(), GH);
    for (int64_t b = 0; b < N; ++b) {
      if (s >= d.lens[b]) continue;
      const int64_t t = reverse ? d.lens[b] - 1 - s : s;
      const C* xg = xw.data() + (t * N + b) * GH;
      const C* hg = hr.data() + b * GH;
      C* hb = h.data() + b * H;
      C* g = gates.data();
      const int64_t ncols = gru ? 2 * H : GH;
      for (int64_t j = 0; j < ncols; ++j) g[j] = xg[j] + hg[j];
      if (cfg.cell == Cell::kRnn) {
        Clip(g, H, cfg.clip);
        math::ApplyActivation(act[0], g, H);
        std::copy_n(g, H, hb);
      } else if (lstm) {
        C* gi = g;
        C* go = g + H;
        C* gf = g + 2 * H;
        C* gc = g + 3 * H;
        C* cb = c.data() + b * H;
        for (int64_t k = 0; k < H; ++k) gi[k] += p[k] * cb[k];
        Clip(gi, H, cfg.clip);
        math::ApplyActivation(act[0], gi, H);
        if (cfg.input_forget) {
          for (int64_t k = 0; k < H; ++k) gf[k] = C(1) - gi[k];
        } else {
          for (int64_t k = 0; k < H; ++k) gf[k] += p[2 * H + k] * cb[k];
          Clip(gf, H, cfg.clip);
          math::ApplyActivation(act[0], gf, H);
        }
        Clip(gc, H, cfg.clip);
        math::ApplyActivation(act[1], gc, H);
        for (int64_t k = 0; k < H; ++k) cb[k] = gf[k] * cb[k] + gi[k] * gc[k];
        for (int64_t k = 0; k < H; ++k) go[k] += p[H + k] * cb[k];
        Clip(go, H, cfg.clip);
        math::ApplyActivation(act[0], go, H);
        std::copy_n(cb, H, gc);  // gc now holds h(C)
        math::ApplyActivation(act[2], gc, H);
        for (int64_t k = 0; k < H; ++k) hb[k] = go[k] * gc[k];
      } else {  // GRU, first half: z and r; the hidden gate needs every row's r when not linear_before_reset
        Clip(g, 2 * H, cfg.clip);
        math::ApplyActivation(act[0], g, 2 * H);
        C* zr = hr.data() + b * GH;  // keep z, r in this row's (consumed) hr slots
        std::copy_n(g, 2 * H, zr);
        if (!cfg.linear_before_reset)
          for (int64_t k = 0; k < H; ++k) rh[b * H + k] = g[H + k] * hb[k];
      }
      if (y && !gru) std::copy_n(hb, H, y + ((t * cfg.dirs + dir) * N + b) * H);
    }
    if (!gru) continue;
    if (!cfg.linear_before_reset) {
      std::fill(hh.begin(), hh.end(), C(0));
      math::Gemm(false, true, N, H, H, C(1), rh.data(), H, r + 2 * H * H, H, hh.data(), H);
    }
    for (int64_t b = 0; b < N; ++b) {
      if (s >= d.lens[b]) continue;
      const int64_t t = reverse ? d.lens[b] - 1 - s : s;
      const C* xh = xw.data() + (t * N + b) * GH + 2 * H;
      const C* z = hr.data() + b * GH;
      const C* rg = z + H;
      C* hb = h.data() + b * H;
      C* g = gates.data();
      if (cfg.linear_before_reset) {
        const C* hrh = hr.data() + b * GH + 2 * H;
        for (int64_t k = 0; k < H; ++k) g[k] = xh[k] + rg[k] * (hrh[k] + rb[2 * H + k]);
      } else {
        for (int64_t k = 0; k < H; ++k) g[k] = xh[k] + hh[b * H + k] + rb[2 * H + k];
      }
      Clip(g, H, cfg.clip);
      math::ApplyActivation(act[1], g, H);
      for (int64_t k = 0; k < H; ++k) hb[k] = (C(1) - z[k]) * g[k] + z[k] * hb[k];
      if (y) std::copy_n(hb, H, y + ((t * cfg.dirs + dir) * N + b) * H);
    }
  }
  std::copy(h.begin(), h.end(), y_h + dir * N * H);
  if (lstm) std::copy(c.begin(), c.end(), y_c + dir * N * H);
}

template <typename C>
Status RunRecurrent(KernelContext& ctx, const RnnConfig& cfg) {
  GE_ASSIGN_OR_RETURN(RnnData<C> d, LoadData<C>(ctx, cfg));
  const int64_t S = cfg.seq, N = cfg.batch, H = cfg.hidden, D = cfg.dirs;
  std::vector<C> y(static_cast<size_t>(S * D * N * H), C(0)), y_h(static_cast<size_t>(D * N * H), C(0)), y_c;
  if (cfg.cell == Cell::kLstm) y_c.assign(y_h.size(), C(0));
  for (int64_t dir = 0; dir < D; ++dir) {
    const bool reverse = cfg.reverse_only || dir == 1;
    RunDirection<C>(cfg, d, dir, reverse, y.data(), y_h.data(), y_c.data());
  }
  const DataType dt = ctx.input(0)->dtype();
  auto emit = [&](int out, std::vector<C>& v, const Dims& canonical) -> Status {
    if (out >= ctx.num_outputs()) return Status::Ok();
    Dims dims = canonical;
    if (cfg.layout == 1) {
      if (canonical.size() == 4) {  // [seq, dirs, batch, H] -> [batch, seq, dirs, H]
        std::vector<C> t(v.size());
        for (int64_t s = 0; s < S; ++s)
          for (int64_t dd = 0; dd < D; ++dd)
            for (int64_t b = 0; b < N; ++b)
              std::copy_n(v.data() + ((s * D + dd) * N + b) * H, H, t.data() + ((b * S + s) * D + dd) * H);
        v.swap(t);
        dims = {N, S, D, H};
      } else {
        v = Swap01(v, D, N, H);
        dims = {N, D, H};
      }
    }
    GE_ASSIGN_OR_RETURN(Tensor * o, ctx.AllocateOutput(out, dims, dt));
    return VisitFloatType(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      math::ConvertFrom(v.data(), static_cast<int64_t>(v.size()), o->data<T>());
    });
  };
  GE_RETURN_IF_ERROR(emit(0, y, {S, D, N, H}));
  GE_RETURN_IF_ERROR(emit(1, y_h, {D, N, H}));
  if (cfg.cell == Cell::kLstm) GE_RETURN_IF_ERROR(emit(2, y_c, {D, N, H}));
  return Status::Ok();
}

Status RefRecurrent(KernelContext& ctx, Cell cell) {
  GE_ASSIGN_OR_RETURN(RnnConfig cfg, ReadConfig(ctx, cell));
  switch (ctx.input(0)->dtype()) {
    case DataType::kFloat:
    case DataType::kFloat16:
    case DataType::kBFloat16: return RunRecurrent<float>(ctx, cfg);
    case DataType::kDouble: return RunRecurrent<double>(ctx, cfg);
    default: return ctx.Unsupported(std::string("dtype ") + DataTypeName(ctx.input(0)->dtype()));
  }
}

Status RefRNN(KernelContext& ctx) { return RefRecurrent(ctx, Cell::kRnn); }
Status RefGRU(KernelContext& ctx) { return RefRecurrent(ctx, Cell::kGru); }
Status RefLSTM(KernelContext& ctx) { return RefRecurrent(ctx, Cell::kLstm); }

}  // namespace

void RegisterRnnRefKernels(KernelRegistry* r) {
  r->Add(OpId::kRNN, RefRNN);
  r->Add(OpId::kGRU, RefGRU);
  r->Add(OpId::kLSTM, RefLSTM);
}

}  // namespace ge::ref
