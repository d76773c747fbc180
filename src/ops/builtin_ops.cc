#include "ops/families.h"

namespace ge::ops {

const OpRegistry& BuiltinOps() {
  static const OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    RegisterElementwiseOps(r);
    RegisterReduceOps(r);
    RegisterNnOps(r);
    RegisterShapeOps(r);
    RegisterIndexOps(r);
    RegisterMathOps(r);
    RegisterControlOps(r);
    RegisterMiscOps(r);
    RegisterFusedOps(r);
    RegisterVariableOps(r);
    return r;
  }();
  return *registry;
}

}  // namespace ge::ops
