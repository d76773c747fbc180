#include "kernels/ref/families.h"
#include "kernels/ref/reduce/reduce_kernels_internal.h"

namespace ge::ref {

void RegisterReduceRefKernels(KernelRegistry* r) {
  RegisterReductionRefKernels(r);
  RegisterSoftmaxRefKernels(r);
  RegisterTopKRefKernels(r);
  RegisterLossRefKernels(r);
  RegisterEinsumRefKernels(r);
}

}  // namespace ge::ref
