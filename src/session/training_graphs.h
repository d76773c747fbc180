// ONNX training info (TrainingInfoProto) lowered into session graphs (issue 11): the initializers the bindings
// update become session variables (initial value: the initializer), the initialization graph becomes a graph
// that assigns them once, and one training step becomes the inference graph followed by the algorithm's nodes
// (ONNX runs the two concatenated, so the algorithm reads inference values by name) with an Assign per
// update_binding. Reads see the values before the step's writes (the variables' ordering rule).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace ge::session {

struct TrainingGraphs {
  std::unique_ptr<ir::Model> initialization;  // null when the model initializes nothing
  std::unique_ptr<ir::Model> step;            // outputs: the algorithm's outputs that no binding consumes
  std::unique_ptr<ir::Model> inference;       // the inference graph reading the variables
  std::vector<std::string> variables;         // sorted
};

// InvalidArgument when the model has no training info; Unimplemented for more than one TrainingInfoProto;
// or its graphs cannot be joined (a name of the algorithm that nothing defines, subgraphs in training nodes).
StatusOr<TrainingGraphs> LowerTraining(const ir::Model& model);

}  // namespace ge::session
