// Softmax and LogSoftmax: oneDNN softmax_v2_forward (softmax_accurate / softmax_log) over a [outer, n, inner]
// view of the plain tensor. Opset >= 13 normalizes along one axis; opsets < 13 coerce the input to 2-D
// [prod(dims before axis), prod(dims from axis)] and normalize each row.
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct SoftmaxPlan {
  Dims view;  // [outer, n, inner]
};

std::optional<SoftmaxPlan> PlanSoftmax(const OpView& v) {
  if (v.num_in() != 1 || !v.has_in(0) || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  if (!v.static_shapes) return SoftmaxPlan();
  const Dims& d = v.in_dims(0);
  if (v.out_dims(0) != d) return std::nullopt;
  const int rank = static_cast<int>(d.size());
  int64_t axis = v.attrs().GetInt("axis", v.opset < 13 ? 1 : -1);
  if (axis < -rank || axis >= rank || rank == 0) {
    // opset < 13 also accepts axis == rank (every row one element); leave such odd cases to ref.
    return std::nullopt;
  }
  if (axis < 0) axis += rank;
  int64_t outer = 1, n = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    if (v.opset < 13) {
      (i < axis ? outer : n) *= d[i];
    } else {
      (i < axis ? outer : i == axis ? n : inner) *= d[i];
    }
  }
  return SoftmaxPlan{{outer, n, inner}};
}

}  // namespace

bool SoftmaxSupported(const OpView& v) { return PlanSoftmax(v).has_value(); }

KernelPtr PrepareSoftmax(const OpView& v) {
  const std::optional<SoftmaxPlan> plan = PlanSoftmax(v);
  if (!plan) return nullptr;
  const bool log = v.node->op_type() == "LogSoftmax";
  auto k = std::make_unique<DnnlKernel>(*v.node, log ? "dnnl.log_softmax" : "dnnl.softmax", v.threads);
  const dnnl::memory::desc md = PlainDesc(plan->view);
  using SF = dnnl::softmax_v2_forward;
  const SF::desc d(dnnl::prop_kind::forward_inference,
                   log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate, md, md, 1);
  const SF::primitive_desc pd = SelectImpl(SF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
  if (plan->view[2] > 1 && IsReferenceImpl(pd.impl_info_str())) {
    // oneDNN's optimized softmax wants the axis dense: over a middle axis (a segmentation head's channels) it runs
    // its reference loop, several times slower than ORT. There the axis is made the innermost dim of a buffer
    // (view [outer, n, inner] stored acb), softmaxed there, and the result reordered back.
    const dnnl::memory::desc t(plan->view, dnnl::memory::data_type::f32, dnnl::memory::format_tag::acb);
    const SF::desc td(dnnl::prop_kind::forward_inference,
                      log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate, t, t, 1);
    const SF::primitive_desc tpd = SelectImpl(SF::primitive_desc(td, UserScratchpadAttr(), k->engine()), v.max_isa);
    if (!IsReferenceImpl(tpd.impl_info_str())) {
      const dnnl::memory in = k->BindInput(0, md), out = k->BindOutput(0, md);
      const dnnl::memory a = k->IntermediateMemory(t), b = k->IntermediateMemory(t);
      AddReorder(k.get(), in, a);
      k->AddStep(SF(tpd), tpd, {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}});
      AddReorder(k.get(), b, out);
      k->Finalize();
      return k;
    }
  }
  k->AddStep(SF(pd), pd, {{DNNL_ARG_SRC, k->BindInput(0, md)}, {DNNL_ARG_DST, k->BindOutput(0, md)}});
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
