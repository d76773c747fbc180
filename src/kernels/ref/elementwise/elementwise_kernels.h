// Per-topic registration functions of the elementwise reference kernels (called by RegisterElementwiseRefKernels).
#pragma once
#include "kernels/ref/kernel_registry.h"

namespace ge::ref::elementwise {

void RegisterUnaryKernels(KernelRegistry* r);       // Abs ... Not
void RegisterActivationKernels(KernelRegistry* r);  // Relu ... Mish, PRelu, Clip
void RegisterArithKernels(KernelRegistry* r);       // Add Sub Mul Div Pow Mod BitShift
void RegisterLogicKernels(KernelRegistry* r);       // And Or Xor, comparisons, Where
void RegisterVariadicKernels(KernelRegistry* r);    // Max Min Sum Mean
void RegisterCastKernels(KernelRegistry* r);        // Cast CastLike

}  // namespace ge::ref::elementwise
