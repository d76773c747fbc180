// Single-thread topological executors (seed 002 §4.4; ge_facts.md §8 "Executors"): run a node once all its
// producers and control predecessors have, on the calling thread, and stop at the first failing node.
//   topological: ready nodes in FIFO order (a queue of num_nodes slots: every node enters it once per run);
//   priority:    ready nodes by ExecNode::priority, higher first, ties by lower node index (a hierarchical bitset
//                over the nodes ranked in that order: the next is the lowest set bit).
// A run allocates nothing: the working in-degrees are copied from the plan's backup and the queue is reused.
// Threading: one Run at a time per executor (the graph instance holds one execution's values).
#pragma once
#include <memory>

#include "base/status.h"
#include "runtime/v2/executor.h"

namespace ge::runtime::v2 {

// Executors for |graph| (which outlives them and keeps its nodes and edges), bound to |exec|. InvalidArgument for
// a malformed graph (see BuildExecPlan).
StatusOr<std::unique_ptr<Executor>> CreateTopologicalExecutor(ExecuteGraph* graph, ExecutionState* exec);
StatusOr<std::unique_ptr<Executor>> CreatePriorityExecutor(ExecuteGraph* graph, ExecutionState* exec);

}  // namespace ge::runtime::v2
