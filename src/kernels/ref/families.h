// Registration entry points of each reference-kernel family (one folder each under src/kernels/ref/).
#pragma once
#include "kernels/ref/kernel_registry.h"

namespace ge::ref {

void RegisterElementwiseRefKernels(KernelRegistry* r);
void RegisterReduceRefKernels(KernelRegistry* r);
void RegisterNnRefKernels(KernelRegistry* r);
void RegisterShapeRefKernels(KernelRegistry* r);
void RegisterIndexRefKernels(KernelRegistry* r);
void RegisterMathRefKernels(KernelRegistry* r);
void RegisterControlRefKernels(KernelRegistry* r);
void RegisterMiscRefKernels(KernelRegistry* r);
void RegisterFusedRefKernels(KernelRegistry* r);
// ge::Variable, Assign*, VarIsInitializedOp, FileConstant
void RegisterVariableRefKernels(KernelRegistry* r);  // ge::FusedConv, FusedGemm, FusedMatMul, LayerNormalization, Attention

}  // namespace ge::ref
