#include "runtime/v2/exec_plan.h"

#include <string>

namespace ge::runtime::v2 {

StatusOr<ExecPlan> BuildExecPlan(ExecuteGraph& graph) {
  const size_t n = graph.num_nodes();
  if (n >= ChainRef::kGraphInput) return InvalidArgument("execute graph has too many nodes: " + std::to_string(n));
  ExecPlan plan;
  plan.nodes.reserve(n);
  plan.edge_begin.reserve(n + 1);
  plan.in_degree.assign(n, 0);
  plan.priority.reserve(n);
  plan.section.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    ExecNode& node = graph.node(i);
    if (node.fn == nullptr) return InvalidArgument("execute graph node '" + node.name + "' has no kernel");
    plan.nodes.push_back({node.fn, &node.ctx});
    plan.priority.push_back(node.priority);
    plan.section.push_back(node.section);
    plan.edge_begin.push_back(static_cast<uint32_t>(plan.edges.size()));
    for (uint32_t c : node.consumers) {
      if (c >= n || c == i) {
        return InvalidArgument("execute graph node '" + node.name + "' has a bad consumer index " + std::to_string(c));
      }
      plan.edges.push_back(c);
      ++plan.in_degree[c];
    }
  }
  plan.edge_begin.push_back(static_cast<uint32_t>(plan.edges.size()));
  for (uint32_t i = 0; i < n; ++i) {
    if (plan.in_degree[i] != graph.node(i).in_degree) {
      return InvalidArgument("execute graph node '" + graph.node(i).name + "' has in-degree " +
                             std::to_string(graph.node(i).in_degree) + " but " + std::to_string(plan.in_degree[i]) +
                             " producers list it as a consumer");
    }
    if (plan.in_degree[i] == 0) plan.roots.push_back(i);
  }
  // Kahn's algorithm once, so that a run can trust every node to become ready.
  std::vector<uint32_t> degree = plan.in_degree;
  std::vector<uint32_t> queue = plan.roots;
  queue.reserve(n);
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t i = queue[head];
    for (uint32_t e = plan.edge_begin[i]; e < plan.edge_begin[i + 1]; ++e) {
      if (--degree[plan.edges[e]] == 0) queue.push_back(plan.edges[e]);
    }
  }
  if (queue.size() != n) {
    for (uint32_t i = 0; i < n; ++i) {
      if (degree[i] != 0) {
        return InvalidArgument("execute graph has a cycle: node '" + graph.node(i).name + "' never becomes ready");
      }
    }
  }
  return plan;
}

Status FailedNodeStatus(const ExecuteGraph& graph, ExecutionState* exec, uint32_t failed) {
  Status s = exec->TakeError();
  if (s.ok()) s = Internal("runtime kernel failed without an error");
  return s.WithContext("node " + graph.node(failed).name);
}

}  // namespace ge::runtime::v2
