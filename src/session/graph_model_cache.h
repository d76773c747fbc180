// The model cache for session graphs (session.cc's compile hook; model_cache.h has the directory's rules).
//
// The key hashes what a session compile's result depends on: the graph as added (its IR serialized by ir.proto,
// constants by their bytes), the compile options of the graph (session options merged with the graph's), the model
// name, the intra-op threads it is compiled for, the environment (CacheKeyBuilder::AddEnvironment) and, when the
// graph has variables, the session's variable state before the compile (seed 000, model cache: every variable's
// name, dtype, shape and format, its logical address, trans road and initialized state, and the variable memory
// in use). A changed option, variable desc or ge version therefore gives another key and a compile.
//
// A hit stands in for the compile's effects on the session too: the cached model's VAR_INFO places its variables
// in the session's VarManager, init values and written variables are recorded, and a variable whose stored desc
// the cached compile changed (variable acceleration) has its memory converted.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "ir/graph.h"
#include "rt/device.h"
#include "session/graph_entry.h"
#include "session/model_cache.h"
#include "var/var_manager.h"

namespace ge::session {

class GraphModelCache {
 public:
  // Computes the key now (before the compile changes the session's variables). Disabled (Find finds nothing,
  // Store stores nothing) when the options name no cache directory or the key cannot be computed.
  GraphModelCache(const GraphEntry& entry, const std::string& model_name, int threads, const var::VarManager& variables,
                  CacheWarningSink warn = WarnOnStderr);

  bool enabled() const { return cache_.has_value() && !key_.empty(); }
  const std::string& key() const { return key_; }
  // The cached compile result, its effects applied to |variables|; null on a miss (or a file that fails, warned).
  std::shared_ptr<const CompiledGraph> Find(const GraphEntry& entry, var::VarManager* variables,
                                            rt::Device* device) const;
  // Stores the compiled model's .om (warns when it cannot).
  void Store(const CompiledGraph& compiled) const;

 private:
  std::optional<ModelCache> cache_;
  std::string key_;
};

}  // namespace ge::session
