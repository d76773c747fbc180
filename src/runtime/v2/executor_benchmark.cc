// Per-node overhead of the runtime v2 executors (issue 12: the whole v2 path at <= 50 ns per node through the
// sequential executor; the executor should be a small part of it). Counter ns_per_node: wall-clock time of one
// Run divided by the graph's node count. Graphs of 10,000 trivial kernels (each adds 1 to an 8-byte chain):
//   chain: n0 -> n1 -> ... -> n9999 (no parallelism: the worst case for the multi-thread executor's hand-offs);
//   wide:  root -> 9,998 independent nodes -> one join reading them all.
// multi_thread_1: one launch thread (the caller) and no memory worker (the bookkeeping alone);
// multi_thread_2: the default (the caller + one launch worker + one memory worker; every node here is a launch).
// A measurement, never a test: bin/ge_runtime_v2_executor_benchmark or `make bench-kernels`.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <vector>

#include "runtime/v2/multi_thread_executor.h"

namespace ge::runtime::v2 {
namespace {

constexpr uint32_t kNodes = 10000;

KernelStatus AddOne(KernelContext* c) {
  c->output(0).SetValue<int64_t>(c->input(0).GetValue<int64_t>() + 1);
  return kStatusSuccess;
}

KernelStatus Join(KernelContext* c) {
  c->output(0).SetValue<int64_t>(c->num_inputs);
  return kStatusSuccess;
}

enum class Shape { kChain, kWide };

std::unique_ptr<ExecuteGraph> MakeGraph(Shape shape) {
  auto g = std::make_unique<ExecuteGraph>();
  const uint32_t in = g->AddGraphInput();
  uint32_t last = g->AddNode(AddOne, "n0", {{ChainRef::kGraphInput, in}}, 1);
  if (shape == Shape::kChain) {
    for (uint32_t i = 1; i < kNodes; ++i) last = g->AddNode(AddOne, "n", {{last, 0}}, 1);
  } else {
    const uint32_t root = last;
    std::vector<ChainRef> leaves;
    for (uint32_t i = 2; i < kNodes; ++i) leaves.push_back({g->AddNode(AddOne, "n", {{root, 0}}, 1), 0});
    last = g->AddNode(Join, "join", leaves, 1);
  }
  g->AddGraphOutput({last, 0});
  g->graph_input(in).SetValue<int64_t>(0);
  return g;
}

struct Config {
  ExecutorKind kind;
  int launch_threads;  // multi-thread only
  int memory_threads;
};

void BM_Executor(benchmark::State& state, Shape shape, Config config) {
  std::unique_ptr<ExecuteGraph> graph = MakeGraph(shape);
  ExecutionState exec;
  StatusOr<std::unique_ptr<Executor>> ex = Unimplemented("");
  if (config.kind == ExecutorKind::kMultiThread) {
    ex = CreateMultiThreadExecutor(graph.get(), &exec, {config.launch_threads, config.memory_threads});
  } else {
    ex = CreateExecutor(config.kind, graph.get(), &exec);
  }
  if (!ex.ok()) return state.SkipWithError(ex.status().ToString().c_str());
  Executor& executor = **ex;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!executor.Run().ok()) return state.SkipWithError("run failed");
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  state.counters["ns_per_node"] = ns / (static_cast<double>(state.iterations()) * graph->num_nodes());
  benchmark::DoNotOptimize(graph->graph_output(0).GetValue<int64_t>());
}

#define GE_EXECUTOR_BENCHMARKS(shape_name, shape)                                                              \
  BENCHMARK_CAPTURE(BM_Executor, shape_name##_sequential, shape, Config{ExecutorKind::kSequential, 0, 0})      \
      ->UseRealTime()                                                                                          \
      ->Unit(benchmark::kMicrosecond);                                                                         \
  BENCHMARK_CAPTURE(BM_Executor, shape_name##_topological, shape, Config{ExecutorKind::kTopological, 0, 0})    \
      ->UseRealTime()                                                                                          \
      ->Unit(benchmark::kMicrosecond);                                                                         \
  BENCHMARK_CAPTURE(BM_Executor, shape_name##_priority, shape, Config{ExecutorKind::kPriority, 0, 0})          \
      ->UseRealTime()                                                                                          \
      ->Unit(benchmark::kMicrosecond);                                                                         \
  BENCHMARK_CAPTURE(BM_Executor, shape_name##_multi_thread_1, shape, Config{ExecutorKind::kMultiThread, 1, 0}) \
      ->UseRealTime()                                                                                          \
      ->Unit(benchmark::kMicrosecond);                                                                         \
  BENCHMARK_CAPTURE(BM_Executor, shape_name##_multi_thread_2, shape, Config{ExecutorKind::kMultiThread, 2, 1}) \
      ->UseRealTime()                                                                                          \
      ->Unit(benchmark::kMicrosecond)

GE_EXECUTOR_BENCHMARKS(chain, Shape::kChain);
GE_EXECUTOR_BENCHMARKS(wide, Shape::kWide);

}  // namespace
}  // namespace ge::runtime::v2
