#include "kernels/dnnl/bf16_util.h"

#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/dnnl/dnnl_kernel.h"

namespace ge::dnnl_kernels {

bool CpuHasBf16() {
  const auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
  const auto bf16 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core_bf16);
  return (isa & bf16) == bf16;  // oneDNN's ISA values are bit sets: each includes the ones below it
}

dnnl::memory::data_type ComputeType(const OpView& v, int weights) {
  return v.bf16 && v.const_in(weights) != nullptr ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
}

dnnl::memory::desc AsType(const dnnl::memory::desc& md, dnnl::memory::data_type t) {
  if (md.data_type() == t) return md;
  dnnl_memory_desc_t d = md.data;
  d.data_type = static_cast<dnnl_data_type_t>(t);
  return dnnl::memory::desc(d);
}

dnnl::memory InputAs(DnnlKernel* k, int slot, const dnnl::memory::desc& slot_md, const dnnl::memory::desc& want) {
  const dnnl::memory bound = k->BindInput(slot, slot_md);
  if (want == slot_md) return bound;
  const dnnl::memory owned = k->IntermediateMemory(want);
  AddReorder(k, bound, owned);
  return owned;
}

}  // namespace ge::dnnl_kernels
