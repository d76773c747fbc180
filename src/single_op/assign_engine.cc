#include "single_op/assign_engine.h"

#include "ops/op_id.h"

namespace ge::single_op {

std::string AssignEngine(const ir::Node& node, const kernels::EngineList& engines) {
  for (const auto& e : engines) {
    if (e->Claims(node)) return e->name();
  }
  const ops::OpId id = ops::OpIdOf(node);
  if (id == ops::OpId::kConstant || id == ops::OpId::kShape || id == ops::OpId::kSize) return "host";
  return "ref";
}

}  // namespace ge::single_op
