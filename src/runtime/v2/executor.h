// Executors of an ExecuteGraph (seed 002 §4.4; ge_facts.md §8 "Executors"). Each runs the graph's nodes once per
// Run and stops at the first non-zero status, returning the error the kernel recorded (ExecutionState).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/trace_recorder.h"
#include "runtime/v2/execute_graph.h"
#include "runtime/v2/kernel_trace_labels.h"

namespace ge::runtime::v2 {

enum class ExecutorKind { kSequential, kTopological, kPriority, kMultiThread };

// "sequential" | "topological" | "priority" | "multi_thread" (option ge.exec.v2Executor); InvalidArgument else.
StatusOr<ExecutorKind> ParseExecutorKind(const std::string& name);

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs every node of the graph once. The graph's inputs are set by the caller.
  virtual Status Run() = 0;
};

// An executor for |graph| (which outlives it, bound to |exec|). threads: of the multi-thread executor, the threads
// running launch kernels, the caller included; memory kernels get one worker of their own (multi_thread_executor.h).
StatusOr<std::unique_ptr<Executor>> CreateExecutor(ExecutorKind kind, ExecuteGraph* graph, ExecutionState* exec,
                                                   int threads = 2);

// Per node of an ExecuteGraph (by index): wall time spent in its kernel and the runs counted, since creation.
struct NodeTimes {
  std::vector<uint64_t> nanoseconds, runs;
};

// The sequential executor timing every kernel into |times| (resized to the graph's nodes; outlives the executor):
// `ge run --profile` on runtime v2. Two clock reads per node (~40 ns), so it is a separate executor: the plain one
// stays a bare loop.
// With |tracer| (`--trace`; outlives the executor) every node's run is also recorded as a slice on tracer->track.
struct KernelTracer {
  trace::TraceRecorder* recorder = nullptr;
  int track = trace::WorkerTrack(0);
  KernelTraceLabels* labels = nullptr;
};
std::unique_ptr<Executor> CreateProfilingExecutor(ExecuteGraph* graph, ExecutionState* exec, NodeTimes* times,
                                                  KernelTracer* tracer = nullptr);

}  // namespace ge::runtime::v2
