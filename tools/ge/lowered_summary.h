// `ge inspect` on an IR or lowered .om: runtime v2's lowering run without execution (along the .om's EXECUTE_PLAN
// when it has one, which checks the plan), summarized as the node count of the Init, Main and DeInit graphs by
// kernel kind (the suffix of an execute node's name, e.g. "Compute", "InferShape").
#pragma once
#include <map>
#include <string>

#include "base/status.h"
#include "ir/graph.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/static_island.h"

namespace ge::cli {

struct LoweredGraphSizes {
  size_t nodes = 0;
  std::map<std::string, size_t> by_kind;
};

struct LoweredSummary {
  LoweredGraphSizes init, main, deinit;
  size_t memo_nodes = 0;  // shape-derived Compute kernels (skipped while input shapes repeat)
  size_t static_islands = 0, static_island_nodes = 0;  // compiled into the .om (STATIC_ISLANDS)
};

// |islands|: the .om's STATIC_ISLANDS (loaded), or null.
StatusOr<LoweredSummary> SummarizeLowering(const ir::Model& model, const runtime::v2::ExecutePlan* plan = nullptr,
                                           const runtime::v2::StaticIslands* islands = nullptr);
// {"nodes":N,"by_kind":{"Compute":n,...}}
std::string LoweredGraphJson(const LoweredGraphSizes& g);

}  // namespace ge::cli
