// A set of nodes of a graph as a model of its own (static islands, pipeline stages): its inputs are the values the
// nodes read from outside the set (constants are copied in instead), its outputs the values they produce that are
// read outside the set or returned by the graph. The nodes are copied in the order given, which must be
// topological; nodes owning subgraphs are not supported (their captures would not follow).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace ge::runtime::v2 {

struct ExtractedSubgraph {
  std::unique_ptr<ir::Model> model;
  std::vector<ir::Value*> inputs, outputs;  // of the enclosing graph, in the order of the model's inputs / outputs
};

ExtractedSubgraph ExtractSubgraph(const ir::Model& model, const ir::Graph& g, const std::vector<ir::Node*>& members,
                                  const std::string& name);

}  // namespace ge::runtime::v2
