#include "kernels/ref/families.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref {

void RegisterNnRefKernels(KernelRegistry* r) {
  nn::RegisterConvKernels(r);
  nn::RegisterConvTransposeKernels(r);
  nn::RegisterQuantConvKernels(r);
  nn::RegisterPoolKernels(r);
  nn::RegisterNormKernels(r);
  nn::RegisterLayerNormKernels(r);
  nn::RegisterSampleKernels(r);
  nn::RegisterGridSampleKernels(r);
}

}  // namespace ge::ref
