// Per-topic registration functions of the index reference kernels.
#pragma once
#include "kernels/ref/kernel_registry.h"

namespace ge::ref {

void RegisterGatherRefKernels(KernelRegistry* r);   // Gather, GatherElements, GatherND
void RegisterScatterRefKernels(KernelRegistry* r);  // Scatter, ScatterElements, ScatterND
void RegisterSelectRefKernels(KernelRegistry* r);   // NonZero, Compress
void RegisterUniqueRefKernels(KernelRegistry* r);   // Unique
void RegisterOneHotRefKernels(KernelRegistry* r);   // OneHot, ReverseSequence
void RegisterNmsRefKernels(KernelRegistry* r);      // NonMaxSuppression

}  // namespace ge::ref
