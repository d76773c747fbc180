#include "ops/families.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {

bool IsRealNumeric(DataType dt) {
  return IsFloatingPoint(dt) || IsInteger(dt);
}

void RegisterReduceOps(OpRegistry* r) {
  RegisterReductionOps(r);
  RegisterSoftmaxOps(r);
  RegisterTopKOps(r);
  RegisterLossOps(r);
  RegisterEinsumOps(r);
}

}  // namespace ge::ops
