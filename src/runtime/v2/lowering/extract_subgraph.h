// A set of nodes of a graph as a model of its own (static islands, pipeline stages): its inputs are the values the
// nodes read from outside the set — by an input edge or as a capture of a subgraph they own — (constants are copied
// in instead), its outputs the values they produce that are read outside the set (captures included) or returned
// by the graph. The nodes are copied in the order given, which must be topological, with their subgraphs (deep
// copies) and the control edges between members; control edges from non-members are dropped (the caller orders
// the pieces, e.g. a pipeline runs stage s of a request after stage s-1).
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

// The values of |g| that the subgraphs |n| owns (at any depth) read by name (captures), in first-use order.
std::vector<ir::Value*> CapturedValues(const ir::Node& n, const ir::Graph& g);

}  // namespace ge::runtime::v2
