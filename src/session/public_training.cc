// include/ge/training.h over session::LowerTraining.
#include "ge/training.h"
#include "session/graph_access.h"
#include "session/training_graphs.h"

namespace ge {

StatusOr<TrainingGraphs> LowerTraining(const Graph& model) {
  GE_RETURN_IF_ERROR(model.status());
  GE_ASSIGN_OR_RETURN(session::TrainingGraphs lowered, session::LowerTraining(session::GraphAccess::Model(model)));
  TrainingGraphs out;
  for (const ir::Value* v : lowered.step->graph->inputs()) out.step_inputs.push_back(v->name());
  for (const ir::Value* v : lowered.step->graph->outputs()) out.step_outputs.push_back(v->name());
  out.variables = lowered.variables;
  if (lowered.initialization != nullptr) {
    out.initialization = session::GraphAccess::FromModel(std::move(lowered.initialization));
    out.has_initialization = true;
  }
  out.step = session::GraphAccess::FromModel(std::move(lowered.step));
  if (lowered.inference != nullptr) out.inference = session::GraphAccess::FromModel(std::move(lowered.inference));
  return out;
}

}  // namespace ge
