// Which session variable a value is (seed 000 "ref" outputs): a Variable's output, or the output of an
// Assign/AssignAdd/AssignSub whose ref input is one. Such values live in variable memory, never in the feature map.
#pragma once
#include "ir/graph.h"

namespace ge::ops {

bool IsAssignOp(const ir::Node& n);  // Assign, AssignAdd, AssignSub
// The Variable node behind `v`, or nullptr when `v` is an ordinary value.
const ir::Node* RefVariable(const ir::Value* v);

}  // namespace ge::ops
