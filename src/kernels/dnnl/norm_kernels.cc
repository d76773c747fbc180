// LayerNormalization (opset 17; output Y only) and BatchNormalization (inference, output Y only): oneDNN
// layer_normalization_forward over a [rows, cols] view (cols = dims from axis on) and batch_normalization_forward
// with global statistics over [N, C, spatial]. Scale and bias of LayerNormalization must hold one value per
// normalized element (a broadcast Scale or B stays on ref); requests that use Mean / InvStdDev or running
// statistics outputs return nullptr. Constant BatchNormalization parameters fold into a per-channel multiply-add.
#include <cmath>
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct NormPlan {
  bool layer = false, has_bias = false;
  float eps = 1e-5f;
  Dims view;  // LayerNorm: [rows, cols]; BatchNorm: [N, C] or [N, C, spatial]
  std::vector<EltStep> act;  // ge::FusedBatchNormalization's activation
};

// True when p (unidirectionally broadcast) covers every element of target, i.e. p is target with leading 1s.
bool CoversTail(const Dims& p, const Dims& target) {
  if (NumElements(p) != NumElements(target) || p.size() > target.size()) return false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[p.size() - 1 - i] != target[target.size() - 1 - i]) return false;
  }
  return true;
}

std::optional<NormPlan> PlanLayerNorm(const OpView& v) {
  NormPlan p;
  p.layer = true;
  p.eps = v.attrs().GetFloat("epsilon", 1e-5f);
  if (v.num_in() < 2 || v.num_in() > 3 || !v.has_in(0) || !v.has_in(1)) return std::nullopt;
  if (!OnlyFirstOutputs(v, 1)) return std::nullopt;
  p.has_bias = v.has_in(2);
  if (!v.static_shapes) return p;
  const Dims& d = v.in_dims(0);
  const int r = static_cast<int>(d.size());
  int64_t axis = v.attrs().GetInt("axis", -1);
  if (r == 0 || axis < -r || axis >= r || v.out_dims(0) != d) return std::nullopt;
  if (axis < 0) axis += r;
  const Dims tail(d.begin() + axis, d.end());
  if (!CoversTail(v.in_dims(1), tail) || (p.has_bias && !CoversTail(v.in_dims(2), tail))) return std::nullopt;
  const int64_t cols = NumElements(tail);
  p.view = {NumElements(d) / cols, cols};
  return p;
}

std::optional<NormPlan> PlanBatchNorm(const OpView& v) {
  NormPlan p;
  const ir::AttrMap& a = v.attrs();
  p.eps = a.GetFloat("epsilon", 1e-5f);
  if (v.num_in() != 5 || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  for (int i = 0; i < 5; ++i) {
    if (!v.has_in(i)) return std::nullopt;
  }
  if (a.GetInt("training_mode", 0) != 0 || a.GetInt("spatial", 1) != 1) return std::nullopt;
  if (v.in_rank(0) >= 0 && v.in_rank(0) < 2) return std::nullopt;
  if (v.node->domain() == "ge" && (!ParseActivation(a, &p.act) || !EltwiseChainOk(p.act))) return std::nullopt;
  // Activation layouts (NHWC, NC1HWC0) only for the per-channel multiply-add of constant parameters.
  const bool blocked = IsNonPlainLayout(v.in[0].format) || IsNonPlainLayout(v.out[0].format);
  if (blocked && !(v.const_in(1) && v.const_in(2) && v.const_in(3) && v.const_in(4))) return std::nullopt;
  if (v.node->domain() == "ge" && !(v.const_in(1) && v.const_in(2) && v.const_in(3) && v.const_in(4))) {
    return std::nullopt;  // the fused form is only planned as that multiply-add
  }
  if (!v.static_shapes) return p;
  const Dims& d = v.in_dims(0);
  if (v.out_dims(0) != d) return std::nullopt;
  for (int i = 1; i < 5; ++i) {
    if (v.in_dims(i) != Dims{d[1]}) return std::nullopt;
  }
  p.view = {d[0], d[1]};
  if (d.size() > 2) p.view.push_back(NumElements(d) / (d[0] * d[1]));
  return p;
}

std::optional<NormPlan> PlanNorm(const OpView& v) {
  return v.node->op_type() == "LayerNormalization" ? PlanLayerNorm(v) : PlanBatchNorm(v);
}

// BatchNormalization with constant parameters as y = act(x * a + b) per channel (a = scale / sqrt(var + eps),
// b = B - mean * a, computed in double at prepare like ref): one binary mul with a binary add and the activation
// as post-ops, which runs vectorized on plain NCHW, where oneDNN's batch normalization has only its reference
// implementation, and on the activation layouts of convolution chains (format selection).
KernelPtr PrepareFoldedBatchNorm(const OpView& v, const NormPlan& p) {
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.batch_norm_folded", v.threads);
  const int64_t c = p.view[1];
  const bool blocked = IsNonPlainLayout(v.in[0].format) || IsNonPlainLayout(v.out[0].format);
  Dims cd(blocked ? v.in_dims(0).size() : p.view.size(), 1);
  cd[1] = c;
  const dnnl::memory::desc cmd = PlainDesc(cd);
  const dnnl::memory::desc x_md = blocked ? ActivationDesc(v.in[0]) : PlainDesc(p.view);
  const dnnl::memory::desc y_md = blocked ? ActivationDesc(v.out[0]) : PlainDesc(p.view);
  const dnnl::memory a = k->PreparedMemory(cmd), b = k->PreparedMemory(cmd);
  float* ap = static_cast<float*>(a.get_data_handle());
  float* bp = static_cast<float*>(b.get_data_handle());
  for (int64_t i = 0; i < c; ++i) {
    const double scale = v.const_in(1)->GetAsDouble(i), bias = v.const_in(2)->GetAsDouble(i);
    const double mean = v.const_in(3)->GetAsDouble(i), var = v.const_in(4)->GetAsDouble(i);
    const double ai = scale / std::sqrt(var + static_cast<double>(p.eps));
    ap[i] = static_cast<float>(ai);
    bp[i] = static_cast<float>(bias - mean * ai);
  }
  dnnl::post_ops ops;
  ops.append_binary(dnnl::algorithm::binary_add, cmd);
  if (!AppendEltwise(p.act, &ops)) return nullptr;
  dnnl::primitive_attr attr = UserScratchpadAttr();
  attr.set_post_ops(ops);
  const dnnl::binary::desc d(dnnl::algorithm::binary_mul, x_md, cmd, y_md);
  const dnnl::binary::primitive_desc pd = SelectImpl(dnnl::binary::primitive_desc(d, attr, k->engine()), v.max_isa);
  k->AddStep(dnnl::binary(pd), pd,
             {{DNNL_ARG_SRC_0, k->BindInput(0, x_md)},
              {DNNL_ARG_SRC_1, a},
              {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, b},
              {DNNL_ARG_DST, k->BindOutput(0, y_md)}});
  k->Finalize();
  return k;
}

}  // namespace

bool NormSupported(const OpView& v) { return PlanNorm(v).has_value(); }

KernelPtr PrepareNorm(const OpView& v) {
  const std::optional<NormPlan> plan = PlanNorm(v);
  if (!plan) return nullptr;
  const NormPlan& p = *plan;
  using F = dnnl::normalization_flags;
  const auto prop = dnnl::prop_kind::forward_inference;
  const dnnl::memory::desc md = PlainDesc(p.view);
  if (p.layer) {
    auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.layer_norm", v.threads);
    const F flags = p.has_bias ? F::use_scale | F::use_shift : F::use_scale;
    using LF = dnnl::layer_normalization_forward;
    const LF::desc d(prop, md, p.eps, flags);
    const LF::primitive_desc pd = SelectImpl(LF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
    const dnnl::memory::desc cmd = PlainDesc({p.view[1]});
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, k->BindInput(0, md)},
                                                      {DNNL_ARG_SCALE, k->BindInput(1, cmd)},
                                                      {DNNL_ARG_DST, k->BindOutput(0, md)}};
    if (p.has_bias) args.push_back({DNNL_ARG_SHIFT, k->BindInput(2, cmd)});
    k->AddStep(LF(pd), pd, args);
    k->Finalize();
    return k;
  }
  if (v.const_in(1) && v.const_in(2) && v.const_in(3) && v.const_in(4)) return PrepareFoldedBatchNorm(v, p);
  if (!p.act.empty()) return nullptr;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.batch_norm", v.threads);
  using BF = dnnl::batch_normalization_forward;
  const BF::desc d(prop, md, p.eps, F::use_global_stats | F::use_scale | F::use_shift);
  const BF::primitive_desc pd = SelectImpl(BF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
  const dnnl::memory::desc cmd = PlainDesc({p.view[1]});
  k->AddStep(BF(pd), pd,
             {{DNNL_ARG_SRC, k->BindInput(0, md)},
              {DNNL_ARG_SCALE, k->BindInput(1, cmd)},
              {DNNL_ARG_SHIFT, k->BindInput(2, cmd)},
              {DNNL_ARG_MEAN, k->BindInput(3, cmd)},
              {DNNL_ARG_VARIANCE, k->BindInput(4, cmd)},
              {DNNL_ARG_DST, k->BindOutput(0, md)}});
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
