#include "ops/families.h"
#include "ops/infer_util.h"

namespace ge::ops {

void RegisterMiscOps(OpRegistry* r) { (void)r; }

}  // namespace ge::ops
