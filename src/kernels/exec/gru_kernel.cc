#include "kernels/exec/gru_kernel.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/exec/kernel_util.h"

#pragma GCC diagnostic ignored "-Wpsabi"  // lanes never cross a call: the steps are flattened
#include "kernels/exec/nhwc_conv.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/rnn_step.h"
#include "kernels/exec/rnn_weights.h"

namespace ge::exec {
namespace {

constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5;
constexpr int kY = 0, kYh = 1;
// linear_before_reset = 1: R^T panels of 16 units x (z, r, h) = 48 columns, 6 AVX2 accumulators.
constexpr int64_t kLbrUnits = 16, kLbrCols = 3 * kLbrUnits;
// linear_before_reset = 0: R^T panels of 32 units x (z, r) and of 64 units x h, 64 columns (8 accumulators) each.
constexpr int64_t kZrUnits = 32, kHUnits = 64, kCols = 64;

int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// One direction's constants. The projection's columns are the gates z, r, h, each padded to Hp = H rounded up to
// 16 units (padding columns zero); R^T is in the panels above (padding columns zero). Packed at prepare or mapped
// from the model (rnn_weights.h), in the order w, bias, r_panels, rbh.
struct Direction {
  PackedMatrix w;         // W^T [input, 3 Hp]
  PackedFloats bias;      // [3 Hp]: Wb + Rb for z and r; Wb for h (+ Rbh when not linear_before_reset)
  PackedFloats r_panels;  // lbr: [H / 16][H][48]; else [H / 32][H][64] (z, r) then [H / 64][H][64] (h)
  PackedFloats rbh;       // lbr: Rbh [Hp] (added inside the reset product); else empty
};

class GruKernel final : public PreparedKernel {
 public:
  GruKernel(int num_inputs, int num_outputs) {
    fn_ = &Task;
    num_inputs_ = num_inputs;
    num_outputs_ = num_outputs;
  }
  const char* impl_name() const override { return "exec.gru"; }
  size_t scratch_bytes() const override { return ScratchFloats() * sizeof(float); }

  int64_t seq = 0, batch = 1, input = 0, hidden = 0;
  bool lbr = false, reverse_only = false;
  bool avx512 = false;  // the model's target and this CPU allow the AVX-512 loops (same packed constants)
  std::vector<Direction> dirs;

  int64_t Hp() const { return RoundUp(hidden, 16); }
  int64_t GateStride() const { return 3 * Hp(); }
  int64_t LbrPanels() const { return (hidden + kLbrUnits - 1) / kLbrUnits; }
  int64_t ZrPanels() const { return (hidden + kZrUnits - 1) / kZrUnits; }
  int64_t HPanels() const { return (hidden + kHUnits - 1) / kHUnits; }
  int64_t RPanelFloats() const {
    return lbr ? LbrPanels() * hidden * kLbrCols : (ZrPanels() + HPanels()) * hidden * kCols;
  }
  std::string Layout() const {
    return "exec.gru/1;lbr=" + std::to_string(lbr ? 1 : 0) + ";gemm_panel=" + std::to_string(kPanel) +
           ";dirs=" + std::to_string(dirs.size()) + ";input=" + std::to_string(input) +
           ";hidden=" + std::to_string(hidden);
  }
  std::vector<int64_t> BlockFloats() const {
    std::vector<int64_t> f;
    for (size_t d = 0; d < dirs.size(); ++d) {
      f.push_back(PackedMatrix::PanelFloats(input, GateStride()));
      f.push_back(GateStride());
      f.push_back(RPanelFloats());
      f.push_back(lbr ? Hp() : 0);
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
      blocks.push_back({d.rbh.owned.data(), static_cast<int64_t>(d.rbh.owned.size())});
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
  // Per direction: the projections [seq][batch][GateStride()], then h twice (the step's input and its output), z and
  // r * h (not lbr) [batch][H each], and the recurrent products of one panel [batch][64].
  int64_t DirectionFloats() const { return seq * batch * GateStride() + 4 * batch * hidden + batch * kCols; }
  size_t ScratchFloats() const { return static_cast<size_t>(DirectionFloats() * static_cast<int64_t>(dirs.size())); }

#ifdef GE_RNN_STEP_X86
  // The recurrent product of every batch row's h (rows H apart) with one R^T panel of kVec x 16 columns into rec
  // (rows kVec x 16 apart).
  template <int kVec>
  void PanelProduct(const float* h, const float* panel, float* rec) const {
    constexpr int64_t kPanelCols = 16 * kVec;
    if (avx512) {
      rnn::PanelMatVecRows512<kVec>(h, hidden, batch, panel, hidden, nullptr, 0, rec, kPanelCols);
      return;
    }
    for (int64_t b = 0; b < batch; ++b) {
      rnn::PanelMatVec<2 * kVec>(h + b * hidden, panel, hidden, 1, nullptr, rec + b * kPanelCols);
    }
  }

  // One step of every batch row: h_next from h and the rows' projections g (z, r, h blocks of Hp per row, rows
  // GateStride() apart); rec: [batch][48] scratch.
  template <int W>
  void StepLbr(const Direction& dir, const float* g, const float* h, float* rec, float* h_next) const {
    using Lanes = FloatLanes<W>;
    auto LoadN = [](const float* p, int64_t count) { return rnn::LoadN<W>(p, count); };
    const int64_t hp = Hp(), stride = GateStride();
    const float* r_panels = dir.r_panels.data();
    const float* rbh = dir.rbh.data();
    for (int64_t q = 0; q < LbrPanels(); ++q) {
      PanelProduct<kLbrCols / 16>(h, r_panels + q * hidden * kLbrCols, rec);
      const int64_t u0 = q * kLbrUnits, n = std::min(kLbrUnits, hidden - u0);
      for (int64_t b = 0; b < batch; ++b) {
        const float* gb = g + b * stride;
        const float* rb = rec + b * kLbrCols;
        for (int64_t j = 0; j < n; j += W) {
          const int64_t u = u0 + j, count = n - j;
          const Lanes z = SigmoidLanes(LoadN(gb + u, W) + LoadN(rb + j, W));
          const Lanes r = SigmoidLanes(LoadN(gb + hp + u, W) + LoadN(rb + kLbrUnits + j, W));
          const Lanes hh =
              TanhLanes(LoadN(gb + 2 * hp + u, W) + r * (LoadN(rb + 2 * kLbrUnits + j, W) + LoadN(rbh + u, W)));
          rnn::StoreN<W>(h_next + b * hidden + u, (1.f - z) * hh + z * LoadN(h + b * hidden + u, count), count);
        }
      }
    }
  }

  // The same without linear_before_reset; z and rh: [batch][H] scratch, rec: [batch][64].
  template <int W>
  void StepPlain(const Direction& dir, const float* g, const float* h, float* z, float* rh, float* rec,
                 float* h_next) const {
    using Lanes = FloatLanes<W>;
    auto LoadN = [](const float* p, int64_t count) { return rnn::LoadN<W>(p, count); };
    const int64_t hp = Hp(), stride = GateStride();
    const float* zr_panels = dir.r_panels.data();
    const float* h_panels = zr_panels + ZrPanels() * hidden * kCols;
    for (int64_t q = 0; q < ZrPanels(); ++q) {
      PanelProduct<kCols / 16>(h, zr_panels + q * hidden * kCols, rec);
      const int64_t u0 = q * kZrUnits, n = std::min(kZrUnits, hidden - u0);
      for (int64_t b = 0; b < batch; ++b) {
        const float* gb = g + b * stride;
        const float* rb = rec + b * kCols;
        for (int64_t j = 0; j < n; j += W) {
          const int64_t u = u0 + j, count = n - j, at = b * hidden + u;
          rnn::StoreN<W>(z + at, SigmoidLanes(LoadN(gb + u, count) + LoadN(rb + j, W)), count);
          const Lanes r = SigmoidLanes(LoadN(gb + hp + u, count) + LoadN(rb + kZrUnits + j, W));
          rnn::StoreN<W>(rh + at, r * LoadN(h + at, count), count);
        }
      }
    }
    for (int64_t q = 0; q < HPanels(); ++q) {
      PanelProduct<kCols / 16>(rh, h_panels + q * hidden * kCols, rec);
      const int64_t u0 = q * kHUnits, n = std::min(kHUnits, hidden - u0);
      for (int64_t b = 0; b < batch; ++b) {
        const float* gb = g + b * stride;
        const float* rb = rec + b * kCols;
        for (int64_t j = 0; j < n; j += W) {
          const int64_t u = u0 + j, count = n - j, at = b * hidden + u;
          const Lanes hh = TanhLanes(LoadN(gb + 2 * hp + u, count) + LoadN(rb + j, W));
          const Lanes zu = LoadN(z + at, count);
          rnn::StoreN<W>(h_next + at, (1.f - zu) * hh + zu * LoadN(h + at, count), count);
        }
      }
    }
  }

  __attribute__((target("avx2,fma"), flatten)) void StepAvx2(const Direction& dir, const float* g, const float* h,
                                                             float* z, float* rh, float* rec, float* h_next) const {
    if (lbr) {
      StepLbr<8>(dir, g, h, rec, h_next);
    } else {
      StepPlain<8>(dir, g, h, z, rh, rec, h_next);
    }
  }
  __attribute__((target(GE_RNN_AVX512_TARGET), flatten)) void StepAvx512(const Direction& dir, const float* g,
                                                                         const float* h, float* z, float* rh,
                                                                         float* rec, float* h_next) const {
    if (lbr) {
      StepLbr<16>(dir, g, h, rec, h_next);
    } else {
      StepPlain<16>(dir, g, h, z, rh, rec, h_next);
    }
  }

  // project_ctx: a pool to split the projection over by steps (a single direction), or null.
  void RunDirection(const KernelIo& io, int64_t d, float* scratch, rt::TaskContext* project_ctx) const {
    const Direction& dir = dirs[d];
    const int64_t stride = GateStride(), num_dirs = static_cast<int64_t>(dirs.size()), state = batch * hidden;
    float* gates = scratch;
    float* h = gates + seq * batch * stride;
    float* h_next = h + state;
    float* z = h_next + state;
    float* rh = z + state;
    float* rec = rh + state;
    const float* x = static_cast<const float*>(io.inputs[kX]);
    auto project = [&](size_t t0, size_t t1) {
      const int64_t m0 = static_cast<int64_t>(t0) * batch, m1 = static_cast<int64_t>(t1) * batch;
      if (avx512) {
        PackedGemmAvx512(m0, m1, x, input, dir.w, dir.bias.data(), gates, stride);
      } else {
        PackedGemm(m0, m1, 0, (stride + kPanel - 1) / kPanel, x, input, dir.w, dir.bias.data(), GemmActivation::kNone,
                   gates, stride);
      }
    };
    if (project_ctx != nullptr) {
      project_ctx->pool->ParallelFor(static_cast<size_t>(seq), project,
                                     std::max<size_t>(1, static_cast<size_t>(seq) / 8));
    } else {
      project(0, static_cast<size_t>(seq));
    }
    const void* h0 = kInitH < static_cast<int>(io.inputs.size()) ? io.inputs[kInitH] : nullptr;
    if (h0 != nullptr) {
      std::memcpy(h, static_cast<const float*>(h0) + d * state, static_cast<size_t>(state) * sizeof(float));
    } else {
      std::fill(h, h + state, 0.f);
    }
    float* y = io.outputs[kY] != nullptr ? static_cast<float*>(io.outputs[kY]) : nullptr;
    const bool reverse = reverse_only || d == 1;
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t t = reverse ? seq - 1 - s : s;
      const float* g = gates + t * batch * stride;
      if (avx512) {
        StepAvx512(dir, g, h, z, rh, rec, h_next);
      } else {
        StepAvx2(dir, g, h, z, rh, rec, h_next);
      }
      if (y != nullptr) {
        std::memcpy(y + (t * num_dirs + d) * state, h_next, static_cast<size_t>(state) * sizeof(float));
      }
      std::swap(h, h_next);
    }
    if (kYh < static_cast<int>(io.outputs.size()) && io.outputs[kYh] != nullptr) {
      std::memcpy(static_cast<float*>(io.outputs[kYh]) + d * state, h, static_cast<size_t>(state) * sizeof(float));
    }
  }
#endif

  static Status Task(void* args, rt::TaskContext& ctx) {
#ifdef GE_RNN_STEP_X86
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<GruKernel>(*bd);
    float* scratch = static_cast<const ScratchState*>(bd->state.get())->buffer();
    const int64_t n = static_cast<int64_t>(k.dirs.size());
    if (n == 1 && ctx.pool != nullptr) {
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
    return Internal("exec.gru needs an x86-64 build");
#endif
  }
};

bool PlainFloat(const TensorDesc& d) { return d.dtype == DataType::kFloat && !IsNonPlainLayout(d.format); }

bool DefaultActivations(const ir::AttrMap& a, int64_t num_dirs) {
  if (!a.Has("activations")) return true;
  const std::vector<std::string> names = a.GetStrings("activations");
  const std::vector<std::string> one = {"Sigmoid", "Tanh"};
  if (names == one) return true;
  return num_dirs == 2 && names.size() == 4 && std::equal(one.begin(), one.end(), names.begin()) &&
         std::equal(one.begin(), one.end(), names.begin() + 2);
}

// Packs one direction's W, biases and R (ONNX gate order z, r, h) into Direction's layout.
void PackDirection(const GruKernel& k, const float* wd, const float* rd, const float* wb, Direction* dir) {
  const int64_t hidden = k.hidden, input = k.input, hp = k.Hp(), gh = 3 * hidden, cols = 3 * hp;
  std::vector<float> w_rows(static_cast<size_t>(cols * input), 0.f);  // W's rows in projection order
  dir->bias.owned.assign(static_cast<size_t>(cols), 0.f);
  dir->r_panels.owned.assign(static_cast<size_t>(k.RPanelFloats()), 0.f);
  if (k.lbr) dir->rbh.owned.assign(static_cast<size_t>(hp), 0.f);
  float* rp = dir->r_panels.owned.data();
  for (int64_t g = 0; g < 3; ++g) {
    for (int64_t u = 0; u < hidden; ++u) {
      const int64_t row = g * hidden + u, j = g * hp + u;
      std::copy(wd + row * input, wd + (row + 1) * input, w_rows.begin() + j * input);
      if (wb != nullptr) {
        const bool rb_inside = k.lbr && g == 2;
        dir->bias.owned[j] = rb_inside ? wb[row] : wb[row] + wb[gh + row];
        if (rb_inside) dir->rbh.owned[u] = wb[gh + row];
      }
      // Column of R^T for gate g of unit u, and its panel's start.
      float* col = nullptr;
      if (k.lbr) {
        col = rp + (u / kLbrUnits) * hidden * kLbrCols + g * kLbrUnits + u % kLbrUnits;
        for (int64_t i = 0; i < hidden; ++i) col[i * kLbrCols] = rd[row * hidden + i];
      } else if (g < 2) {
        col = rp + (u / kZrUnits) * hidden * kCols + g * kZrUnits + u % kZrUnits;
        for (int64_t i = 0; i < hidden; ++i) col[i * kCols] = rd[row * hidden + i];
      } else {
        col = rp + (k.ZrPanels() + u / kHUnits) * hidden * kCols + u % kHUnits;
        for (int64_t i = 0; i < hidden; ++i) col[i * kCols] = rd[row * hidden + i];
      }
    }
  }
  dir->w = PackB(w_rows.data(), input, cols, input, true);
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareGru(const PrepareRequest& r) {
#ifndef GE_RNN_STEP_X86
  (void)r;
  return nullptr;
#else
  if (!PackedGemmAllowed(r.max_isa)) return nullptr;
  const ir::Node& node = *r.node;
  if (node.op_type() != "GRU" || !(node.domain().empty() || node.domain() == "ai.onnx")) return nullptr;
  const int num_in = node.num_inputs(), num_out = node.num_outputs();
  if (num_in < 3 || num_in > 6 || num_out < 1 || num_out > 2) return nullptr;
  const ir::AttrMap& a = node.attrs();
  const std::string direction = a.GetString("direction", "forward");
  const int64_t num_dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") return nullptr;
  if (a.GetInt("layout", 0) != 0 || a.Has("clip")) return nullptr;
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
  if (w == nullptr || (rw == nullptr && packed == nullptr) || (InputPresent(r, kB) && b == nullptr)) return nullptr;
  if (rw != nullptr) r_dims = rw->dims();
  const Dims& x = r.input_descs[kX].shape.dims();
  if (x.size() != 3 || r_dims.size() != 3) return nullptr;
  const int64_t seq = x[0], batch = x[1], input = x[2], hidden = r_dims[2], gh = 3 * hidden;
  if (seq <= 0 || batch <= 0 || input <= 0 || hidden <= 0 || a.GetInt("hidden_size", hidden) != hidden) return nullptr;
  if (w->dims() != Dims{num_dirs, gh, input} || r_dims != Dims{num_dirs, gh, hidden}) return nullptr;
  if (b != nullptr && b->dims() != Dims{num_dirs, 2 * gh}) return nullptr;
  if (w->dtype() != DataType::kFloat || (rw != nullptr && rw->dtype() != DataType::kFloat)) return nullptr;
  if (b != nullptr && b->dtype() != DataType::kFloat) return nullptr;
  if (InputPresent(r, kSeqLens)) {
    const Tensor* lens = ConstInput(r, kSeqLens);
    if (lens == nullptr || lens->numel() != batch) return nullptr;
    for (int64_t i = 0; i < batch; ++i) {
      if (lens->GetAsInt64(i) != seq) return nullptr;
    }
  }
  const Dims state = {num_dirs, batch, hidden};
  if (InputPresent(r, kInitH) && r.input_descs[kInitH].shape.dims() != state) return nullptr;
  if (OutputPresent(r, kY) && r.output_descs[kY].shape.dims() != Dims{seq, num_dirs, batch, hidden}) return nullptr;
  if (OutputPresent(r, kYh) && r.output_descs[kYh].shape.dims() != state) return nullptr;

  auto k = std::make_unique<GruKernel>(num_in, num_out);
  k->seq = seq;
  k->batch = batch;
  k->input = input;
  k->hidden = hidden;
  k->lbr = a.GetInt("linear_before_reset", 0) != 0;
  k->reverse_only = direction == "reverse";
  k->avx512 = PickLoopIsa(r.max_isa) == LoopIsa::kAvx512;
  k->dirs.resize(static_cast<size_t>(num_dirs));
  for (int64_t d = 0; d < num_dirs; ++d) {
    Direction& dir = k->dirs[d];
    if (packed == nullptr) {
      PackDirection(*k, w->data<float>() + d * gh * input, rw->data<float>() + d * gh * hidden,
                    b != nullptr ? b->data<float>() + d * 2 * gh : nullptr, &dir);
    } else {
      dir.w.k = input;
      dir.w.n = k->GateStride();
    }
  }
  if (packed != nullptr) {
    if (node.attrs().GetString(kPackedLayoutAttr, "") != k->Layout()) return nullptr;
    std::vector<const float**> mapped;
    for (Direction& dir : k->dirs) {
      mapped.push_back(&dir.w.mapped);
      mapped.push_back(&dir.bias.mapped);
      mapped.push_back(&dir.r_panels.mapped);
      mapped.push_back(&dir.rbh.mapped);
    }
    if (!MapPackedBlocks(*packed, k->BlockFloats(), mapped)) return nullptr;
  }
  return k;
#endif
}

}  // namespace ge::exec
