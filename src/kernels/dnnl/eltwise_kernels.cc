// Element-wise unary ops on float32 as oneDNN eltwise_forward over the flat tensor: Relu, LeakyRelu, Elu, Sigmoid,
// Tanh, HardSigmoid (linear then clip, two in-place steps), HardSwish, Abs, Sqrt, Exp, Log, Softplus, and Clip
// with constant one-element bounds (attributes before opset 11). Clip with min > max stays on the CPU kernels.
#include <limits>
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

using A = dnnl::algorithm;

// A constant one-element bound of input i (absent: keep *v); false when it is not constant.
bool ClipBound(const OpView& v, int i, float* out) {
  if (!v.has_in(i)) return true;
  const Tensor* c = v.const_in(i);
  if (c == nullptr) return false;
  if (v.static_shapes && c->numel() != 1) return false;
  if (c->numel() == 1) *out = static_cast<float>(c->GetAsDouble(0));
  return true;
}

std::optional<std::vector<EltStep>> PlanEltwise(const OpView& v) {
  const std::string& op = v.node->op_type();
  const ir::AttrMap& a = v.attrs();
  if (!v.has_in(0) || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  if (v.num_in() != 1 && op != "Clip") return std::nullopt;
  if (v.static_shapes && v.out_dims(0) != v.in_dims(0)) return std::nullopt;
  std::vector<EltStep> s;
  if (op == "Relu") s.push_back({A::eltwise_relu, 0.f, 0.f});
  if (op == "LeakyRelu") s.push_back({A::eltwise_relu, a.GetFloat("alpha", 0.01f), 0.f});
  if (op == "Elu") s.push_back({A::eltwise_elu, a.GetFloat("alpha", 1.0f), 0.f});
  if (op == "Sigmoid") s.push_back({A::eltwise_logistic, 0.f, 0.f});
  if (op == "Tanh") s.push_back({A::eltwise_tanh, 0.f, 0.f});
  if (op == "HardSigmoid") {
    s.push_back({A::eltwise_linear, a.GetFloat("alpha", 0.2f), a.GetFloat("beta", 0.5f)});
    s.push_back({A::eltwise_clip_v2, 0.f, 1.f});
  }
  if (op == "HardSwish") s.push_back({A::eltwise_hardswish, 0.f, 0.f});
  if (op == "Abs") s.push_back({A::eltwise_abs, 0.f, 0.f});
  if (op == "Sqrt") s.push_back({A::eltwise_sqrt, 0.f, 0.f});
  if (op == "Exp") s.push_back({A::eltwise_exp, 0.f, 0.f});
  if (op == "Log") s.push_back({A::eltwise_log, 0.f, 0.f});
  if (op == "Softplus") s.push_back({A::eltwise_soft_relu, 0.f, 0.f});
  if (op == "Clip") {
    float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
    if (v.num_in() > 3) return std::nullopt;
    if (v.opset < 11) {
      if (v.num_in() != 1) return std::nullopt;
      lo = a.GetFloat("min", lo);
      hi = a.GetFloat("max", hi);
    } else if (!ClipBound(v, 1, &lo) || !ClipBound(v, 2, &hi)) {
      return std::nullopt;
    }
    if (!(lo <= hi)) return std::nullopt;
    s.push_back({A::eltwise_clip_v2, lo, hi});
  }
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

bool EltwiseSupported(const OpView& v) { return PlanEltwise(v).has_value(); }

KernelPtr PrepareEltwise(const OpView& v) {
  const std::optional<std::vector<EltStep>> plan = PlanEltwise(v);
  if (!plan) return nullptr;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.eltwise", v.threads);
  const dnnl::memory::desc md = PlainDesc({NumElements(v.in_dims(0))});
  const dnnl::memory src = k->BindInput(0, md), dst = k->BindOutput(0, md);
  bool first = true;
  for (const EltStep& s : *plan) {
    using EF = dnnl::eltwise_forward;
    const EF::desc d(dnnl::prop_kind::forward_inference, s.alg, md, s.alpha, s.beta);
    const EF::primitive_desc pd = SelectImpl(EF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
    k->AddStep(EF(pd), pd, {{DNNL_ARG_SRC, first ? src : dst}, {DNNL_ARG_DST, dst}});
    first = false;
  }
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
