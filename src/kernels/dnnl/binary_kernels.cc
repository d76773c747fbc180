// Add, Sub, Mul, Div and two-input Max / Min on float32 as oneDNN binary with numpy broadcasting where oneDNN can
// express it: oneDNN broadcasts only its second source, so the operand with the output's dims is src0 (swapped
// for the commutative ops; Sub swapped is computed as -(b - a) with a linear post-op). When neither operand has
// the output's dims (both broadcast) or Div would need the swap, the CPU kernels take the node. Operands and the
// output may be NHWC / NC1HWC0 activations.
//
// One case runs on ge's broadcasting kernel instead (exec/binary_kernel.h) over the stored dims: an NHWC activation
// with a per-channel [N|1, C, 1, 1] operand (squeeze-and-excitation's scale): oneDNN 2.6's jit:uni binary streams
// that at a third of the speed (EfficientNet-B0's 16 such Muls: 0.9 ms of 8).
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct BinaryPlan {
  dnnl::algorithm alg = dnnl::algorithm::binary_add;
  int src0 = 0, src1 = 1;  // input slots
  bool negate = false;
  Dims d0, d1, y;  // unsqueezed to the output's rank
};

std::optional<BinaryPlan> PlanBinary(const OpView& v) {
  BinaryPlan p;
  const std::string& op = v.node->op_type();
  if (v.num_in() != 2 || !v.has_in(0) || !v.has_in(1) || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  if (v.attrs().Has("broadcast") || v.attrs().Has("axis")) return std::nullopt;  // opset < 7 semantics
  using A = dnnl::algorithm;
  const bool commutative = op != "Sub" && op != "Div";
  p.alg = op == "Add"   ? A::binary_add
          : op == "Sub" ? A::binary_sub
          : op == "Mul" ? A::binary_mul
          : op == "Div" ? A::binary_div
          : op == "Max" ? A::binary_max
                        : A::binary_min;
  if (!v.static_shapes) return p;
  const Dims& y = v.out_dims(0);
  Dims a = v.in_dims(0), b = v.in_dims(1);
  if (a.size() > y.size() || b.size() > y.size()) return std::nullopt;
  a.insert(a.begin(), y.size() - a.size(), 1);
  b.insert(b.begin(), y.size() - b.size(), 1);
  for (size_t i = 0; i < y.size(); ++i) {
    if ((a[i] != y[i] && a[i] != 1) || (b[i] != y[i] && b[i] != 1) || (a[i] != y[i] && b[i] != y[i])) {
      return std::nullopt;
    }
  }
  p.y = y;
  if (a == y) {
    p.d0 = a;
    p.d1 = b;
  } else if (b == y && (commutative || op == "Sub")) {
    p.src0 = 1;
    p.src1 = 0;
    p.d0 = b;
    p.d1 = a;
    p.negate = op == "Sub";
  } else {
    return std::nullopt;
  }
  return p;
}

}  // namespace

bool BinarySupported(const OpView& v) { return PlanBinary(v).has_value(); }

KernelPtr PrepareBinary(const OpView& v) {
  const std::optional<BinaryPlan> plan = PlanBinary(v);
  if (!plan) return nullptr;
  const BinaryPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.binary", v.threads);
  // An operand of the output's rank is read in its stored layout (NHWC / NC1HWC0 from format selection).
  auto operand = [&](int slot, const Dims& d) {
    return v.in[slot].shape.dims().size() == d.size() ? ActivationDesc(v.in[slot]) : PlainDesc(d);
  };
  const dnnl::memory::desc y_md = ActivationDesc(v.out[0]);
  dnnl::memory::desc md0 = operand(p.src0, p.d0), md1 = operand(p.src1, p.d1);
  dnnl::primitive_attr attr = UserScratchpadAttr();
  if (p.negate) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, -1.f, 0.f);
    attr.set_post_ops(ops);
  }
  auto make_pd = [&](const dnnl::memory::desc& a, const dnnl::memory::desc& b) {
    return SelectImpl(dnnl::binary::primitive_desc(dnnl::binary::desc(p.alg, a, b, y_md), attr, k->engine()),
                      v.max_isa);
  };
  dnnl::binary::primitive_desc pd = make_pd(md0, md1);
  // Operands of the output's shape stored in different layouts (an NHWC chain's value times a plain one) get
  // oneDNN's reference loop; such an operand is reordered into the output's layout first, as Concat's inputs are.
  const dnnl::memory::desc slot0 = md0, slot1 = md1;
  if (IsReferenceImpl(pd.impl_info_str())) {
    auto as_output = [&](int slot, const dnnl::memory::desc& md) {
      if (md.dims() != y_md.dims() || v.in[slot].format == v.out[0].format) return md;
      TensorDesc as_out = v.in[slot];
      as_out.format = v.out[0].format;
      return ActivationDesc(as_out);
    };
    const dnnl::memory::desc r0 = as_output(p.src0, md0), r1 = as_output(p.src1, md1);
    try {
      const dnnl::binary::primitive_desc reordered = make_pd(r0, r1);
      if (!IsReferenceImpl(reordered.impl_info_str())) {
        pd = reordered;
        md0 = r0;
        md1 = r1;
      }
    } catch (const dnnl::error&) {
    }
  }
  auto source = [&](int slot, const dnnl::memory::desc& slot_md, const dnnl::memory::desc& md) {
    const dnnl::memory m = k->BindInput(slot, slot_md);
    if (md == slot_md) return m;
    const dnnl::memory copy = k->IntermediateMemory(md);
    AddReorder(k.get(), m, copy);
    return copy;
  };
  const dnnl::memory src0 = source(p.src0, slot0, md0), src1 = source(p.src1, slot1, md1);
  k->AddStep(dnnl::binary(pd), pd,
             {{DNNL_ARG_SRC_0, src0}, {DNNL_ARG_SRC_1, src1}, {DNNL_ARG_DST, k->BindOutput(0, y_md)}});
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
