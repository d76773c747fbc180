// The library's view of a public ge::Graph: the ir::Model it builds (owned by the Graph).
#pragma once
#include <memory>

#include "ge/graph.h"
#include "ir/graph.h"

namespace ge::session {

struct GraphAccess {
  static const ir::Model& Model(const Graph& g);
  // A Graph over `model` (taken).
  static Graph FromModel(std::unique_ptr<ir::Model> model);
  // A deep copy of `model`'s root graph, opsets and training info is not copied (only the graph runs).
  static StatusOr<std::unique_ptr<ir::Model>> CloneModel(const ir::Model& model);
};

}  // namespace ge::session
