#include "kernels/ref/families.h"
#include "kernels/ref/math/math_kernels_internal.h"

namespace ge::ref {

void RegisterMathRefKernels(KernelRegistry* r) {
  RegisterMatMulRefKernels(r);
  RegisterQLinearRefKernels(r);
  RegisterQuantizeRefKernels(r);
  RegisterRnnRefKernels(r);
  RegisterSignalRefKernels(r);
}

}  // namespace ge::ref
