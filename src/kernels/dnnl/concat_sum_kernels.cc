// Concat (oneDNN concat along the axis) and Sum (oneDNN sum with unit scales; every input of the output's shape,
// no broadcasting) on float32 tensors, plain, NHWC or NC1HWC0.
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct ConcatSumPlan {
  bool concat = false;
  int axis = 0;
};

std::optional<ConcatSumPlan> PlanConcatSum(const OpView& v) {
  ConcatSumPlan p;
  p.concat = v.node->op_type() == "Concat";
  if (v.num_in() < 1 || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  for (int i = 0; i < v.num_in(); ++i) {
    if (!v.has_in(i)) return std::nullopt;
  }
  if (p.concat && !v.attrs().Has("axis")) return std::nullopt;
  if (!v.static_shapes) return p;
  const Dims& y = v.out_dims(0);
  const int r = static_cast<int>(y.size());
  if (!p.concat) {
    for (int i = 0; i < v.num_in(); ++i) {
      if (v.in_dims(i) != y) return std::nullopt;
    }
    return p;
  }
  int64_t axis = v.attrs().GetInt("axis", 0);
  if (r == 0 || axis < -r || axis >= r) return std::nullopt;
  if (axis < 0) axis += r;
  p.axis = static_cast<int>(axis);
  int64_t total = 0;
  for (int i = 0; i < v.num_in(); ++i) {
    const Dims& d = v.in_dims(i);
    if (static_cast<int>(d.size()) != r) return std::nullopt;
    for (int j = 0; j < r; ++j) {
      if (j != p.axis && d[j] != y[j]) return std::nullopt;
    }
    total += d[p.axis];
  }
  if (total != y[p.axis]) return std::nullopt;
  return p;
}

}  // namespace

bool ConcatSumSupported(const OpView& v) { return PlanConcatSum(v).has_value(); }

KernelPtr PrepareConcatSum(const OpView& v) {
  const std::optional<ConcatSumPlan> plan = PlanConcatSum(v);
  if (!plan) return nullptr;
  auto k = std::make_unique<DnnlKernel>(*v.node, plan->concat ? "dnnl.concat" : "dnnl.sum", v.threads);
  const dnnl::memory::desc y_md = ActivationDesc(v.out[0]);
  if (plan->concat && v.static_shapes && !IsNonPlainLayout(v.out[0].format)) {
    // A plain output (a U-Net's skip connection joined with an upsampled plain value): each input is reordered
    // straight into its slice of the output, a view with the slice's offset. oneDNN's concat into a plain NCHW
    // destination moves elements one by one (its `simple` implementation), several times slower than a reorder.
    dnnl::memory::dims offsets(y_md.dims().size(), 0);
    for (int i = 0; i < v.num_in(); ++i) {
      const dnnl::memory::desc slot_md = ActivationDesc(v.in[i]);
      const dnnl::memory::dims dims = slot_md.dims();
      if (dims[plan->axis] > 0) {
        AddReorder(k.get(), k->BindInput(i, slot_md), k->BindOutput(0, y_md.submemory_desc(dims, offsets)));
      }
      offsets[plan->axis] += dims[plan->axis];
    }
    k->Finalize();
    return k;
  }
  std::vector<dnnl::memory::desc> mds;
  std::vector<std::pair<int, dnnl::memory>> args;
  for (int i = 0; i < v.num_in(); ++i) {
    // oneDNN concatenates inputs of one layout with its fast implementation and mixed ones with its reference
    // one: an input stored in another layout than the output is reordered into the output's first.
    TensorDesc as_out = v.in[i];
    as_out.format = v.out[0].format;
    const dnnl::memory::desc slot_md = ActivationDesc(v.in[i]), md = ActivationDesc(as_out);
    const dnnl::memory slot = k->BindInput(i, slot_md);
    dnnl::memory src = slot;
    if (md != slot_md) {
      src = k->IntermediateMemory(md);
      AddReorder(k.get(), slot, src);
    }
    mds.push_back(md);
    args.push_back({DNNL_ARG_MULTIPLE_SRC + i, src});
  }
  args.push_back({DNNL_ARG_DST, k->BindOutput(0, y_md)});
  if (plan->concat) {
    const dnnl::concat::primitive_desc pd =
        dnnl::concat::primitive_desc(y_md, plan->axis, mds, k->engine(), UserScratchpadAttr());
    k->AddStep(dnnl::concat(pd), pd, args);
  } else {
    const std::vector<float> scales(mds.size(), 1.f);
    const dnnl::sum::primitive_desc pd =
        dnnl::sum::primitive_desc(y_md, scales, mds, k->engine(), UserScratchpadAttr());
    k->AddStep(dnnl::sum(pd), pd, args);
  }
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
