// Engine assignment for a single op, by the compiler's rule (compiler/passes/prepare_pipeline.cc, engine
// assignment pass): the first engine of the list that claims the node owns it; else "host" for the host ops
// (Constant, Shape, Size) and "ref" for every other op, which exec::PrepareKernel runs on ge's own fast kernels
// when one fits, else on the reference kernel.
#pragma once
#include <string>

#include "ir/graph.h"
#include "kernels/engine.h"

namespace ge::single_op {

// The node's descs (inputs and inferred outputs) must be set: engines decide from them.
std::string AssignEngine(const ir::Node& node, const kernels::EngineList& engines);

}  // namespace ge::single_op
