// Conv and ge::FusedConv (X, W, [B], [Sum]) -> Y = activation(Conv(X, W, B) + Sum): oneDNN convolution_forward
// over plain NC[D][H]W slots, 1-D to 3-D, with groups, dilations, strides, asymmetric pads and every auto_pad.
// Constant weights are reordered once into the layout the primitive prefers. Activations are read and written in
// the slots' formats (NHWC or NC1HWC0 where the compiler chose it); with plain slots, spatial and grouped convolutions
// may run on blocked activations reordered in and out (see UseBlockedActivations). The residual Sum and the activation
// are post-ops (sum, then eltwise); the Sum is copied into the output slot first unless it already lives there
// (or reordered into the blocked destination).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "kernels/dnnl/bf16_util.h"
#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"
#include "kernels/dnnl/packed_layout.h"
#include "ops/nn/window_util.h"

namespace ge::dnnl_kernels {
namespace {

struct ConvPlan {
  bool fused = false, has_bias = false, has_sum = false;
  int64_t group = 1;
  Dims x, w, y;  // y as planned
  dnnl::memory::dims strides, dilates, pad_l, pad_r;
  std::vector<EltStep> act;
};

std::optional<ConvPlan> PlanConv(const OpView& v) {
  ConvPlan p;
  p.fused = v.node->domain() == "ge";
  const ir::AttrMap& a = v.attrs();
  if (v.num_in() < 2 || v.num_in() > (p.fused ? 4 : 3) || !v.has_in(0) || !v.has_in(1)) return std::nullopt;
  if (!OnlyFirstOutputs(v, 1)) return std::nullopt;
  p.has_bias = v.has_in(2);
  p.has_sum = p.fused && v.has_in(3);
  if (p.fused && (!ParseActivation(a, &p.act) || !EltwiseChainOk(p.act))) return std::nullopt;
  if (!ConvFamilyAttrsOk(v, &p.group)) return std::nullopt;
  if (!v.static_shapes) return p;

  p.x = v.in_dims(0);
  p.w = v.in_dims(1);
  p.y = v.out_dims(0);
  const int r = static_cast<int>(p.x.size());
  const int nsp = r - 2;
  if (static_cast<int>(p.w.size()) != r || static_cast<int>(p.y.size()) != r) return std::nullopt;
  const int64_t c = p.x[1], m = p.w[0];
  if (c != p.w[1] * p.group || m % p.group != 0) return std::nullopt;
  if (p.has_bias && v.in_dims(2) != Dims{m}) return std::nullopt;
  std::vector<int64_t> wk(p.w.begin() + 2, p.w.end());
  nn::Window win;
  if (!nn::ParseWindow(a, nsp, &wk, false, &win).ok() || win.kernel != wk) return std::nullopt;
  Dims want = {p.x[0], m};
  for (int i = 0; i < nsp; ++i) {
    auto o = nn::WindowOutputDim(&win, i, p.x[i + 2]);
    if (!o.ok()) return std::nullopt;
    want.push_back(*o);
    p.strides.push_back(win.strides[i]);
    p.dilates.push_back(win.dilations[i] - 1);
    p.pad_l.push_back(win.pads[i]);
    p.pad_r.push_back(win.pads[i + nsp]);  // oneDNN's output size floors like ONNX's
  }
  if (want != p.y) return std::nullopt;
  if (p.has_sum && v.in_dims(3) != p.y) return std::nullopt;
  return p;
}

// Whether the primitive may pick blocked activation layouts, with reorders from and to the plain slots around it
// into kernel-owned buffers: oneDNN 2.6 runs plain NCHW convolutions as im2col + GEMM, which is good for 1x1
// kernels but 1.3-1.6x slower than its blocked (brgconv) kernels for spatial ones and ~5x slower for grouped and
// depthwise ones (Zen 5, one thread). The buffers cost memory, so large activations stay plain. The compiler's
// activation formats (NHWC, NC1HWC0) make the reorders unnecessary.
bool UseBlockedActivations(const ConvPlan& p) {
  constexpr int64_t kMaxBlockedBytes = 128 << 20;
  int64_t ksize = 1;
  for (size_t i = 2; i < p.w.size(); ++i) ksize *= p.w[i];
  if (p.group == 1 && ksize == 1) return false;
  const int64_t bytes = (NumElements(p.x) + NumElements(p.y)) * static_cast<int64_t>(sizeof(float));
  return bytes <= kMaxBlockedBytes;
}

// The candidate convolutions of a node (kernel variants, kernels/exec/kernel_variant.h), fewest reorders first
// (Winograd first where it pays, see below):
//   "direct"           the slots' layouts as planned;
//   "direct:src_as_dst" the source reordered into the destination slot's layout;
//   "direct:src_any"   the source in the layout the primitive prefers;
//   "direct:any"       both in the primitive's layouts, reordered from and to the slots;
//   "winograd"         oneDNN's Winograd convolution (3x3, stride 1, AVX-512, float32), in its own layouts.
// Without a requested variant the first whose implementation is not a reference one wins (oneDNN's AVX2 kernels,
// for one, need source and destination in one layout family, except for a few-channel first layer from NCHW into
// a blocked layout); `variant` (when it builds) takes precedence. *names (when given) receives the distinct
// variants that build with an optimized implementation, for tuning.
std::optional<dnnl::convolution_forward::primitive_desc> ChooseConv(
    const OpView& v, const ConvPlan& p, const Dims& wd, const dnnl::primitive_attr& attr, const dnnl::engine& eng,
    const dnnl::memory::desc& src_slot, const dnnl::memory::desc& dst_slot, std::vector<std::string>* names) {
  using CF = dnnl::convolution_forward;
  const bool src_fixed = IsNonPlainLayout(v.in[0].format), dst_fixed = IsNonPlainLayout(v.out[0].format);
  const bool blocked = src_fixed || dst_fixed || UseBlockedActivations(p);
  const dnnl::memory::data_type ct = ComputeType(v);  // bf16: src is reordered anyway, so let oneDNN pick its layout
  // Constant weights are reordered once at prepare; a session variable's once per write (WeightsMemory).
  const dnnl::memory::desc w_md = AsType(v.const_in(1) || v.variable_in(1) ? AnyDesc(wd) : PlainDesc(wd), ct);
  const dnnl::memory::desc b_md = PlainDesc({p.w[0]});
  auto make_pd = [&](dnnl::algorithm alg, const dnnl::memory::desc& src_md, const dnnl::memory::desc& dst_md,
                     IsaLevel isa) {
    const auto prop = dnnl::prop_kind::forward_inference;
    const CF::desc d = p.has_bias
                           ? CF::desc(prop, alg, src_md, w_md, b_md, dst_md, p.strides, p.dilates, p.pad_l, p.pad_r)
                           : CF::desc(prop, alg, src_md, w_md, dst_md, p.strides, p.dilates, p.pad_l, p.pad_r);
    CF::primitive_desc pd = SelectImpl(CF::primitive_desc(d, attr, eng), isa);
    // 1-D: oneDNN 2.6's brgconv JITs, when its primitive is created, an input-copy kernel unrolled over the whole
    // output row and the input channels (4.5 MB of code for 512 channels x 1599 outputs): 5-120 ms per primitive
    // against 0.3-0.6 ms for its jit kernel, which also runs faster from 256 input channels on (512 -> 512, k3 s2,
    // 1599 outputs: 21 vs 57 ms, one Zen 4 core) and at most ~0.35 ms slower below (1 -> 512, k10 s5, 3199).
    if (p.x.size() == 3) return NextImplOutsideFamily(pd, "brgconv:", isa);
    return pd;
  };
  const dnnl::memory::desc planned_src = AsType(src_fixed                                       ? src_slot
                                                : blocked || ct != dnnl::memory::data_type::f32 ? AnyDesc(p.x)
                                                                                                : src_slot,
                                                ct);
  const dnnl::memory::desc planned_dst = dst_fixed ? dst_slot : blocked ? AnyDesc(p.y) : dst_slot;
  TensorDesc src_as_dst = v.in[0];
  src_as_dst.format = v.out[0].format;
  struct Candidate {
    const char* name;
    dnnl::algorithm alg;
    dnnl::memory::desc src, dst;
  };
  const auto direct = dnnl::algorithm::convolution_direct;
  std::vector<Candidate> candidates = {
      {"direct", direct, planned_src, planned_dst},
      {"direct:src_as_dst", direct, AsType(ActivationDesc(src_as_dst), ct), planned_dst},
      {"direct:src_any", direct, AsType(AnyDesc(p.x), ct), planned_dst},
      {"direct:any", direct, AsType(AnyDesc(p.x), ct), AnyDesc(p.y)}};
  const bool winograd_shape = p.group == 1 && p.w.size() == 4 && p.w[2] == 3 && p.w[3] == 3 &&
                              p.strides == dnnl::memory::dims{1, 1} && p.dilates == dnnl::memory::dims{0, 0};
  if (winograd_shape && ct == dnnl::memory::data_type::f32) {
    // Winograd does 2.25-4x fewer multiplications for 3x3 stride 1; with 16+ channels each way it beats the direct
    // kernels even with the reorders from and to an NHWC chain (resnet18 16.6 -> 12.8 ms on Zen 4; `--tune` picked
    // it for every such layer of resnet18/50, squeezenet and googlenet), so it is tried first there. Not for 64 or
    // fewer output channels over at most 14x14 pixels: there the transforms outweigh the smaller products, and
    // `--tune` picks the direct kernel (Sapphire Rapids: 39 of DenseNet-121's 40 such layers, 128 -> 32 channels
    // at 14x14 and 7x7; 3 of GoogLeNet's 4 at 14x14).
    const Candidate wino{"winograd", dnnl::algorithm::convolution_winograd, AnyDesc(p.x), AnyDesc(p.y)};
    const int64_t ic = p.w[1], oc = p.w[0];
    const bool small_output = oc <= 64 && p.y[2] * p.y[3] <= 14 * 14;
    if (ic >= 16 && oc >= 16 && !small_output) {
      candidates.insert(candidates.begin(), wino);
    } else {
      candidates.push_back(wino);
    }
  }
  // Above x86-64-v3 the AVX2 kernels are variants too ("direct@x86-64-v3"): on CPUs that split AVX-512 into two
  // 256-bit halves (Zen 4) oneDNN's AVX2 kernels are as fast as its AVX-512 ones and faster for some small-channel
  // 1x1 and depthwise layers (tuning efficientnet_b0 picks them for 33 of 64 convolutions). Only tuning picks them.
  const IsaLevel primary = v.max_isa;
  std::vector<IsaLevel> levels = {primary};
  if ((primary == IsaLevel::kNone || primary == IsaLevel::kX86_64_V4) &&
      static_cast<int>(DnnlMaxIsaLevel()) >= static_cast<int>(IsaLevel::kX86_64_V4)) {
    levels.push_back(IsaLevel::kX86_64_V3);
  }
  std::optional<CF::primitive_desc> chosen, fallback;
  std::vector<std::string> seen;  // impl + layouts of the variants already listed
  for (IsaLevel isa : levels) {
    for (const Candidate& c : candidates) {
      const std::string name = isa == primary ? std::string(c.name) : std::string(c.name) + "@" + IsaLevelName(isa);
      if (isa != primary && names == nullptr && v.variant != name) continue;
      std::optional<CF::primitive_desc> pd;
      try {
        pd = make_pd(c.alg, c.src, c.dst, isa);
      } catch (const dnnl::error&) {
        continue;  // no implementation of this candidate within the level
      }
      const bool reference = IsReferenceImpl(pd->impl_info_str());
      if (!v.variant.empty() && v.variant == name) return pd;
      if (isa == primary) {
        if (!fallback) fallback = pd;
        if (!reference && !chosen) chosen = pd;
      }
      // Nothing to list and no variant to find: the first optimized candidate is the answer, and the remaining
      // candidates' descriptors would only cost load time.
      if (chosen && names == nullptr && v.variant.empty()) return chosen;
      if (names != nullptr && !reference) {
        const std::string key = std::string(pd->impl_info_str()) + "|" + EncodePackedLayout(pd->src_desc()) + "|" +
                                EncodePackedLayout(pd->dst_desc());
        if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
          seen.push_back(key);
          names->push_back(name);
        }
      }
    }
  }
  return chosen ? chosen : fallback;
}

// The weights' dims as oneDNN takes them ([G, O/G, I/G, k...] when grouped).
Dims WeightDims(const ConvPlan& p) {
  Dims wd = p.w;
  if (p.group > 1) {
    wd = {p.group, p.w[0] / p.group};
    wd.insert(wd.end(), p.w.begin() + 1, p.w.end());
  }
  return wd;
}

// The primitive's attributes: user scratchpad, the residual sum and the activation as post-ops, except a lone
// SiLU, which runs after the primitive (*silu; silu_epilogue.h: oneDNN's swish post-op is 2-3x slower). False when
// the activation cannot be expressed.
bool ConvAttr(const ConvPlan& p, dnnl::primitive_attr* attr, bool* silu) {
  *attr = UserScratchpadAttr();
  dnnl::post_ops ops;
  if (p.has_sum) ops.append_sum(1.f);
  *silu = p.act.size() == 1 && p.act[0].alg == dnnl::algorithm::eltwise_swish && p.act[0].alpha == 1.f;
  if (!*silu && !AppendEltwise(p.act, &ops)) return false;
  attr->set_post_ops(ops);
  return true;
}

// A 1x1 stride-1 unpadded convolution over plain activations is, per image, W [Cout, Cin] times X [Cin, S] (S the
// spatial size): a batched matmul with W broadcast over the batch, which oneDNN 2.6 runs on its brgemm kernels. Its
// plain 1x1 convolution (`gemm:jit`) is 2-5x slower with few input channels (PointNet's Conv1d 3 -> 64 and 64 -> 128
// over 8 x 1024 points: 1.25 -> 0.23 and 1.97 -> 0.89 ms on a busy 2-core AVX-512 EPYC) and as fast from 128 on
// (128 -> 1024: 10.1 vs 11.1 ms), where the convolution stays. The bias is a per-row binary post-op, then the Sum
// and the activation. Returns nullptr where the node is not such a convolution or the matmul has no optimized
// implementation within the target.
// The variant name of this form (kernels/exec/kernel_variant.h); without a variant it is taken where it pays.
constexpr const char kMatmulVariant[] = "matmul";

KernelPtr PreparePointwiseAsMatmul(const OpView& v, const ConvPlan& p) {
  const bool asked = v.variant == kMatmulVariant;
  if ((!v.variant.empty() && !asked) || p.group != 1 || IsNonPlainLayout(v.in[0].format) ||
      IsNonPlainLayout(v.out[0].format) || ComputeType(v) != dnnl::memory::data_type::f32 || v.variable_in(1) ||
      v.packed_input == 1) {
    return nullptr;  // (weights an older compile prepacked for the convolution stay on it)
  }
  if (p.has_sum && IsNonPlainLayout(v.in[3].format)) return nullptr;
  for (size_t i = 2; i < p.w.size(); ++i) {
    if (p.w[i] != 1) return nullptr;
  }
  for (size_t i = 0; i < p.strides.size(); ++i) {
    if (p.strides[i] != 1 || p.pad_l[i] != 0 || p.pad_r[i] != 0) return nullptr;
  }
  constexpr int64_t kMaxMatmulInputChannels = 64;
  const int64_t batch = p.x[0], cin = p.x[1], cout = p.w[0];
  if (cin > kMaxMatmulInputChannels && !asked) return nullptr;
  int64_t spatial = 1;
  for (size_t i = 2; i < p.x.size(); ++i) spatial *= p.x[i];
  dnnl::post_ops ops;
  const dnnl::memory::desc bias_md = PlainDesc({1, cout, 1});
  if (p.has_bias) ops.append_binary(dnnl::algorithm::binary_add, bias_md);
  if (p.has_sum) ops.append_sum(1.f);
  const bool silu = p.act.size() == 1 && p.act[0].alg == dnnl::algorithm::eltwise_swish && p.act[0].alpha == 1.f;
  if (!silu && !AppendEltwise(p.act, &ops)) return nullptr;
  dnnl::primitive_attr attr = UserScratchpadAttr();
  attr.set_post_ops(ops);
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_conv" : "dnnl.conv", v.threads);
  const dnnl::memory::desc w_md = PlainDesc({1, cout, cin}), x_md = PlainDesc({batch, cin, spatial}),
                           y_md = PlainDesc({batch, cout, spatial});
  using MM = dnnl::matmul;
  MM::primitive_desc pd = SelectImpl(MM::primitive_desc(MM::desc(w_md, x_md, y_md), attr, k->engine()), v.max_isa);
  if (IsReferenceImpl(pd.impl_info_str())) return nullptr;
  const dnnl::memory y = k->BindOutput(0, y_md);
  if (p.has_sum) k->SetPreCopy(3, 0, y_md.get_size());
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, k->BindInput(1, w_md)}, {DNNL_ARG_WEIGHTS, k->BindInput(0, x_md)}, {DNNL_ARG_DST, y}};
  if (p.has_bias) args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, k->BindInput(2, bias_md)});
  k->AddStep(MM(pd), pd, args);
  if (silu) k->SetSiluEpilogue(0, static_cast<int64_t>(y_md.get_size() / sizeof(float)));
  k->Finalize();
  return k;
}

}  // namespace

bool ConvSupported(const OpView& v) { return PlanConv(v).has_value(); }

std::vector<std::string> ConvVariants(const OpView& v) {
  const std::optional<ConvPlan> plan = PlanConv(v);
  if (!plan || !v.static_shapes) return {};
  const ConvPlan& p = *plan;
  const Dims wd = WeightDims(p);
  dnnl::primitive_attr attr;
  bool silu = false;
  if (!ConvAttr(p, &attr, &silu)) return {};
  const dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  std::vector<std::string> names;
  OpView any = v;
  any.variant.clear();
  ChooseConv(any, p, wd, attr, eng, ActivationDesc(v.in[0]), ActivationDesc(v.out[0]), &names);
  OpView matmul = v;
  matmul.variant = kMatmulVariant;
  if (PreparePointwiseAsMatmul(matmul, p) != nullptr) {  // the default first
    names.insert(PreparePointwiseAsMatmul(any, p) != nullptr ? names.begin() : names.end(), kMatmulVariant);
  }
  return names;
}

KernelPtr PrepareConv(const OpView& v) {
  const std::optional<ConvPlan> plan = PlanConv(v);
  if (!plan) return nullptr;
  const ConvPlan& p = *plan;
  if (KernelPtr mm = PreparePointwiseAsMatmul(v, p)) return mm;
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_conv" : "dnnl.conv", v.threads);
  const Dims wd = WeightDims(p);
  // The slots' layouts: plain, or NHWC / NC1HWC0 where the compiler chose it (format selection).
  const dnnl::memory::desc src_slot = ActivationDesc(v.in[0]), dst_slot = ActivationDesc(v.out[0]);
  const dnnl::memory::desc w_plain = PlainDesc(wd);
  const dnnl::memory::desc b_md = PlainDesc({p.w[0]});
  using CF = dnnl::convolution_forward;
  dnnl::primitive_attr attr;
  bool silu = false;
  if (!ConvAttr(p, &attr, &silu)) return nullptr;
  std::optional<CF::primitive_desc> chosen = ChooseConv(v, p, wd, attr, k->engine(), src_slot, dst_slot, nullptr);
  if (!chosen) return nullptr;
  const CF::primitive_desc& pd = *chosen;

  // Activations in the primitive's layout: the slot itself, or a kernel-owned buffer reordered from / to it.
  const ActivationBinding act = BindActivations(k.get(), src_slot, pd.src_desc(), dst_slot, pd.dst_desc());
  const dnnl::memory& x = act.src;
  const dnnl::memory& y = act.dst;
  if (p.has_sum) {
    const dnnl::memory::desc sum_slot = ActivationDesc(v.in[3]);
    if (act.dst_direct && sum_slot == dst_slot) {
      k->SetPreCopy(3, 0, dst_slot.get_size());
    } else {
      AddReorder(k.get(), k->BindInput(3, sum_slot), y);
    }
  }
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, x},
      {DNNL_ARG_WEIGHTS, WeightsMemory(k.get(), v, 1, w_plain, pd.weights_desc())},
      {DNNL_ARG_DST, y},
  };
  if (p.has_bias) args.push_back({DNNL_ARG_BIAS, k->BindInput(2, b_md)});
  k->AddStep(CF(pd), pd, args);
  FinishActivations(k.get(), act);
  if (silu) k->SetSiluEpilogue(0, static_cast<int64_t>(dst_slot.get_size() / sizeof(float)));
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
