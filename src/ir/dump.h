// Stable text and Graphviz DOT dumps of a Graph. The text form lists nodes in topological order (ties broken by
// creation order) so the same graph always prints the same text: compiler pass tests compare against it.
#pragma once
#include <string>

#include "ir/graph.h"

namespace ge::ir {

//   graph NAME(%in: float32[1,3]) {
//     const %w: float32[3]
//     NODE_NAME: %out: float32[1,3] = OpType(%in, %w, _) {attr=1} ^ctl_dep
//     return %out
//   }
std::string DumpText(const Graph& g);
std::string DumpDot(const Graph& g);

}  // namespace ge::ir
