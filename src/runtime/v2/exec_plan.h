// What the topological executors precompute from an ExecuteGraph once, so that a run touches only flat arrays
// (seed 002 §4.4): the nodes as {fn, ctx}, consumers in compressed rows, the in-degree backup each run copies from,
// the nodes ready at the start, and each node's priority and critical section.
#pragma once
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "runtime/v2/execute_graph.h"

namespace ge::runtime::v2 {

struct FlatNode {
  KernelFn fn;
  KernelContext* ctx;  // owned by the graph
};

struct ExecPlan {
  std::vector<FlatNode> nodes;
  std::vector<uint32_t> edge_begin;  // num_nodes + 1: consumers of node i are edges[edge_begin[i] .. edge_begin[i+1])
  std::vector<uint32_t> edges;
  std::vector<uint32_t> in_degree;  // the backup: copied into the working counts at the start of every run
  std::vector<uint32_t> roots;      // nodes with in-degree 0, in index order
  std::vector<int> priority;
  std::vector<CriticalSection> section;

  size_t num_nodes() const { return nodes.size(); }
};

// Checks the graph's edges (consumer indices in range, ExecNode::in_degree equal to the edges into the node, no
// cycle through control edges) and flattens it. InvalidArgument naming a node otherwise.
StatusOr<ExecPlan> BuildExecPlan(ExecuteGraph& graph);

// The Status of a run stopped by node |failed|: the error its kernel recorded in |exec| (taken, so the next run
// starts clean), with the node's name as context.
Status FailedNodeStatus(const ExecuteGraph& graph, ExecutionState* exec, uint32_t failed);

}  // namespace ge::runtime::v2
