// allow_bf16 (precision_mode, `ge compile --precision_mode=allow_bf16`): slots stay float32; a kernel that may
// compute in bfloat16 describes its compute operands as bf16, converts activations on the way in (a reorder into a
// kernel-owned buffer) and has its constant weights reordered to bf16 once at prepare; outputs stay f32.
// oneDNN 2.6's fpmath_mode(bf16) does not do this on AVX-512 BF16 CPUs: it keeps the f32 avx512_core kernels
// (only AMX implementations honour it), so the bf16 data types are explicit.
#pragma once
#include <dnnl.hpp>

#include "kernels/dnnl/dnnl_util.h"

namespace ge::dnnl_kernels {

// The data type a convolution or matmul computes in: bf16 when v.bf16 and input `weights` is a constant (its
// bf16 copy is made once; a variable weights operand would cost a conversion per run), else f32.
dnnl::memory::data_type ComputeType(const OpView& v, int weights = 1);
// md with data type t, same dims and layout (format_tag::any stays any).
dnnl::memory::desc AsType(const dnnl::memory::desc& md, dnnl::memory::data_type t);
// Input slot `slot` described by slot_md, as `want`: the bound slot itself when the descs are equal, else a
// kernel-owned buffer of `want` filled by a reorder step appended now (before the caller's primitive).
dnnl::memory InputAs(DnnlKernel* k, int slot, const dnnl::memory::desc& slot_md, const dnnl::memory::desc& want);

}  // namespace ge::dnnl_kernels
