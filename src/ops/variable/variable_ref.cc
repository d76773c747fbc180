#include "ops/variable/variable_ref.h"

#include "ops/op_id.h"

namespace ge::ops {

bool IsAssignOp(const ir::Node& n) {
  return IsOp(n, OpId::kGeAssign) || IsOp(n, OpId::kGeAssignAdd) || IsOp(n, OpId::kGeAssignSub);
}

const ir::Node* RefVariable(const ir::Value* v) {
  while (v != nullptr && v->producer() != nullptr) {
    const ir::Node* p = v->producer();
    if (IsOp(*p, OpId::kGeVariable)) return p;
    if (!IsAssignOp(*p) || p->output(0) != v) return nullptr;
    v = p->input(0);
  }
  return nullptr;
}

}  // namespace ge::ops
