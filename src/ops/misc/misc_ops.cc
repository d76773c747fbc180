#include "ops/families.h"
#include "ops/misc/misc_ops.h"

namespace ge::ops {

void RegisterMiscOps(OpRegistry* r) {
  misc::RegisterRandomOps(r);
  misc::RegisterTrainingOps(r);
  misc::RegisterTextOps(r);
}

}  // namespace ge::ops
