// LSTM and GRU (one ONNX node = one oneDNN layer): lstm_forward, gru_forward (linear_before_reset = 0) and
// lbr_gru_forward (linear_before_reset = 1), forward inference, directions forward / reverse / bidirectional.
// ONNX layout 0 only: X [seq, batch, input] is oneDNN's tnc; initial_h / initial_c, Y_h and Y_c [dirs, batch, hidden]
// are ldnc with one layer. Y [seq, dirs, batch, hidden] is the primitive's dst_layer [seq, batch, dirs * hidden] when
// dirs or batch is 1; otherwise dst_layer goes to an intermediate and a strided reorder writes Y.
// W, R, B and P must be constant: their gate blocks are permuted into oneDNN's order once at prepare (ONNX LSTM
// i o f c -> i f c o, peepholes i o f -> i f o; GRU z r h is oneDNN's u r o) and W, R reordered into the layout
// the primitive picks. Declined: layout 1, clip, input_forget, activations other than the defaults,
// sequence_lens other than all equal to seq, non-constant weights.
#include <algorithm>
#include <cstdlib>
#include <array>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/dnnl_ops.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/omp_threads.h"

namespace ge::dnnl_kernels {
namespace {

constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5, kInitC = 6, kP = 7;
constexpr int kY = 0, kYh = 1, kYc = 2;

struct RnnPlan {
  bool lstm = false;
  bool lbr = false;  // GRU with linear_before_reset = 1
  int gates = 4;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
  dnnl::rnn_direction direction = dnnl::rnn_direction::unidirectional_left2right;
};

// ONNX gate block feeding oneDNN gate g.
constexpr std::array<int, 4> kLstmGateFromOnnx = {0, 2, 3, 1};  // i f c o <- i o f c
constexpr std::array<int, 3> kPeepholeFromOnnx = {0, 2, 1};     // i f o <- i o f
constexpr std::array<int, 3> kGruGateFromOnnx = {0, 1, 2};      // u r o <- z r h

bool DefaultActivations(const ir::AttrMap& a, bool lstm, int64_t dirs) {
  if (!a.Has("activations")) return true;
  const std::vector<std::string> names = a.GetStrings("activations");
  const std::vector<std::string> one =
      lstm ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"} : std::vector<std::string>{"Sigmoid", "Tanh"};
  if (names == one) return true;
  if (dirs != 2 || names.size() != 2 * one.size()) return false;
  return std::equal(one.begin(), one.end(), names.begin()) &&
         std::equal(one.begin(), one.end(), names.begin() + static_cast<std::ptrdiff_t>(one.size()));
}

// True when sequence_lens is absent or a constant holding seq for every batch entry.
bool FullLengths(const OpView& v, int64_t seq, int64_t batch) {
  if (!v.has_in(kSeqLens)) return true;
  const Tensor* lens = v.const_in(kSeqLens);
  if (lens == nullptr || lens->numel() != batch) return false;
  for (int64_t b = 0; b < batch; ++b) {
    if (lens->GetAsInt64(b) != seq) return false;
  }
  return true;
}

std::optional<RnnPlan> PlanRnn(const OpView& v) {
  RnnPlan p;
  p.lstm = v.node->op_type() == "LSTM";
  p.gates = p.lstm ? 4 : 3;
  const ir::AttrMap& a = v.attrs();
  const std::string direction = a.GetString("direction", "forward");
  if (direction == "bidirectional") {
    p.dirs = 2;
    p.direction = dnnl::rnn_direction::bidirectional_concat;
  } else if (direction == "reverse") {
    p.direction = dnnl::rnn_direction::unidirectional_right2left;
  } else if (direction != "forward") {
    return std::nullopt;
  }
  if (a.GetInt("layout", 0) != 0 || a.Has("clip") || a.GetInt("input_forget", 0) != 0) return std::nullopt;
  if (a.Has("activation_alpha") || a.Has("activation_beta")) return std::nullopt;
  if (!DefaultActivations(a, p.lstm, p.dirs)) return std::nullopt;
  p.lbr = !p.lstm && a.GetInt("linear_before_reset", 0) != 0;
  const int max_in = p.lstm ? 8 : 6, max_out = p.lstm ? 3 : 2;
  if (v.num_in() < 3 || v.num_in() > max_in || v.num_out() < 1 || v.num_out() > max_out) return std::nullopt;
  if (!v.has_in(kX) || !v.const_in(kW) || !v.const_in(kR)) return std::nullopt;
  if (v.has_in(kB) && !v.const_in(kB)) return std::nullopt;
  if (v.has_in(kP) && !v.const_in(kP)) return std::nullopt;
  if (v.has_in(kSeqLens) && !v.const_in(kSeqLens)) return std::nullopt;
  if (v.packed_input >= 0) return std::nullopt;  // never recorded for packing: the gate order is the kernel's
  bool any_out = false;
  for (int i = 0; i < v.num_out(); ++i) any_out = any_out || v.has_out(i);
  if (!any_out) return std::nullopt;
  for (int i : {kX, kW, kR}) {
    if (v.in_rank(i) >= 0 && v.in_rank(i) != 3) return std::nullopt;
  }
  if (!v.static_shapes) return p;

  const Dims& x = v.in_dims(kX);
  p.seq = x[0];
  p.batch = x[1];
  p.input = x[2];
  p.hidden = v.in_dims(kR)[2];
  if (a.GetInt("hidden_size", p.hidden) != p.hidden) return std::nullopt;
  const int64_t gh = p.gates * p.hidden;
  const Dims state = {p.dirs, p.batch, p.hidden};
  if (v.in_dims(kW) != Dims{p.dirs, gh, p.input} || v.in_dims(kR) != Dims{p.dirs, gh, p.hidden}) return std::nullopt;
  if (v.has_in(kB) && v.in_dims(kB) != Dims{p.dirs, 2 * gh}) return std::nullopt;
  if (v.has_in(kInitH) && v.in_dims(kInitH) != state) return std::nullopt;
  if (p.lstm && v.has_in(kInitC) && v.in_dims(kInitC) != state) return std::nullopt;
  if (p.lstm && v.has_in(kP) && v.in_dims(kP) != Dims{p.dirs, 3 * p.hidden}) return std::nullopt;
  if (!FullLengths(v, p.seq, p.batch)) return std::nullopt;
  if (v.has_out(kY) && v.out_dims(kY) != Dims{p.seq, p.dirs, p.batch, p.hidden}) return std::nullopt;
  for (int i : {kYh, kYc}) {
    if (i < v.num_out() && v.has_out(i) && v.out_dims(i) != state) return std::nullopt;
  }
  return p;
}

// W [dirs, G*H, cols] (ONNX) into oneDNN's ldgoi layout of dims [1, dirs, cols, G, H], gate blocks permuted.
void PermuteWeights(const Tensor& w, const RnnPlan& p, int64_t cols, const int* gate_from, float* out) {
  const float* src = w.data<float>();
  const int64_t block = p.hidden * cols;
  for (int64_t d = 0; d < p.dirs; ++d) {
    for (int g = 0; g < p.gates; ++g) {
      const float* from = src + (d * p.gates + gate_from[g]) * block;
      std::memcpy(out + (d * p.gates + g) * block, from, static_cast<size_t>(block) * sizeof(float));
    }
  }
}

// oneDNN's bias [1, dirs, G (+1 for lbr GRU), H] from ONNX's B [dirs, 2*G*H] (Wb then Rb; zeros when absent):
// Wb + Rb per gate, except lbr GRU's candidate gate: Wb there and its Rb as the extra fourth block (u').
void FillBias(const Tensor* b, const RnnPlan& p, const int* gate_from, float* out) {
  const int64_t h = p.hidden, gh = p.gates * h;
  const int blocks = p.lbr ? p.gates + 1 : p.gates;
  std::fill(out, out + p.dirs * blocks * h, 0.f);
  if (b == nullptr) return;
  const float* src = b->data<float>();
  for (int64_t d = 0; d < p.dirs; ++d) {
    const float* wb = src + d * 2 * gh;
    const float* rb = wb + gh;
    float* dst = out + d * blocks * h;
    for (int g = 0; g < p.gates; ++g) {
      const int64_t from = gate_from[g] * h;
      const bool split = p.lbr && g == 2;
      for (int64_t k = 0; k < h; ++k) dst[g * h + k] = wb[from + k] + (split ? 0.f : rb[from + k]);
    }
    if (p.lbr) std::copy_n(rb + 2 * h, h, dst + 3 * h);
  }
}

// The recurrence runs its steps in order, each one small GEMM (batch x hidden by hidden x G*hidden) and the gate
// math. Splitting a step over OpenMP threads costs a barrier per step, which pays only for large steps: below the
// threshold the kernel is prepared and run on one thread.
int RnnThreads(const RnnPlan& p, int threads) {
  constexpr int64_t kMacsPerStepForThreads = int64_t{1} << 23;
  return p.batch * p.gates * p.hidden * p.hidden >= kMacsPerStepForThreads ? threads : 1;
}

// Constant weights permuted into `plain` and reordered once into the primitive's layout `chosen`.
dnnl::memory ReorderedConstant(DnnlKernel* k, const dnnl::memory::desc& plain, const dnnl::memory::desc& chosen,
                               const std::function<void(float*)>& fill) {
  if (chosen == plain) {
    dnnl::memory out = k->PreparedMemory(plain);
    fill(static_cast<float*>(out.get_data_handle()));
    return out;
  }
  std::vector<float> staged_bytes(plain.get_size() / sizeof(float));
  fill(staged_bytes.data());
  dnnl::memory staged(plain, k->engine(), staged_bytes.data());
  dnnl::memory out = k->PreparedMemory(chosen);
  dnnl::reorder(staged, out).execute(k->stream(), staged, out);
  k->stream().wait();
  return out;
}

}  // namespace

bool RnnSupported(const OpView& v) { return PlanRnn(v).has_value(); }

KernelPtr PrepareRnn(const OpView& v) {
  const std::optional<RnnPlan> plan = PlanRnn(v);
  if (!plan || !v.static_shapes) return nullptr;
  const RnnPlan& p = *plan;
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  const int64_t T = p.seq, N = p.batch, I = p.input, H = p.hidden, D = p.dirs, G = p.gates;
  const char* name = p.lstm ? "dnnl.lstm" : p.lbr ? "dnnl.lbr_gru" : "dnnl.gru";
  const int threads = RnnThreads(p, v.threads);
  const OmpThreadsScope omp_threads(threads);
  auto k = std::make_unique<DnnlKernel>(*v.node, name, threads);
  const int* gate_from = p.lstm ? kLstmGateFromOnnx.data() : kGruGateFromOnnx.data();

  const dnnl::memory::desc src_layer = PlainDesc({T, N, I});
  const dnnl::memory::desc dst_layer = PlainDesc({T, N, D * H});
  const dnnl::memory::desc state = PlainDesc({1, D, N, H});
  const dnnl::memory::desc w_plain({1, D, I, G, H}, dt::f32, tag::ldgoi);
  const dnnl::memory::desc r_plain({1, D, H, G, H}, dt::f32, tag::ldgoi);
  const dnnl::memory::desc w_any({1, D, I, G, H}, dt::f32, tag::any);
  const dnnl::memory::desc r_any({1, D, H, G, H}, dt::f32, tag::any);
  const dnnl::memory::desc bias({1, D, p.lbr ? G + 1 : G, H}, dt::f32, tag::ldgo);
  const bool has_p = p.lstm && v.has_in(kP);
  const dnnl::memory::desc peephole =
      has_p ? dnnl::memory::desc({1, D, 3, H}, dt::f32, tag::ldgo) : dnnl::memory::desc();
  const auto has_out = [&](int i) { return i < v.num_out() && v.has_out(i); };
  // LSTM's h and c states are given (and returned) together or not at all.
  const bool src_iter = v.has_in(kInitH) || (p.lstm && v.has_in(kInitC));
  const bool dst_iter = has_out(kYh) || (p.lstm && has_out(kYc));
  const dnnl::memory::desc none;
  const auto prop = dnnl::prop_kind::forward_inference;
  const dnnl::primitive_attr attr = UserScratchpadAttr();

  dnnl::primitive prim;
  dnnl::primitive_desc pd;
  if (p.lstm) {
    const dnnl::lstm_forward::desc d(prop, p.direction, src_layer, src_iter ? state : none, src_iter ? state : none,
                                     w_any, r_any, peephole, none, bias, dst_layer, dst_iter ? state : none,
                                     dst_iter ? state : none);
    auto lpd = SelectImpl(dnnl::lstm_forward::primitive_desc(d, attr, k->engine()), v.max_isa);
    prim = dnnl::lstm_forward(lpd);
    pd = lpd;
  } else if (p.lbr) {
    const dnnl::lbr_gru_forward::desc d(prop, p.direction, src_layer, src_iter ? state : none, w_any, r_any, bias,
                                        dst_layer, dst_iter ? state : none);
    const auto gpd = SelectImpl(dnnl::lbr_gru_forward::primitive_desc(d, attr, k->engine()), v.max_isa);
    prim = dnnl::lbr_gru_forward(gpd);
    pd = gpd;
  } else {
    const dnnl::gru_forward::desc d(prop, p.direction, src_layer, src_iter ? state : none, w_any, r_any, bias,
                                    dst_layer, dst_iter ? state : none);
    const auto gpd = SelectImpl(dnnl::gru_forward::primitive_desc(d, attr, k->engine()), v.max_isa);
    prim = dnnl::gru_forward(gpd);
    pd = gpd;
  }

  std::vector<std::pair<int, dnnl::memory>> args;
  args.push_back({DNNL_ARG_SRC_LAYER, k->BindInput(kX, src_layer)});
  const Tensor& w = *v.const_in(kW);
  const Tensor& r = *v.const_in(kR);
  args.push_back({DNNL_ARG_WEIGHTS_LAYER,
                  ReorderedConstant(k.get(), w_plain, pd.query_md(dnnl::query::exec_arg_md, DNNL_ARG_WEIGHTS_LAYER),
                                    [&](float* out) { PermuteWeights(w, p, I, gate_from, out); })});
  args.push_back({DNNL_ARG_WEIGHTS_ITER,
                  ReorderedConstant(k.get(), r_plain, pd.query_md(dnnl::query::exec_arg_md, DNNL_ARG_WEIGHTS_ITER),
                                    [&](float* out) { PermuteWeights(r, p, H, gate_from, out); })});
  dnnl::memory b = k->PreparedMemory(bias);
  FillBias(v.has_in(kB) ? v.const_in(kB) : nullptr, p, gate_from, static_cast<float*>(b.get_data_handle()));
  args.push_back({DNNL_ARG_BIAS, b});
  if (has_p) {
    dnnl::memory pm = k->PreparedMemory(peephole);
    const float* src = v.const_in(kP)->data<float>();
    float* dst = static_cast<float*>(pm.get_data_handle());
    for (int64_t d = 0; d < D; ++d) {
      for (int g = 0; g < 3; ++g) std::copy_n(src + (d * 3 + kPeepholeFromOnnx[g]) * H, H, dst + (d * 3 + g) * H);
    }
    args.push_back({DNNL_ARG_WEIGHTS_PEEPHOLE, pm});
  }
  const auto zero_state = [&]() {
    dnnl::memory m = k->PreparedMemory(state);
    std::memset(m.get_data_handle(), 0, state.get_size());
    return m;
  };
  if (src_iter) {
    args.push_back({DNNL_ARG_SRC_ITER, v.has_in(kInitH) ? k->BindInput(kInitH, state) : zero_state()});
    if (p.lstm) args.push_back({DNNL_ARG_SRC_ITER_C, v.has_in(kInitC) ? k->BindInput(kInitC, state) : zero_state()});
  }
  if (dst_iter) {
    args.push_back({DNNL_ARG_DST_ITER, has_out(kYh) ? k->BindOutput(kYh, state) : k->IntermediateMemory(state)});
    if (p.lstm) {
      args.push_back({DNNL_ARG_DST_ITER_C, has_out(kYc) ? k->BindOutput(kYc, state) : k->IntermediateMemory(state)});
    }
  }
  // Y [seq, dirs, batch, hidden] is dst_layer [seq, batch, dirs * hidden] itself when dirs or batch is 1.
  const bool y_direct = has_out(kY) && (D == 1 || N == 1);
  const dnnl::memory dst = y_direct ? k->BindOutput(kY, dst_layer) : k->IntermediateMemory(dst_layer);
  args.push_back({DNNL_ARG_DST_LAYER, dst});
  k->AddStep(prim, pd, args);
  if (has_out(kY) && !y_direct) {
    const dnnl::memory::desc from = PlainDesc({T, N, D, H});
    const dnnl::memory::desc to = StridedDesc({T, N, D, H}, {D * N * H, H, N * H, 1});
    AddReorder(k.get(), k->IntermediateAlias(dst, from), k->BindOutput(kY, to));
  }
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
