// ge::TransData(X) -> Y: one oneDNN reorder from X's stored layout to Y's (plain, NHWC, NC1HWC0; DESIGN.md §3
// format selection). Reorders into NC1HWC0 zero the channel padding, which the blocked kernels rely on.
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {

bool TransDataSupported(const OpView& v) {
  if (v.num_in() != 1 || !v.has_in(0) || !OnlyFirstOutputs(v, 1)) return false;
  return !v.static_shapes || v.in_dims(0) == v.out_dims(0);
}

KernelPtr PrepareTransData(const OpView& v) {
  if (!TransDataSupported(v)) return nullptr;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.trans_data", v.threads);
  AddReorder(k.get(), k->BindInput(0, ActivationDesc(v.in[0])), k->BindOutput(0, ActivationDesc(v.out[0])));
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
