#include "kernels/exec/lstm_kernel.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/exec/kernel_util.h"

#pragma GCC diagnostic ignored "-Wpsabi"  // lanes never cross a call: the updates are flattened
#include "kernels/exec/nhwc_conv.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/rnn_step.h"
#include "kernels/exec/rnn_weights.h"

namespace ge::exec {
namespace {

constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5, kInitC = 6, kP = 7;
constexpr int kY = 0, kYh = 1, kYc = 2;
// Hidden units per panel; a panel holds their four gates (i, o, f, c: 4 x kUnits columns of R^T and of the gate
// pre-activations), so a thread that computes a panel's gates can also update its units' cells.
constexpr int64_t kUnits = 16;
// Columns of R^T per panel: 8 AVX2 accumulators.
constexpr int64_t kRPanel = 4 * kUnits;
// Recurrent multiply-adds per step (batch x 4H x H) from which a single direction's steps are split over the pool:
// below, a step is too short to share (the split costs about a microsecond).
constexpr int64_t kParallelStepMacs = 128 * 1024;

// One direction's constants, gate columns in panel order: column p * 64 + g * 16 + j is gate g (ONNX's order i, o,
// f, c) of hidden unit p * 16 + j; the columns of units past H (the last panel's padding) are zero. W, the bias and
// R are packed at prepare or mapped from the model (rnn_weights.h), in that order.
struct Direction {
  PackedMatrix w;               // W^T [input, panels * 64] for the input projection
  PackedFloats bias;            // Wb + Rb [panels * 64]
  PackedFloats r_panels;        // R^T as [panels][H][64]
  std::vector<float> peephole;  // [3H] (i, o, f) or empty
};

#ifdef GE_RNN_STEP_X86
// The cell update of units [u0, u0 + n) (n <= 16) from their panel's gate pre-activations g (i, o, f, c blocks of
// 16), W units at a time: c in place, the new h into h_next. p: peepholes [3H] or null.
template <int W>
inline void UpdateUnits(const float* g, const float* p, int64_t hidden, int64_t u0, int64_t n, float* c,
                        float* h_next) {
  using V = FloatLanes<W>;
  using rnn::LoadN;
  for (int64_t j = 0; j < n; j += W) {
    const int64_t count = n - j, u = u0 + j;
    V gi = LoadN<W>(g + j, W), go = LoadN<W>(g + kUnits + j, W), gf = LoadN<W>(g + 2 * kUnits + j, W);
    const V gc = LoadN<W>(g + 3 * kUnits + j, W), cv = LoadN<W>(c + u, count);
    if (p != nullptr) {
      gi += LoadN<W>(p + u, count) * cv;
      gf += LoadN<W>(p + 2 * hidden + u, count) * cv;
    }
    const V cell = SigmoidLanes(gf) * cv + SigmoidLanes(gi) * TanhLanes(gc);
    if (p != nullptr) go += LoadN<W>(p + hidden + u, count) * cell;
    rnn::StoreN<W>(c + u, cell, count);
    rnn::StoreN<W>(h_next + u, SigmoidLanes(go) * TanhLanes(cell), count);
  }
}
__attribute__((target("avx2,fma"), flatten)) void UpdateUnitsAvx2(const float* g, const float* p, int64_t hidden,
                                                                  int64_t u0, int64_t n, float* c, float* h_next) {
  UpdateUnits<8>(g, p, hidden, u0, n, c, h_next);
}
__attribute__((target(GE_RNN_AVX512_TARGET), flatten)) void UpdateUnitsAvx512(const float* g, const float* p,
                                                                              int64_t hidden, int64_t u0, int64_t n,
                                                                              float* c, float* h_next) {
  UpdateUnits<16>(g, p, hidden, u0, n, c, h_next);
}
#endif

class LstmKernel final : public PreparedKernel {
 public:
  LstmKernel(int num_inputs, int num_outputs) {
    fn_ = &Task;
    num_inputs_ = num_inputs;
    num_outputs_ = num_outputs;
  }
  const char* impl_name() const override { return "exec.lstm"; }
  size_t scratch_bytes() const override { return ScratchFloats() * sizeof(float); }

  int64_t seq = 0, batch = 1, input = 0, hidden = 0;
  bool reverse_only = false;
  bool avx512 = false;  // the model's target and this CPU allow the AVX-512 loops (same packed constants)
  std::vector<Direction> dirs;

  int64_t Panels() const { return (hidden + kUnits - 1) / kUnits; }
  int64_t GateStride() const { return Panels() * kRPanel; }
  // The packed constants' description: kernel, panel geometry, dims.
  std::string Layout() const {
    return "exec.lstm/1;units=" + std::to_string(kUnits) + ";gemm_panel=" + std::to_string(kPanel) +
           ";dirs=" + std::to_string(dirs.size()) + ";input=" + std::to_string(input) +
           ";hidden=" + std::to_string(hidden);
  }
  // Per direction: packed W, bias, R panels.
  std::vector<int64_t> BlockFloats() const {
    std::vector<int64_t> f;
    for (size_t d = 0; d < dirs.size(); ++d) {
      f.push_back(PackedMatrix::PanelFloats(input, GateStride()));
      f.push_back(GateStride());
      f.push_back(Panels() * hidden * kRPanel);
    }
    return f;
  }
  bool PackedConstants(PackedConstant* out) const override {
    if (dirs.empty() || dirs.front().w.mapped != nullptr) return false;
    std::vector<PackedBlock> blocks;
    for (const Direction& d : dirs) {
      blocks.push_back({d.w.data.data(), static_cast<int64_t>(d.w.data.size())});
      blocks.push_back({d.bias.owned.data(), static_cast<int64_t>(d.bias.owned.size())});
      blocks.push_back({d.r_panels.owned.data(), static_cast<int64_t>(d.r_panels.owned.size())});
    }
    *out = ConcatPackedBlocks(kR, Layout(), blocks);
    return true;
  }

 protected:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(ScratchFloats()));
  }
  StatusOr<std::unique_ptr<KernelState>> CreateStateOnScratch(void* scratch) const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(scratch));
  }

 private:
  // Per direction: the gates of every step and batch row [seq][batch][GateStride()], then h twice (the step's input
  // and its output) and c [batch][H each].
  int64_t DirectionFloats() const { return seq * batch * GateStride() + 3 * batch * hidden; }
  size_t ScratchFloats() const { return static_cast<size_t>(DirectionFloats() * static_cast<int64_t>(dirs.size())); }

#ifdef GE_RNN_STEP_X86
  // Whether one direction's steps are split over the pool: a single direction (a bidirectional node's two run side
  // by side instead), batch x 4H x H large enough, and a pool with more than one thread.
  bool SplitSteps(const rt::TaskContext& ctx) const {
    return dirs.size() == 1 && ctx.pool != nullptr && ctx.pool->num_threads() > 1 &&
           4 * hidden * hidden * batch >= kParallelStepMacs;
  }

  void RunDirection(const KernelIo& io, int64_t d, float* scratch, rt::TaskContext* step_ctx) const {
    const Direction& dir = dirs[d];
    const int64_t h_size = hidden, stride = GateStride(), num_dirs = static_cast<int64_t>(dirs.size());
    const int64_t panels = Panels(), state = batch * h_size;
    float* gates = scratch;
    float* h = gates + seq * batch * stride;
    float* h_next = h + state;
    float* c = h_next + state;
    const float* x = static_cast<const float*>(io.inputs[kX]);
    const int64_t gemm_panels = (stride + kPanel - 1) / kPanel;
    auto project = [&](size_t t0, size_t t1) {
      const int64_t m0 = static_cast<int64_t>(t0) * batch, m1 = static_cast<int64_t>(t1) * batch;
      if (avx512) {
        PackedGemmAvx512(m0, m1, x, input, dir.w, dir.bias.data(), gates, stride);
      } else {
        PackedGemm(m0, m1, 0, gemm_panels, x, input, dir.w, dir.bias.data(), GemmActivation::kNone, gates, stride);
      }
    };
    if (step_ctx != nullptr) {
      step_ctx->pool->ParallelFor(static_cast<size_t>(seq), project, std::max<size_t>(1, static_cast<size_t>(seq) / 8));
    } else {
      project(0, static_cast<size_t>(seq));
    }
    auto initial = [&](int slot, float* to) {
      const void* from = slot < static_cast<int>(io.inputs.size()) ? io.inputs[slot] : nullptr;
      if (from != nullptr) {
        std::memcpy(to, static_cast<const float*>(from) + d * state, static_cast<size_t>(state) * sizeof(float));
      } else {
        std::fill(to, to + state, 0.f);
      }
    };
    initial(kInitH, h);
    initial(kInitC, c);
    float* y = io.outputs[kY] != nullptr ? static_cast<float*>(io.outputs[kY]) : nullptr;
    const float* p = dir.peephole.empty() ? nullptr : dir.peephole.data();
    const float* r_panels = dir.r_panels.data();
    const bool reverse = reverse_only || d == 1;
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t t = reverse ? seq - 1 - s : s;
      float* g = gates + t * batch * stride;
      float* y_t = y != nullptr ? y + (t * num_dirs + d) * state : nullptr;
      // Panels [p0, p1): their gates from h, then their units' cells, for every batch row while the panel is in
      // cache; the new states go to h_next (every panel of the step reads all of h).
      auto step = [&](size_t p0, size_t p1) {
        for (size_t q = p0; q < p1; ++q) {
          const float* panel = r_panels + static_cast<int64_t>(q) * h_size * kRPanel;
          const int64_t u0 = static_cast<int64_t>(q) * kUnits;
          const int64_t n = std::min(kUnits, h_size - u0);
          if (avx512) {
            float* gq = g + static_cast<int64_t>(q) * kRPanel;
            rnn::PanelMatVecRows512<kRPanel / 16>(h, h_size, batch, panel, h_size, gq, stride, gq, stride);
          }
          for (int64_t b = 0; b < batch; ++b) {
            float* gq = g + b * stride + static_cast<int64_t>(q) * kRPanel;
            if (!avx512) rnn::PanelMatVec<8>(h + b * h_size, panel, h_size, 1, gq, gq);
            (avx512 ? UpdateUnitsAvx512 : UpdateUnitsAvx2)(gq, p, h_size, u0, n, c + b * h_size, h_next + b * h_size);
            if (y_t != nullptr) {
              std::memcpy(y_t + b * h_size + u0, h_next + b * h_size + u0, static_cast<size_t>(n) * sizeof(float));
            }
          }
        }
      };
      if (step_ctx != nullptr) {
        step_ctx->pool->ParallelFor(static_cast<size_t>(panels), step, 1);
      } else {
        step(0, static_cast<size_t>(panels));
      }
      std::swap(h, h_next);
    }
    for (int slot : {kYh, kYc}) {
      if (slot >= static_cast<int>(io.outputs.size()) || io.outputs[slot] == nullptr) continue;
      std::memcpy(static_cast<float*>(io.outputs[slot]) + d * state, slot == kYh ? h : c,
                  static_cast<size_t>(state) * sizeof(float));
    }
  }
#endif

  static Status Task(void* args, rt::TaskContext& ctx) {
#ifdef GE_RNN_STEP_X86
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<LstmKernel>(*bd);
    float* scratch = static_cast<const ScratchState*>(bd->state.get())->buffer();
    const int64_t n = static_cast<int64_t>(k.dirs.size());
    if (k.SplitSteps(ctx)) {
      k.RunDirection(bd->io, 0, scratch, &ctx);
      return Status::Ok();
    }
    auto body = [&](size_t begin, size_t end) {
      for (size_t d = begin; d < end; ++d) {
        k.RunDirection(bd->io, static_cast<int64_t>(d), scratch + static_cast<int64_t>(d) * k.DirectionFloats(),
                       nullptr);
      }
    };
    if (ctx.pool != nullptr && n > 1) {
      ctx.pool->ParallelFor(static_cast<size_t>(n), body, 1);
    } else {
      body(0, static_cast<size_t>(n));
    }
    return Status::Ok();
#else
    (void)args;
    (void)ctx;
    return Internal("exec.lstm needs an x86-64 build");
#endif
  }
};

bool PlainFloat(const TensorDesc& d) { return d.dtype == DataType::kFloat && !IsNonPlainLayout(d.format); }

bool DefaultActivations(const ir::AttrMap& a, int64_t num_dirs) {
  if (!a.Has("activations")) return true;
  const std::vector<std::string> names = a.GetStrings("activations");
  const std::vector<std::string> one = {"Sigmoid", "Tanh", "Tanh"};
  if (names == one) return true;
  return num_dirs == 2 && names.size() == 6 && std::equal(one.begin(), one.end(), names.begin()) &&
         std::equal(one.begin(), one.end(), names.begin() + 3);
}

// Packs one direction's W, biases and R into panel order (Direction).
void PackDirection(const float* wd, const float* rd, const float* wb, int64_t input, int64_t hidden, Direction* dir) {
  const int64_t gh = 4 * hidden, panels = (hidden + kUnits - 1) / kUnits, cols = panels * kRPanel;
  // Column of gate g of unit u in panel order.
  auto column = [](int64_t g, int64_t u) { return (u / kUnits) * kRPanel + g * kUnits + u % kUnits; };
  std::vector<float> w_rows(static_cast<size_t>(cols * input), 0.f);  // W's rows in panel order: [cols, input]
  dir->bias.owned.assign(static_cast<size_t>(cols), 0.f);
  dir->r_panels.owned.assign(static_cast<size_t>(panels * hidden * kRPanel), 0.f);
  for (int64_t g = 0; g < 4; ++g) {
    for (int64_t u = 0; u < hidden; ++u) {
      const int64_t row = g * hidden + u, j = column(g, u);
      std::copy(wd + row * input, wd + (row + 1) * input, w_rows.begin() + j * input);
      if (wb != nullptr) dir->bias.owned[j] = wb[row] + wb[gh + row];
      float* col = dir->r_panels.owned.data() + (j / kRPanel) * hidden * kRPanel + j % kRPanel;
      for (int64_t kk = 0; kk < hidden; ++kk) col[kk * kRPanel] = rd[row * hidden + kk];
    }
  }
  dir->w = PackB(w_rows.data(), input, cols, input, true);
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareLstm(const PrepareRequest& r) {
#ifndef GE_RNN_STEP_X86
  (void)r;
  return nullptr;
#else
  if (!PackedGemmAllowed(r.max_isa)) return nullptr;
  const ir::Node& node = *r.node;
  if (node.op_type() != "LSTM" || !(node.domain().empty() || node.domain() == "ai.onnx")) return nullptr;
  const int num_in = node.num_inputs(), num_out = node.num_outputs();
  if (num_in < 3 || num_in > 8 || num_out < 1 || num_out > 3) return nullptr;
  const ir::AttrMap& a = node.attrs();
  const std::string direction = a.GetString("direction", "forward");
  const int64_t num_dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") return nullptr;
  if (a.GetInt("layout", 0) != 0 || a.Has("clip") || a.GetInt("input_forget", 0) != 0) return nullptr;
  if (a.Has("activation_alpha") || a.Has("activation_beta") || !DefaultActivations(a, num_dirs)) return nullptr;

  Dims r_dims;
  const Tensor* packed = PackedInput(r, kR, &r_dims);
  for (int i = 0; i < num_in; ++i) {
    if (InputPresent(r, i) && i != kSeqLens && !(i == kR && packed) && !PlainFloat(r.input_descs[i])) return nullptr;
  }
  bool any_out = false;
  for (int i = 0; i < num_out; ++i) {
    if (!OutputPresent(r, i)) continue;
    if (!PlainFloat(r.output_descs[i])) return nullptr;
    any_out = true;
  }
  if (!any_out || !InputPresent(r, kX)) return nullptr;
  const Tensor* w = ConstInput(r, kW);
  const Tensor* rw = packed != nullptr ? nullptr : ConstInput(r, kR);
  const Tensor* b = InputPresent(r, kB) ? ConstInput(r, kB) : nullptr;
  const Tensor* p = InputPresent(r, kP) ? ConstInput(r, kP) : nullptr;
  if (w == nullptr || (rw == nullptr && packed == nullptr) || (InputPresent(r, kB) && b == nullptr) ||
      (InputPresent(r, kP) && p == nullptr)) {
    return nullptr;
  }
  if (rw != nullptr) r_dims = rw->dims();
  const Dims& x = r.input_descs[kX].shape.dims();
  if (x.size() != 3 || r_dims.size() != 3) return nullptr;
  const int64_t seq = x[0], batch = x[1], input = x[2], hidden = r_dims[2], gh = 4 * hidden;
  if (seq <= 0 || batch <= 0 || input <= 0 || hidden <= 0 || a.GetInt("hidden_size", hidden) != hidden) return nullptr;
  if (w->dims() != Dims{num_dirs, gh, input} || r_dims != Dims{num_dirs, gh, hidden}) return nullptr;
  if (b != nullptr && b->dims() != Dims{num_dirs, 2 * gh}) return nullptr;
  if (p != nullptr && p->dims() != Dims{num_dirs, 3 * hidden}) return nullptr;
  if (w->dtype() != DataType::kFloat || (rw != nullptr && rw->dtype() != DataType::kFloat)) return nullptr;
  if (InputPresent(r, kSeqLens)) {
    const Tensor* lens = ConstInput(r, kSeqLens);
    if (lens == nullptr || lens->numel() != batch) return nullptr;
    for (int64_t i = 0; i < batch; ++i) {
      if (lens->GetAsInt64(i) != seq) return nullptr;
    }
  }
  const Dims state = {num_dirs, batch, hidden};
  for (int i : {kInitH, kInitC}) {
    if (InputPresent(r, i) && r.input_descs[i].shape.dims() != state) return nullptr;
  }
  if (OutputPresent(r, kY) && r.output_descs[kY].shape.dims() != Dims{seq, num_dirs, batch, hidden}) return nullptr;
  for (int i : {kYh, kYc}) {
    if (OutputPresent(r, i) && r.output_descs[i].shape.dims() != state) return nullptr;
  }

  auto k = std::make_unique<LstmKernel>(num_in, num_out);
  k->seq = seq;
  k->batch = batch;
  k->input = input;
  k->hidden = hidden;
  k->reverse_only = direction == "reverse";
  k->avx512 = PickLoopIsa(r.max_isa) == LoopIsa::kAvx512;
  k->dirs.resize(static_cast<size_t>(num_dirs));
  for (int64_t d = 0; d < num_dirs; ++d) {
    Direction& dir = k->dirs[d];
    if (packed == nullptr) {
      PackDirection(w->data<float>() + d * gh * input, rw->data<float>() + d * gh * hidden,
                    b != nullptr ? b->data<float>() + d * 2 * gh : nullptr, input, hidden, &dir);
    } else {
      dir.w.k = input;
      dir.w.n = k->GateStride();
    }
    if (p != nullptr) dir.peephole.assign(p->data<float>() + d * 3 * hidden, p->data<float>() + (d + 1) * 3 * hidden);
  }
  if (packed != nullptr) {
    if (node.attrs().GetString(kPackedLayoutAttr, "") != k->Layout()) return nullptr;
    std::vector<const float**> mapped;
    for (Direction& dir : k->dirs) {
      mapped.push_back(&dir.w.mapped);
      mapped.push_back(&dir.bias.mapped);
      mapped.push_back(&dir.r_panels.mapped);
    }
    if (!MapPackedBlocks(*packed, k->BlockFloats(), mapped)) return nullptr;
  }
  return k;
#endif
}

}  // namespace ge::exec
