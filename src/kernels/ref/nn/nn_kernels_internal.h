// Per-topic registration functions of the nn reference kernels and the dtype helpers they share.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "base/data_type.h"
#include "base/tensor.h"
#include "kernels/ref/kernel_registry.h"

namespace ge::ref::nn {

// The kernels ge::FusedConv and ge::FusedBatchNormalization extend (kernels/ref/fused).
Status RefConv(KernelContext& ctx);
Status RefBatchNorm(KernelContext& ctx);

void RegisterConvKernels(KernelRegistry* r);
void RegisterConvTransposeKernels(KernelRegistry* r);
void RegisterQuantConvKernels(KernelRegistry* r);
void RegisterPoolKernels(KernelRegistry* r);
void RegisterGlobalPoolKernels(KernelRegistry* r);
void RegisterNormKernels(KernelRegistry* r);
void RegisterLayerNormKernels(KernelRegistry* r);
void RegisterSampleKernels(KernelRegistry* r);
void RegisterGridSampleKernels(KernelRegistry* r);

// Elements of a numeric tensor converted to C (float16/bfloat16 widen through float).
template <typename C>
std::vector<C> ConvertTo(const Tensor& t) {
  std::vector<C> out(static_cast<size_t>(t.numel()));
  VisitNumericType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using W = typename ComputeTypeOf<T>::type;
    const T* s = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<C>(static_cast<W>(s[i]));
  }).IgnoreError();
  return out;
}

// The tensor's elements as C: its own buffer when it already holds C, else a converted copy kept in *buf.
template <typename C>
const C* AsCompute(const Tensor& t, std::vector<C>* buf) {
  if (t.dtype() == DataTypeOf<C>::value) return t.data<C>();
  *buf = ConvertTo<C>(t);
  return buf->data();
}

// Where a kernel writes results of compute type C for output tensor `out`: the output itself when it holds C,
// else *buf (sized here); call StoreCompute afterwards.
template <typename C>
C* ComputeOut(Tensor* out, std::vector<C>* buf) {
  if (out->dtype() == DataTypeOf<C>::value) return out->data<C>();
  buf->assign(static_cast<size_t>(out->numel()), C(0));
  return buf->data();
}

template <typename C>
void StoreCompute(const std::vector<C>& buf, Tensor* out) {
  if (out->dtype() == DataTypeOf<C>::value) return;
  VisitNumericType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using W = typename ComputeTypeOf<T>::type;
    T* d = out->data<T>();
    for (size_t i = 0; i < buf.size(); ++i) d[i] = static_cast<T>(static_cast<W>(buf[i]));
  }).IgnoreError();
}

}  // namespace ge::ref::nn
