#include "kernels/ref/families.h"
#include "kernels/ref/shape/shape_kernels_internal.h"

namespace ge::ref {

void RegisterShapeRefKernels(KernelRegistry* r) {
  shape_family::RegisterReshapeKernels(r);
  shape_family::RegisterLayoutKernels(r);
  shape_family::RegisterSliceKernels(r);
  shape_family::RegisterGeneratorKernels(r);
  shape_family::RegisterResizeKernels(r);
}

}  // namespace ge::ref
