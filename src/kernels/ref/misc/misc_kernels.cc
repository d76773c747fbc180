#include "kernels/ref/families.h"
#include "kernels/ref/misc/misc_kernels.h"

namespace ge::ref {

void RegisterMiscRefKernels(KernelRegistry* r) {
  misc::RegisterRandomKernels(r);
  misc::RegisterTrainingKernels(r);
  misc::RegisterTextKernels(r);
}

}  // namespace ge::ref
