// One graph of a session (GE's GraphNode): the graph as added, how far it got (added → built by BuildGraph /
// RunGraph, or compiled by CompileGraph → loaded), the compiled model and its loaded instance.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "base/tensor_desc.h"
#include "ge/session.h"
#include "ir/graph.h"
#include "om/om_reader.h"

namespace ge::session {

struct CompiledGraph {
  std::shared_ptr<const om::OmReader> om;         // shared by forks (weights mapped once)
  std::map<std::string, TensorDesc> variables;    // VarMatchInfo: each variable's desc at compile time
  CompiledGraphSummary summary;
  bool dynamic = false;  // an IR .om (symbolic dims): runs on runtime v2's ModelV2, not a SinkModel
};

struct GraphEntry {
  enum class Mode { kAdded, kBuilt, kCompiled };
  uint32_t id = 0;
  std::shared_ptr<const ir::Model> model;  // as added; compiles work on a copy
  Options options;                         // session options merged with the graph's
  Mode mode = Mode::kAdded;
  std::shared_ptr<const CompiledGraph> compiled;
  // The compiled model is registered with the session's ModelExecutor, which loads it (on BuildGraph / LoadGraph,
  // or lazily), may evict it when idle and reloads it on the next run.
  bool registered = false;
  bool load_requested = false;   // LoadGraph was called (RunGraphWithStreamAsync's precondition)
  void* const_memory = nullptr;  // SetGraphConstMemoryBase
  size_t const_memory_size = 0;
  void* fixed_feature_map = nullptr;           // SetGraphFixedFeatureMemoryBase
  size_t fixed_feature_map_size = 0;
  void* refreshed_feature_map = nullptr;  // UpdateGraphFeatureMemoryBase (ge.featureBaseRefreshable=1)
  size_t refreshed_feature_map_size = 0;
};

}  // namespace ge::session
