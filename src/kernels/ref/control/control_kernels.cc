#include "kernels/ref/control/control_kernels.h"
#include "kernels/ref/families.h"

namespace ge::ref {

void RegisterControlRefKernels(KernelRegistry* r) {
  control::RegisterSubgraphKernels(r);
  control::RegisterScanKernels(r);
  control::RegisterSequenceKernels(r);
  control::RegisterSplitConcatKernels(r);
  control::RegisterOptionalKernels(r);
}

}  // namespace ge::ref
