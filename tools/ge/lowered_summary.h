// `ge inspect` on an IR .om: runtime v2's lowering run without execution, summarized as the node count of the
// Init, Main and DeInit graphs by kernel kind (the suffix of an execute node's name, e.g. "Compute", "InferShape").
#pragma once
#include <map>
#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::cli {

struct LoweredGraphSizes {
  size_t nodes = 0;
  std::map<std::string, size_t> by_kind;
};

struct LoweredSummary {
  LoweredGraphSizes init, main, deinit;
};

StatusOr<LoweredSummary> SummarizeLowering(const ir::Model& model);
// {"nodes":N,"by_kind":{"Compute":n,...}}
std::string LoweredGraphJson(const LoweredGraphSizes& g);

}  // namespace ge::cli
