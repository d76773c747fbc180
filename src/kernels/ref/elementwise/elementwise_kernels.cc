#include "kernels/ref/elementwise/elementwise_kernels.h"

#include "kernels/ref/families.h"

namespace ge::ref {

void RegisterElementwiseRefKernels(KernelRegistry* r) {
  elementwise::RegisterUnaryKernels(r);
  elementwise::RegisterActivationKernels(r);
  elementwise::RegisterArithKernels(r);
  elementwise::RegisterLogicKernels(r);
  elementwise::RegisterVariadicKernels(r);
  elementwise::RegisterCastKernels(r);
}

}  // namespace ge::ref
