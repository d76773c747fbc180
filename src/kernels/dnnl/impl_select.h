// Choosing among oneDNN's implementations of a primitive descriptor ("ask the engine, never guess"): oneDNN lists
// the implementations that accept a descriptor from best to worst; a kernel walks that list to the first one its
// model's target ISA allows (x86-64-v3: no AVX-512 kernel, even on an AVX-512 CPU), and its planners compare
// candidate layouts by whether that implementation is a reference one. The implementation names are oneDNN's
// impl_info_str: "brgconv:avx512_core", "jit_1x1:avx2", "gemm:jit", "ref:any".
#pragma once
#include <dnnl.hpp>

#include <string>

#include "base/isa.h"

namespace ge::dnnl_kernels {

// The level an implementation's code needs: "avx512_core..." v4, "avx2" v3, "sse41" v2; kNone for ISA-neutral
// names ("jit:uni", "gemm:jit" and "simple:any" pick their instructions at run time, "ref:any" is plain C++).
IsaLevel ImplIsaLevel(const std::string& impl);
// A reference (non-optimized) implementation: oneDNN's "ref" family and the plain-loop "simple_nchw" pooling.
bool IsReferenceImpl(const std::string& impl);

// Moves pd to its first implementation that needs at most max_isa (kNone: any). Throws dnnl::error
// (dnnl_unimplemented) when none does, which the engine reports as "not supported here".
template <class PD>
PD SelectImpl(PD pd, IsaLevel max_isa) {
  if (max_isa == IsaLevel::kNone) return pd;
  while (static_cast<int>(ImplIsaLevel(pd.impl_info_str())) > static_cast<int>(max_isa)) {
    if (!pd.next_impl()) throw dnnl::error(dnnl_unimplemented, "no implementation within the target ISA");
  }
  return pd;
}

// pd moved from an implementation whose name starts with `family` (e.g. "brgconv:") to the next one within max_isa
// that is neither of that family nor a reference implementation; pd itself when there is none. The returned
// descriptor shares pd's iterator: advance only one of them afterwards.
template <class PD>
PD NextImplOutsideFamily(const PD& pd, const std::string& family, IsaLevel max_isa) {
  if (std::string(pd.impl_info_str()).rfind(family, 0) != 0) return pd;
  PD next = pd;
  while (next.next_impl()) {
    const std::string impl = next.impl_info_str();
    if (IsReferenceImpl(impl)) break;
    const bool within = max_isa == IsaLevel::kNone || static_cast<int>(ImplIsaLevel(impl)) <= static_cast<int>(max_isa);
    if (within && impl.rfind(family, 0) != 0) return next;
  }
  return pd;
}

}  // namespace ge::dnnl_kernels
