#include "kernels/ref/families.h"

namespace ge::ref {

const KernelRegistry& RefKernels() {
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    RegisterElementwiseRefKernels(r);
    RegisterReduceRefKernels(r);
    RegisterNnRefKernels(r);
    RegisterShapeRefKernels(r);
    RegisterIndexRefKernels(r);
    RegisterMathRefKernels(r);
    RegisterControlRefKernels(r);
    RegisterMiscRefKernels(r);
    RegisterFusedRefKernels(r);
    RegisterVariableRefKernels(r);
    return r;
  }();
  return *registry;
}

}  // namespace ge::ref
