// Graph passes and the pass manager (DESIGN.md §3, Prepare/Optimize). A pass rewrites an ir::Model in place and
// reports whether it changed anything; the manager runs a list of passes in order (optionally repeating the list
// until nothing changes), recurses into subgraphs for passes that ask for it, validates the graph after each pass
// when PassContext::validate is set, times every pass, and prefixes errors with the pass name.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/isa.h"
#include "base/status.h"
#include "base/trace_recorder.h"
#include "ir/graph.h"
#include "kernels/engine.h"

namespace ge::var {
class VarManager;
}  // namespace ge::var

namespace ge::compiler {

struct PassContext {
  // GE option names ("ge.exec.disableReuseMemory", ...) to values.
  std::map<std::string, std::string> options;
  // Domain ("" = ai.onnx) to opset version. When empty, the manager uses the model's opsets.
  std::map<std::string, int64_t> opsets;
  // The x86-64 level the model is compiled for (CompileOptions::target resolved); kNone: no limit.
  IsaLevel target = IsaLevel::kNone;
  // The engines the model may use, in priority order (kernels/engine.h); empty: ge's own kernels only.
  kernels::EngineList engines;
  // Whether the session has initialized the named variable (VarIsInitializedOp folding); unset: none has.
  std::function<bool(const std::string&)> variable_initialized;
  // The session's variables (variable acceleration reads and records descs and trans roads); null: none.
  var::VarManager* variables = nullptr;
  // `ge compile --trace`: every pass run is recorded as a slice (category "pass"). Not owned; null: none.
  trace::TraceRecorder* trace = nullptr;
#ifdef NDEBUG
  bool validate = false;
#else
  bool validate = true;
#endif

  std::string Option(const std::string& name, const std::string& def = "") const;
  // The version the model imports for `domain`; 1 when it imports none (as the interpreter does).
  int64_t OpsetFor(const std::string& domain) const;
};

class GraphPass {
 public:
  virtual ~GraphPass() = default;
  virtual const char* name() const = 0;
  // Returns whether the model changed.
  virtual StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) = 0;
  // When true, the manager also calls RunOnSubgraph on every subgraph (any depth) after Run.
  virtual bool RecurseIntoSubgraphs() const { return false; }
  virtual StatusOr<bool> RunOnSubgraph(ir::Graph& graph, const PassContext& ctx) { return false; }
};

// A pass that works one graph at a time, the same way on the root graph and on subgraphs.
class GraphLevelPass : public GraphPass {
 public:
  virtual StatusOr<bool> RunOnGraph(ir::Graph& graph, const PassContext& ctx) = 0;
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override;
  bool RecurseIntoSubgraphs() const override { return true; }
  StatusOr<bool> RunOnSubgraph(ir::Graph& graph, const PassContext& ctx) override { return RunOnGraph(graph, ctx); }
};

struct PassStats {
  std::string name;
  int runs = 0;
  int changes = 0;       // runs that reported a change
  int64_t micros = 0;    // total wall time
};

class PassManager {
 public:
  void Add(std::unique_ptr<GraphPass> pass) { passes_.push_back(std::move(pass)); }
  // Runs each pass once, in order.
  Status Run(ir::Model& model, const PassContext& ctx);
  // Repeats the whole list until one round changes nothing; fails when `max_rounds` rounds all changed something.
  Status RunToFixedPoint(ir::Model& model, const PassContext& ctx, int max_rounds = 8);
  // One entry per pass, in list order, accumulated over every Run.
  const std::vector<PassStats>& stats() const { return stats_; }
  std::string StatsText() const;

 private:
  StatusOr<bool> RunRound(ir::Model& model, const PassContext& ctx);
  StatusOr<bool> RunOne(size_t index, ir::Model& model, const PassContext& ctx);

  std::vector<std::unique_ptr<GraphPass>> passes_;
  std::vector<PassStats> stats_;
};

}  // namespace ge::compiler
