// A variable's trans road (seed 000, variable acceleration: the TransData / Cast / Reshape steps between the
// desc a graph declares for a variable and the desc it is stored in) as graph nodes and as a conversion of bytes.
// The conversion is GE's TransAllVarData on this CPU: each non-reshape step runs as one prepared kernel.
#pragma once
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "ir/graph.h"
#include "kernels/engine.h"
#include "var/var_resource.h"

namespace ge::compiler {

// Steps a road may hold: ONNX Cast; Reshape, Squeeze, Unsqueeze and Flatten (recorded as "Reshape": the bytes do
// not change); ge::TransData (a layout change).
bool IsVariableTransOp(const ir::Node& node);
// The step `node` (one of IsVariableTransOp's) performs: op type as recorded, its input and output descs.
var::TransStep TransStepOf(const ir::Node& node);
// Whether two descs are the same stored tensor (dtype, format, dims).
bool SameStoredDesc(const TensorDesc& a, const TensorDesc& b);

// Adds the node for `step` (inverse: from step.output to step.input) reading `in`; returns its output value.
StatusOr<ir::Value*> AddTransStepNode(ir::Model& model, const var::TransStep& step, bool inverse, ir::Value* in);

// |value| (its bytes in the road's first input desc; inverse: in its last output desc) converted along the road
// (inverse: back). Tensors of a blocked format hold their storage elements (StorageNumElements) in a 1-D tensor.
StatusOr<Tensor> ApplyTransRoad(const Tensor& value, const std::vector<var::TransStep>& road, bool inverse,
                                const kernels::EngineList& engines);

}  // namespace ge::compiler
