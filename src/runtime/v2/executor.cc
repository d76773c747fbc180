#include "runtime/v2/executor.h"

#include <chrono>
#include <vector>

#include "runtime/v2/exec_plan.h"
#include "runtime/v2/multi_thread_executor.h"
#include "runtime/v2/topological_executor.h"

namespace ge::runtime::v2 {
namespace {

constexpr size_t kStopCheckNodes = 64;  // a power of two
constexpr size_t kPrefetchNodes = 4;

class SequentialExecutor final : public Executor {
 public:
  SequentialExecutor(ExecuteGraph* graph, ExecutionState* exec) : graph_(graph), exec_(exec) {
    graph_->Bind(exec_);
    nodes_.reserve(graph_->num_nodes());
    for (size_t i = 0; i < graph_->num_nodes(); ++i) {
      ExecNode& n = graph_->node(static_cast<uint32_t>(i));
      // Contexts never change once lowering is done (before executors are made): the executor runs copies kept
      // in execution order, which the hardware prefetcher streams (the graph's are scattered on the heap).
      const char* data = static_cast<const char*>(n.ctx.node_data);
      nodes_.push_back({n.fn, n.ctx, data != nullptr ? data : reinterpret_cast<const char*>(&n.ctx)});
    }
  }

  // The whole loop (seed 002 §4.4): a flat, pre-sorted array of {fn, context}, stopping at the first failure.
  Status Run() override {
    Flat* n = nodes_.data();
    const size_t count = nodes_.size();
    const std::atomic<bool>* stop = exec_->stop;
    size_t failed = count;
    for (size_t i = 0; i < count; ++i) {
      // The stop flag is read once per kStopCheckNodes nodes (an abort waits at most that many kernels).
      if ((i & (kStopCheckNodes - 1)) == 0 && stop != nullptr && stop->load(std::memory_order_relaxed)) {
        return Aborted("execution stopped before node '" + graph_->node(static_cast<uint32_t>(i)).name + "'");
      }
      // Node data are scattered on the heap: fetch them a few nodes ahead.
      if (i + kPrefetchNodes < count) {
        __builtin_prefetch(n[i + kPrefetchNodes].data);
        __builtin_prefetch(n[i + kPrefetchNodes].data + 64);
      }
      if (n[i].fn(&n[i].ctx) != kStatusSuccess) {
        failed = i;
        break;
      }
    }
    if (failed == count) return Status::Ok();
    return FailedNodeStatus(*graph_, exec_, static_cast<uint32_t>(failed));
  }

 private:
  ExecuteGraph* graph_;
  ExecutionState* exec_;
  struct Flat {
    KernelFn fn;
    KernelContext ctx;  // a copy of the graph node's
    const char* data;   // ctx.node_data (or the graph node's ctx when none), to prefetch
  };
  std::vector<Flat> nodes_;
};

class ProfilingExecutor final : public Executor {
 public:
  ProfilingExecutor(ExecuteGraph* graph, ExecutionState* exec, NodeTimes* times, KernelTracer* tracer)
      : graph_(graph), exec_(exec), times_(times), tracer_(tracer) {
    graph_->Bind(exec_);
    times_->nanoseconds.assign(graph_->num_nodes(), 0);
    times_->runs.assign(graph_->num_nodes(), 0);
  }

  Status Run() override {
    using Clock = std::chrono::steady_clock;
    const std::atomic<bool>* stop = exec_->stop;
    for (uint32_t i = 0; i < graph_->num_nodes(); ++i) {
      if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
        return Aborted("execution stopped before node '" + graph_->node(i).name + "'");
      }
      ExecNode& n = graph_->node(i);
      const Clock::time_point t0 = Clock::now();
      const KernelStatus st = n.fn(&n.ctx);
      const Clock::time_point t1 = Clock::now();
      const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
      times_->nanoseconds[i] += static_cast<uint64_t>(ns);
      ++times_->runs[i];
      if (tracer_ != nullptr) {
        tracer_->recorder->AddKernelSlice(tracer_->track, tracer_->labels->For(i), tracer_->recorder->Since(t0), ns);
      }
      if (st != kStatusSuccess) return FailedNodeStatus(*graph_, exec_, i);
    }
    return Status::Ok();
  }

 private:
  ExecuteGraph* graph_;
  ExecutionState* exec_;
  NodeTimes* times_;
  KernelTracer* tracer_;  // null: not traced
};

}  // namespace

std::unique_ptr<Executor> CreateProfilingExecutor(ExecuteGraph* graph, ExecutionState* exec, NodeTimes* times,
                                                  KernelTracer* tracer) {
  return std::make_unique<ProfilingExecutor>(graph, exec, times, tracer);
}

StatusOr<ExecutorKind> ParseExecutorKind(const std::string& name) {
  if (name == "sequential") return ExecutorKind::kSequential;
  if (name == "topological") return ExecutorKind::kTopological;
  if (name == "priority") return ExecutorKind::kPriority;
  if (name == "multi_thread") return ExecutorKind::kMultiThread;
  return InvalidArgument("option ge.exec.v2Executor must be sequential, topological, priority or multi_thread, got '" +
                         name + "'");
}

StatusOr<std::unique_ptr<Executor>> CreateExecutor(ExecutorKind kind, ExecuteGraph* graph, ExecutionState* exec,
                                                   int threads) {
  switch (kind) {
    case ExecutorKind::kSequential:
      return std::unique_ptr<Executor>(std::make_unique<SequentialExecutor>(graph, exec));
    case ExecutorKind::kTopological:
      return CreateTopologicalExecutor(graph, exec);
    case ExecutorKind::kPriority:
      return CreatePriorityExecutor(graph, exec);
    case ExecutorKind::kMultiThread: {
      MultiThreadOptions options;
      options.launch_threads = threads;
      options.memory_threads = 1;
      return CreateMultiThreadExecutor(graph, exec, options);
    }
  }
  return InvalidArgument("unknown executor kind " + std::to_string(static_cast<int>(kind)));
}

}  // namespace ge::runtime::v2
