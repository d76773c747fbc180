// Per-topic registration of the misc reference kernels.
#pragma once
#include "kernels/ref/kernel_registry.h"

namespace ge::ref::misc {

void RegisterRandomKernels(KernelRegistry* r);
void RegisterTrainingKernels(KernelRegistry* r);
void RegisterTextKernels(KernelRegistry* r);

}  // namespace ge::ref::misc
