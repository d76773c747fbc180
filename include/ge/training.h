// Training an ONNX model that carries its training (an ONNX TrainingInfoProto: an initialization graph and a
// training step whose algorithm writes the variables): the graphs a Session runs to train it, as `ge train` and
// Python's ge.train do. Self-contained header.
//
//   auto model = ge::Graph::FromOnnxFile("mlp_train.onnx");
//   auto graphs = ge::LowerTraining(*model);             // StatusOr<TrainingGraphs>
//   ge::Session s({{"ge.graphRunMode", "1"}});
//   if (graphs->has_initialization) { s.AddGraph(1, graphs->initialization); s.RunGraph(1, {}, out); }
//   s.AddGraph(2, graphs->step);
//   for (...) s.RunGraph(2, {x, y}, out);                 // inputs in step_inputs order; out: the loss, ...
#pragma once
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

struct TrainingGraphs {
  // Runs once, before the first step (fills the variables); empty when the model initializes nothing.
  Graph initialization{"initialization"};
  bool has_initialization = false;
  // One training step: reads step_inputs, updates the variables, outputs step_outputs (the loss, ...).
  Graph step{"step"};
  std::vector<std::string> step_inputs, step_outputs;
  // The inference graph over the trained variables, and the variables' names (sorted).
  Graph inference{"inference"};
  std::vector<std::string> variables;
};

// InvalidArgument when the model carries no training info; Unimplemented for more than one TrainingInfoProto; an
// error naming what cannot be joined otherwise. `model` is left as it was.
GE_API StatusOr<TrainingGraphs> LowerTraining(const Graph& model);

}  // namespace ge
