#include "ops/elementwise/elementwise_ops.h"

#include "ops/families.h"

namespace ge::ops {

void RegisterElementwiseOps(OpRegistry* r) {
  elementwise::RegisterUnaryOps(r);
  elementwise::RegisterActivationOps(r);
  elementwise::RegisterBinaryOps(r);
  elementwise::RegisterCastOps(r);
}

}  // namespace ge::ops
