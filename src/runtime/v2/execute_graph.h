// ExecuteGraph: a lowered graph of runtime kernels (seed 002 §4.2). Nodes are stored in a valid topological order
// (the sequential executor runs them as stored); each also knows its consumers and in-degree (topological
// executors), a priority and a critical-section tag (multi-thread executor). The graph owns every node's
// KernelContext, output chains and node data; graph inputs are chains the caller fills before a run, graph outputs
// are the producers' chains.
// Threading: one execution at a time per graph instance (a StreamExecutor gives each stream its own instance).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "runtime/v2/kernel_context.h"

namespace ge::runtime::v2 {

// Which worker group of the multi-thread executor runs a node.
enum class CriticalSection : uint8_t { kLaunch = 0, kMemory = 1 };

struct ExecNode {
  KernelFn fn = nullptr;
  KernelContext ctx;
  std::string name;  // for errors and profiling: "<compute node>/<kernel kind>"
  int priority = 0;  // higher runs first among ready nodes (priority executor)
  CriticalSection section = CriticalSection::kLaunch;
  std::vector<uint32_t> consumers;  // indices of nodes reading an output of this one (or ordered after it)
  uint32_t in_degree = 0;           // producers and control predecessors
};

// The kernel kind of an execute node: the suffix of its name "<compute node>/<kind>" (e.g. "Compute").
std::string KernelKindOf(const std::string& exec_node_name);

// A reference to a chain the graph owns: node output (node, index) or graph input (kGraphInput, index).
struct ChainRef {
  static constexpr uint32_t kGraphInput = 0xFFFFFFFFu;
  uint32_t node = kGraphInput;
  uint32_t index = 0;
};

class ExecuteGraph {
 public:
  ExecuteGraph() = default;
  ExecuteGraph(const ExecuteGraph&) = delete;
  ExecuteGraph& operator=(const ExecuteGraph&) = delete;

  // Building (lowering). Nodes must be added after their producers. |data| is kept alive by the graph.
  uint32_t AddGraphInput();
  uint32_t AddNode(KernelFn fn, std::string name, const std::vector<ChainRef>& inputs, uint32_t num_outputs,
                   std::shared_ptr<const void> data = nullptr);
  // An ordering edge without data (e.g. FreeMemory after every reader of the value).
  void AddControlEdge(uint32_t from, uint32_t to);
  void AddGraphOutput(ChainRef ref);
  ExecNode& node(uint32_t i) { return *nodes_[i]; }
  const ExecNode& node(uint32_t i) const { return *nodes_[i]; }
  size_t num_nodes() const { return nodes_.size(); }
  // Points every node at |exec| (once per instance, before the first run).
  void Bind(ExecutionState* exec);

  Chain& graph_input(uint32_t i) { return *inputs_[i]; }
  size_t num_graph_inputs() const { return inputs_.size(); }
  Chain& graph_output(uint32_t i);
  size_t num_graph_outputs() const { return outputs_.size(); }

 private:
  Chain* Resolve(ChainRef ref);
  std::vector<std::unique_ptr<ExecNode>> nodes_;
  std::vector<std::unique_ptr<Chain[]>> node_outputs_;  // per node
  std::vector<std::unique_ptr<Chain*[]>> node_inputs_;  // per node
  std::vector<std::unique_ptr<Chain>> inputs_;
  std::vector<ChainRef> outputs_;
  std::vector<std::shared_ptr<const void>> data_;
};

// Init, Main and DeInit (seed 002 §4.3): Init runs once at load and is then dropped, Main per execution, DeInit
// at unload.
struct ExecuteModel {
  std::unique_ptr<ExecuteGraph> init, main, deinit;
};

}  // namespace ge::runtime::v2
