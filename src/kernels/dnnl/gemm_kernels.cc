// Gemm and ge::FusedGemm (A, B, [C]) -> Y = activation(alpha * A' B' + beta * C): oneDNN matmul, transA/transB
// as strides (a constant B is reordered once, which also undoes its transpose). C of shape [N] / [1, N] with
// alpha = beta = 1 is the matmul bias (beta * C precomputed when C is constant and only beta differs); any other
// C is a binary post-op: beta * ((alpha / beta) * A'B' + C), alpha / beta as the output scale and beta a linear
// post-op (merged with the activation's). A column C ([M, 1], M and N > 1) has only oneDNN's reference kernel and
// stays on the CPU kernels.
#include <cmath>
#include <optional>

#include "kernels/dnnl/bf16_util.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

enum class CMode { kNone, kBias, kScaledBias, kPostOp };

struct GemmPlan {
  bool fused = false, trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
  int64_t m = 0, k = 0, n = 0;
  CMode c_mode = CMode::kNone;
  Dims c;  // C as [cm, cn]
  float out_scale = 1;          // applied to A'B' before the post-ops
  std::vector<EltStep> chain;   // eltwise post-ops after the C post-op: beta, then the activation
};

// The output scale and eltwise chain for the plan's C mode, then the activation.
std::optional<GemmPlan> FinishChain(GemmPlan p, const std::vector<EltStep>& act) {
  const auto linear = dnnl::algorithm::eltwise_linear;
  if (p.c_mode == CMode::kPostOp) {
    p.out_scale = p.alpha / p.beta;
    if (p.beta != 1.f) p.chain.push_back({linear, p.beta, 0.f});
  } else if (p.c_mode == CMode::kNone) {
    p.out_scale = p.alpha;
  }
  p.chain.insert(p.chain.end(), act.begin(), act.end());
  if (!EltwiseChainOk(p.chain)) return std::nullopt;
  return p;
}

std::optional<GemmPlan> PlanGemm(const OpView& v) {
  GemmPlan p;
  p.fused = v.node->domain() == "ge";
  const ir::AttrMap& a = v.attrs();
  if (v.num_in() < 2 || v.num_in() > 3 || !v.has_in(0) || !v.has_in(1)) return std::nullopt;
  if (!OnlyFirstOutputs(v, 1)) return std::nullopt;
  std::vector<EltStep> act;
  if (p.fused && !ParseActivation(a, &act)) return std::nullopt;
  p.trans_a = a.GetInt("transA", 0) != 0;
  p.trans_b = a.GetInt("transB", 0) != 0;
  p.alpha = a.GetFloat("alpha", 1.f);
  p.beta = a.GetFloat("beta", 1.f);
  if (a.Has("broadcast")) return std::nullopt;  // opset < 7 semantics
  const bool use_c = v.has_in(2) && p.beta != 0.f;
  if (v.in_rank(0) >= 0 && v.in_rank(0) != 2) return std::nullopt;
  if (v.in_rank(1) >= 0 && v.in_rank(1) != 2) return std::nullopt;
  if (use_c && v.in_rank(2) > 2) return std::nullopt;
  if (use_c) {
    // Any C may end up a post-op: alpha / beta must not lose the product.
    const float pre = std::fabs(p.alpha / p.beta);
    if (!(pre >= 0x1p-60f && pre <= 0x1p60f)) return std::nullopt;
    p.c_mode = p.alpha == 1.f && p.beta == 1.f ? CMode::kBias
               : p.alpha == 1.f && v.const_in(2) ? CMode::kScaledBias
                                                 : CMode::kPostOp;
  }
  if (!v.static_shapes) return FinishChain(std::move(p), act);

  const Dims& da = v.in_dims(0);
  const Dims& db = v.in_dims(1);
  p.m = p.trans_a ? da[1] : da[0];
  p.k = p.trans_a ? da[0] : da[1];
  p.n = p.trans_b ? db[0] : db[1];
  if ((p.trans_b ? db[1] : db[0]) != p.k || v.out_dims(0) != Dims{p.m, p.n}) return std::nullopt;
  if (use_c) {
    p.c = v.in_dims(2);
    p.c.insert(p.c.begin(), 2 - p.c.size(), 1);
    if ((p.c[0] != 1 && p.c[0] != p.m) || (p.c[1] != 1 && p.c[1] != p.n)) return std::nullopt;
    if (p.c[0] == p.m && p.c[1] == 1 && p.m > 1 && p.n > 1) return std::nullopt;
    // The matmul bias is fast only as a full row [1, N] (a constant scaled bias is expanded to one).
    if (p.c_mode == CMode::kBias && p.c != Dims{1, p.n}) p.c_mode = CMode::kPostOp;
    if (p.c_mode == CMode::kScaledBias && p.c[0] != 1) p.c_mode = CMode::kPostOp;
  }
  return FinishChain(std::move(p), act);
}

// beta * C as a kernel-owned [1, N] bias.
dnnl::memory ScaledBias(DnnlKernel* k, const Tensor& c, float beta, const dnnl::memory::desc& md) {
  dnnl::memory m = k->PreparedMemory(md);
  float* dst = static_cast<float*>(m.get_data_handle());
  const float* src = c.data<float>();
  const int64_t n = md.get_size() / sizeof(float);
  for (int64_t j = 0; j < n; ++j) dst[j] = beta * src[c.numel() == 1 ? 0 : j];
  return m;
}

}  // namespace

bool GemmSupported(const OpView& v) { return PlanGemm(v).has_value(); }

KernelPtr PrepareGemm(const OpView& v) {
  const std::optional<GemmPlan> plan = PlanGemm(v);
  if (!plan) return nullptr;
  const GemmPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_gemm" : "dnnl.gemm", v.threads);
  using dims = dnnl::memory::dims;
  const dnnl::memory::desc a_md = StridedDesc({p.m, p.k}, p.trans_a ? dims{1, p.m} : dims{p.k, 1});
  const dnnl::memory::desc b_plain = StridedDesc({p.k, p.n}, p.trans_b ? dims{1, p.k} : dims{p.n, 1});
  const dnnl::memory::desc b_md = AsType(v.const_in(1) || v.variable_in(1) ? AnyDesc({p.k, p.n}) : b_plain, ComputeType(v));
  const dnnl::memory::desc a_ct = AsType(a_md, ComputeType(v));
  const dnnl::memory::desc y_md = PlainDesc({p.m, p.n});
  const dnnl::memory::desc c_md = PlainDesc(p.c_mode == CMode::kScaledBias ? Dims{1, p.n} : p.c);
  const bool bias = p.c_mode == CMode::kBias || p.c_mode == CMode::kScaledBias;
  const dnnl::matmul::desc d = bias ? dnnl::matmul::desc(a_ct, b_md, c_md, y_md) : dnnl::matmul::desc(a_ct, b_md, y_md);
  dnnl::post_ops ops;
  if (p.c_mode == CMode::kPostOp) ops.append_binary(dnnl::algorithm::binary_add, c_md);
  if (!AppendEltwise(p.chain, &ops)) return nullptr;
  dnnl::primitive_attr attr = UserScratchpadAttr();
  attr.set_post_ops(ops);
  if (p.out_scale != 1.f) attr.set_output_scales(0, {p.out_scale});
  const dnnl::matmul::primitive_desc pd = SelectImpl(dnnl::matmul::primitive_desc(d, attr, k->engine()), v.max_isa);
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, InputAs(k.get(), 0, a_md, a_ct)},
      {DNNL_ARG_WEIGHTS, WeightsMemory(k.get(), v, 1, b_plain, pd.weights_desc())},
      {DNNL_ARG_DST, k->BindOutput(0, y_md)},
  };
  if (p.c_mode == CMode::kBias) args.push_back({DNNL_ARG_BIAS, k->BindInput(2, c_md)});
  if (p.c_mode == CMode::kScaledBias) args.push_back({DNNL_ARG_BIAS, ScaledBias(k.get(), *v.const_in(2), p.beta, c_md)});
  if (p.c_mode == CMode::kPostOp) {
    args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, k->BindInput(2, c_md)});
  }
  k->AddStep(dnnl::matmul(pd), pd, args);
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
