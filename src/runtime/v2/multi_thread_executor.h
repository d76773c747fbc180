// Multi-thread topological executor (seed 002 §4.4; ge_facts.md §8 "Executors"): nodes run once their producers
// and control predecessors have, on two worker groups chosen by ExecNode::section, as GE's critical sections:
//   launch group: CriticalSection::kLaunch nodes, on |launch_threads| threads, the calling thread included;
//   memory group: kMemory nodes (allocate / free), on |memory_threads| workers of their own, so allocation never
//                 waits behind a long launch; with one memory worker they never overlap each other.
// Ready nodes go into one lock-free queue per group (each node enters once per run, so a queue of the group's node
// count never wraps); a thread that makes a node of its own group ready runs it next without queueing (chains
// stay on one thread). Workers start with the executor and stay until it is destroyed; between runs and when
// their group has no ready node they spin briefly, then sleep on a condition variable.
// A run returns when every node has finished, or when one failed: then no further node starts, the run waits for
// the nodes already running, and returns the first failure's error with its node's name.
// Threading: one Run at a time per executor; kernels of one run execute concurrently (ExecutionState::SetError
// and the Allocator are thread-safe). Destroy the executor only when no Run is in progress.
#pragma once
#include <memory>

#include "base/status.h"
#include "runtime/v2/executor.h"

namespace ge::runtime::v2 {

struct MultiThreadOptions {
  int launch_threads = 2;  // >= 1, the caller included
  int memory_threads = 1;  // >= 0; 0: memory nodes run in the launch group
  // `--trace` (outlives the executor): every node's run is recorded on the track of the thread that ran it,
  // tracer->track + its index (the caller 0, then the launch workers, then the memory workers). Null: the executor
  // is built without the timing code.
  KernelTracer* tracer = nullptr;
};

// An executor for |graph| (which outlives it and keeps its nodes and edges), bound to |exec|. InvalidArgument for a
// malformed graph or bad options; ResourceExhausted when a worker thread cannot be started.
StatusOr<std::unique_ptr<Executor>> CreateMultiThreadExecutor(ExecuteGraph* graph, ExecutionState* exec,
                                                              const MultiThreadOptions& options);

}  // namespace ge::runtime::v2
