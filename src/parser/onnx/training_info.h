// ModelProto.training_info → ir::Model::training_info and ir::Model::training_initializers. Internal to the ONNX
// parser.
#pragma once
#include "base/status.h"
#include "ir/graph.h"
#include "parser/onnx/onnx_parser.h"

namespace ge::onnx_parser {

// Imports every TrainingInfoProto of `proto` into `model`, whose main graph is already imported: the
// initialization and algorithm graphs (reading the main graph's initializers as captures), their bindings, and
// the initial value of every main-graph initializer they name.
Status ImportTrainingInfo(const onnx::ModelProto& proto, const ParseOptions& options, ir::Model* model);

}  // namespace ge::onnx_parser
