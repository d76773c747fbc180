#include "kernels/ref/index/index_kernels.h"

#include "kernels/ref/families.h"

namespace ge::ref {

void RegisterIndexRefKernels(KernelRegistry* r) {
  RegisterGatherRefKernels(r);
  RegisterScatterRefKernels(r);
  RegisterSelectRefKernels(r);
  RegisterUniqueRefKernels(r);
  RegisterOneHotRefKernels(r);
  RegisterNmsRefKernels(r);
}

}  // namespace ge::ref
