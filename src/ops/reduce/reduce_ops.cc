#include "ops/families.h"
#include "ops/infer_util.h"

namespace ge::ops {

void RegisterReduceOps(OpRegistry* r) { (void)r; }

}  // namespace ge::ops
