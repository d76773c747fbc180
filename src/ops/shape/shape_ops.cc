#include "ops/families.h"
#include "ops/shape/shape_ops_internal.h"

namespace ge::ops {

void RegisterShapeOps(OpRegistry* r) {
  shape_family::RegisterReshapeOps(r);
  shape_family::RegisterLayoutOps(r);
  shape_family::RegisterSliceOps(r);
  shape_family::RegisterPadOps(r);
  shape_family::RegisterGeneratorOps(r);
  shape_family::RegisterResizeOps(r);
}

}  // namespace ge::ops
