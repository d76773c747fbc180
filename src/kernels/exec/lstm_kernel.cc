#include "kernels/exec/lstm_kernel.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/exec/fast_exp.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/nhwc_conv.h"
#include "kernels/exec/packed_gemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GE_LSTM_X86 1
#endif

namespace ge::exec {
namespace {

constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5, kInitC = 6, kP = 7;
constexpr int kY = 0, kYh = 1, kYc = 2;
// Hidden units per panel; a panel holds their four gates (i, o, f, c: 4 x kUnits columns of R^T and of the gate
// pre-activations), so a thread that computes a panel's gates can also update its units' cells.
constexpr int64_t kUnits = 16;
// Columns of R^T per panel: 8 AVX2 accumulators.
constexpr int64_t kRPanel = 4 * kUnits;
// Recurrent multiply-adds per step (4H x H) from which a single direction's steps are split over the pool: below,
// a step is too short to share (the split costs about a microsecond).
constexpr int64_t kParallelStepMacs = 128 * 1024;

// One direction's constants, gate columns in panel order: column p * 64 + g * 16 + j is gate g (ONNX's order i, o,
// f, c) of hidden unit p * 16 + j; the columns of units past H (the last panel's padding) are zero.
struct Direction {
  PackedMatrix w;               // W^T [input, panels * 64] for the input projection
  std::vector<float> bias;      // Wb + Rb [panels * 64]
  std::vector<float> r_panels;  // R^T as [panels][H][64]
  std::vector<float> peephole;  // [3H] (i, o, f) or empty
};

#ifdef GE_LSTM_X86
// gates[0, 64 * panels) += h @ R^T, one 64-column panel at a time (the projection is already in gates).
__attribute__((target("avx2,fma"))) void AddRecurrent(const float* h, const float* panels, int64_t hidden,
                                                      int64_t num_panels, float* gates) {
  for (int64_t p = 0; p < num_panels; ++p) {
    const float* panel = panels + p * hidden * kRPanel;
    float* g = gates + p * kRPanel;
    __m256 a0 = _mm256_loadu_ps(g), a1 = _mm256_loadu_ps(g + 8), a2 = _mm256_loadu_ps(g + 16);
    __m256 a3 = _mm256_loadu_ps(g + 24), a4 = _mm256_loadu_ps(g + 32), a5 = _mm256_loadu_ps(g + 40);
    __m256 a6 = _mm256_loadu_ps(g + 48), a7 = _mm256_loadu_ps(g + 56);
    for (int64_t k = 0; k < hidden; ++k) {
      const __m256 hk = _mm256_broadcast_ss(h + k);
      const float* row = panel + k * kRPanel;
      a0 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row), a0);
      a1 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 8), a1);
      a2 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 16), a2);
      a3 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 24), a3);
      a4 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 32), a4);
      a5 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 40), a5);
      a6 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 48), a6);
      a7 = _mm256_fmadd_ps(hk, _mm256_loadu_ps(row + 56), a7);
    }
    _mm256_storeu_ps(g, a0);
    _mm256_storeu_ps(g + 8, a1);
    _mm256_storeu_ps(g + 16, a2);
    _mm256_storeu_ps(g + 24, a3);
    _mm256_storeu_ps(g + 32, a4);
    _mm256_storeu_ps(g + 40, a5);
    _mm256_storeu_ps(g + 48, a6);
    _mm256_storeu_ps(g + 56, a7);
  }
}

inline float Sigmoid(float x) { return 1.f / (1.f + FastExp(-x)); }
// 1 - 2 / (exp(2x) + 1): exact limits at +-inf (exp overflows to inf or underflows to 0), NaN stays NaN. Below
// |x| = 1/4, where that difference cancels, the odd Taylor polynomial to x^9 (relative error < 1e-8).
inline float Tanh(float x) {
  const float x2 = x * x;
  float p = 62.f / 2835.f;
  p = p * x2 - 17.f / 315.f;
  p = p * x2 + 2.f / 15.f;
  p = p * x2 - 1.f / 3.f;
  p = p * x2 + 1.f;
  const float small = x * p;
  const float large = 1.f - 2.f / (FastExp(2.f * x) + 1.f);
  return x2 < 0.0625f ? small : large;
}

// The cell update of units [u0, u0 + n) (n <= 16) from their panel's gate pre-activations g (i, o, f, c blocks of
// 16): c in place, the new h into h_next. p: peepholes [3H] or null.
__attribute__((target("avx2,fma"))) void UpdateUnits(const float* g, const float* p, int64_t hidden, int64_t u0,
                                                     int64_t n, float* c, float* h_next) {
  const float* gi = g;
  const float* go = g + kUnits;
  const float* gf = g + 2 * kUnits;
  const float* gc = g + 3 * kUnits;
  if (p == nullptr) {
    for (int64_t j = 0; j < n; ++j) {
      const int64_t u = u0 + j;
      const float cell = Sigmoid(gf[j]) * c[u] + Sigmoid(gi[j]) * Tanh(gc[j]);
      c[u] = cell;
      h_next[u] = Sigmoid(go[j]) * Tanh(cell);
    }
    return;
  }
  const float* pi = p;
  const float* po = p + hidden;
  const float* pf = p + 2 * hidden;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t u = u0 + j;
    const float cell = Sigmoid(gf[j] + pf[u] * c[u]) * c[u] + Sigmoid(gi[j] + pi[u] * c[u]) * Tanh(gc[j]);
    c[u] = cell;
    h_next[u] = Sigmoid(go[j] + po[u] * cell) * Tanh(cell);
  }
}
#endif

class LstmBatch1Kernel final : public PreparedKernel {
 public:
  LstmBatch1Kernel(int num_inputs, int num_outputs) {
    fn_ = &Task;
    num_inputs_ = num_inputs;
    num_outputs_ = num_outputs;
  }
  const char* impl_name() const override { return "exec.lstm_batch1"; }
  size_t scratch_bytes() const override { return ScratchFloats() * sizeof(float); }

  int64_t seq = 0, input = 0, hidden = 0;
  bool reverse_only = false;
  std::vector<Direction> dirs;

 protected:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(ScratchFloats()));
  }
  StatusOr<std::unique_ptr<KernelState>> CreateStateOnScratch(void* scratch) const override {
    return std::unique_ptr<KernelState>(std::make_unique<ScratchState>(scratch));
  }

 private:
  int64_t Panels() const { return (hidden + kUnits - 1) / kUnits; }
  int64_t GateStride() const { return Panels() * kRPanel; }
  // Per direction: the gates of every step [seq][GateStride()], then h twice (the step's input and its output) and
  // c [H each].
  int64_t DirectionFloats() const { return seq * GateStride() + 3 * hidden; }
  size_t ScratchFloats() const { return static_cast<size_t>(DirectionFloats() * static_cast<int64_t>(dirs.size())); }

#ifdef GE_LSTM_X86
  // Whether one direction's steps are split over the pool: a single direction (a bidirectional node's two run side
  // by side instead), 4H x H large enough, and a pool with more than one thread.
  bool SplitSteps(const rt::TaskContext& ctx) const {
    return dirs.size() == 1 && ctx.pool != nullptr && ctx.pool->num_threads() > 1 &&
           4 * hidden * hidden >= kParallelStepMacs;
  }

  void RunDirection(const KernelIo& io, int64_t d, float* scratch, rt::TaskContext* step_ctx) const {
    const Direction& dir = dirs[d];
    const int64_t h_size = hidden, stride = GateStride(), num_dirs = static_cast<int64_t>(dirs.size());
    const int64_t panels = Panels();
    float* gates = scratch;
    float* h = gates + seq * stride;
    float* h_next = h + h_size;
    float* c = h_next + h_size;
    const float* x = static_cast<const float*>(io.inputs[kX]);
    const int64_t gemm_panels = (stride + kPanel - 1) / kPanel;
    auto project = [&](size_t t0, size_t t1) {
      PackedGemm(static_cast<int64_t>(t0), static_cast<int64_t>(t1), 0, gemm_panels, x, input, dir.w, dir.bias.data(),
                 GemmActivation::kNone, gates, stride);
    };
    if (step_ctx != nullptr) {
      step_ctx->pool->ParallelFor(static_cast<size_t>(seq), project, std::max<size_t>(1, static_cast<size_t>(seq) / 8));
    } else {
      project(0, static_cast<size_t>(seq));
    }
    auto initial = [&](int slot, float* to) {
      const void* from = slot < static_cast<int>(io.inputs.size()) ? io.inputs[slot] : nullptr;
      if (from != nullptr) {
        std::memcpy(to, static_cast<const float*>(from) + d * h_size, static_cast<size_t>(h_size) * sizeof(float));
      } else {
        std::fill(to, to + h_size, 0.f);
      }
    };
    initial(kInitH, h);
    initial(kInitC, c);
    float* y = io.outputs[kY] != nullptr ? static_cast<float*>(io.outputs[kY]) : nullptr;
    const float* p = dir.peephole.empty() ? nullptr : dir.peephole.data();
    const bool reverse = reverse_only || d == 1;
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t t = reverse ? seq - 1 - s : s;
      float* g = gates + t * stride;
      float* y_t = y != nullptr ? y + (t * num_dirs + d) * h_size : nullptr;
      // Panels [p0, p1): their gates from h, then their units' cells; the new states go to h_next (every panel of
      // the step reads all of h).
      auto step = [&](size_t p0, size_t p1) {
        AddRecurrent(h, dir.r_panels.data() + p0 * h_size * kRPanel, h_size, static_cast<int64_t>(p1 - p0),
                     g + p0 * kRPanel);
        for (size_t q = p0; q < p1; ++q) {
          const int64_t u0 = static_cast<int64_t>(q) * kUnits;
          const int64_t n = std::min(kUnits, h_size - u0);
          UpdateUnits(g + q * kRPanel, p, h_size, u0, n, c, h_next);
          if (y_t != nullptr) std::memcpy(y_t + u0, h_next + u0, static_cast<size_t>(n) * sizeof(float));
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
      std::memcpy(static_cast<float*>(io.outputs[slot]) + d * h_size, slot == kYh ? h : c,
                  static_cast<size_t>(h_size) * sizeof(float));
    }
  }
#endif

  static Status Task(void* args, rt::TaskContext& ctx) {
#ifdef GE_LSTM_X86
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<LstmBatch1Kernel>(*bd);
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
    return Internal("exec.lstm_batch1 needs an x86-64 build");
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

}  // namespace

std::unique_ptr<PreparedKernel> PrepareLstmBatch1(const PrepareRequest& r) {
#ifndef GE_LSTM_X86
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

  for (int i = 0; i < num_in; ++i) {
    if (InputPresent(r, i) && i != kSeqLens && !PlainFloat(r.input_descs[i])) return nullptr;
  }
  bool any_out = false;
  for (int i = 0; i < num_out; ++i) {
    if (!OutputPresent(r, i)) continue;
    if (!PlainFloat(r.output_descs[i])) return nullptr;
    any_out = true;
  }
  if (!any_out || !InputPresent(r, kX)) return nullptr;
  const Tensor* w = ConstInput(r, kW);
  const Tensor* rw = ConstInput(r, kR);
  const Tensor* b = InputPresent(r, kB) ? ConstInput(r, kB) : nullptr;
  const Tensor* p = InputPresent(r, kP) ? ConstInput(r, kP) : nullptr;
  if (w == nullptr || rw == nullptr || (InputPresent(r, kB) && b == nullptr) || (InputPresent(r, kP) && p == nullptr)) {
    return nullptr;
  }
  const Dims& x = r.input_descs[kX].shape.dims();
  if (x.size() != 3 || x[1] != 1 || rw->rank() != 3) return nullptr;
  const int64_t seq = x[0], input = x[2], hidden = rw->dim(2), gh = 4 * hidden;
  if (seq <= 0 || input <= 0 || hidden <= 0 || a.GetInt("hidden_size", hidden) != hidden) return nullptr;
  if (w->dims() != Dims{num_dirs, gh, input} || rw->dims() != Dims{num_dirs, gh, hidden}) return nullptr;
  if (b != nullptr && b->dims() != Dims{num_dirs, 2 * gh}) return nullptr;
  if (p != nullptr && p->dims() != Dims{num_dirs, 3 * hidden}) return nullptr;
  if (w->dtype() != DataType::kFloat || rw->dtype() != DataType::kFloat) return nullptr;
  if (InputPresent(r, kSeqLens)) {
    const Tensor* lens = ConstInput(r, kSeqLens);
    if (lens == nullptr || lens->numel() != 1 || lens->GetAsInt64(0) != seq) return nullptr;
  }
  const Dims state = {num_dirs, 1, hidden};
  for (int i : {kInitH, kInitC}) {
    if (InputPresent(r, i) && r.input_descs[i].shape.dims() != state) return nullptr;
  }
  if (OutputPresent(r, kY) && r.output_descs[kY].shape.dims() != Dims{seq, num_dirs, 1, hidden}) return nullptr;
  for (int i : {kYh, kYc}) {
    if (OutputPresent(r, i) && r.output_descs[i].shape.dims() != state) return nullptr;
  }

  auto k = std::make_unique<LstmBatch1Kernel>(num_in, num_out);
  k->seq = seq;
  k->input = input;
  k->hidden = hidden;
  k->reverse_only = direction == "reverse";
  const int64_t panels = (hidden + kUnits - 1) / kUnits, cols = panels * kRPanel;
  // Column of gate g of unit u in panel order (Direction).
  auto column = [](int64_t g, int64_t u) { return (u / kUnits) * kRPanel + g * kUnits + u % kUnits; };
  for (int64_t d = 0; d < num_dirs; ++d) {
    Direction dir;
    const float* wd = w->data<float>() + d * gh * input;
    const float* rd = rw->data<float>() + d * gh * hidden;
    std::vector<float> w_rows(static_cast<size_t>(cols * input), 0.f);  // W's rows in panel order: [cols, input]
    dir.bias.assign(static_cast<size_t>(cols), 0.f);
    dir.r_panels.assign(static_cast<size_t>(panels * hidden * kRPanel), 0.f);
    const float* wb = b != nullptr ? b->data<float>() + d * 2 * gh : nullptr;
    for (int64_t g = 0; g < 4; ++g) {
      for (int64_t u = 0; u < hidden; ++u) {
        const int64_t row = g * hidden + u, j = column(g, u);
        std::copy(wd + row * input, wd + (row + 1) * input, w_rows.begin() + j * input);
        if (wb != nullptr) dir.bias[j] = wb[row] + wb[gh + row];
        float* col = dir.r_panels.data() + (j / kRPanel) * hidden * kRPanel + j % kRPanel;
        for (int64_t kk = 0; kk < hidden; ++kk) col[kk * kRPanel] = rd[row * hidden + kk];
      }
    }
    dir.w = PackB(w_rows.data(), input, cols, input, true);
    if (p != nullptr) dir.peephole.assign(p->data<float>() + d * 3 * hidden, p->data<float>() + (d + 1) * 3 * hidden);
    k->dirs.push_back(std::move(dir));
  }
  return k;
#endif
}

}  // namespace ge::exec
