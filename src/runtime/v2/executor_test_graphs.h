// Test graphs for the executors' tests (not part of the library): every node is a probe kernel that mixes its
// inputs into its output and records, per run, a start and end tick of one shared logical clock, its thread and
// whether it ran, so a test can check values against the sequential executor and order against every edge.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/v2/execute_graph.h"

namespace ge::runtime::v2::testing {

inline constexpr uint64_t kNever = ~uint64_t{0};

// Written by the kernels during a run (each node only its own slots), read by the test after Run returns.
struct Probe {
  std::atomic<uint64_t> clock{0};
  std::vector<uint64_t> start, end;
  std::vector<std::thread::id> thread;
  uint32_t fail_node = 0xFFFFFFFFu;  // this node records its start, then fails
  void Reset(size_t n) {
    start.assign(n, kNever);
    end.assign(n, kNever);
    thread.assign(n, std::thread::id());
  }
  bool Ran(uint32_t i) const { return start[i] != kNever; }
};

struct ProbeData {
  Probe* probe;
  uint32_t id;
  void* extra;  // for kernels other than ProbeKernel
};

inline KernelStatus ProbeKernel(KernelContext* c) {
  const ProbeData& d = c->data<ProbeData>();
  d.probe->start[d.id] = d.probe->clock.fetch_add(1);
  d.probe->thread[d.id] = std::this_thread::get_id();
  if (d.id == d.probe->fail_node) return c->exec->SetError(Internal("probe failure"));
  uint64_t v = 0x9E3779B97F4A7C15ull + d.id;
  for (uint32_t i = 0; i < c->num_inputs; ++i) v = v * 1000003u ^ c->input(i).GetValue<uint64_t>();
  for (uint32_t i = 0; i < c->num_outputs; ++i) c->output(i).SetValue<uint64_t>(v + i);
  d.probe->end[d.id] = d.probe->clock.fetch_add(1);
  return kStatusSuccess;
}

// A graph of probe nodes with one graph input; remembers every ordering edge (data and control) for checks.
class ProbeGraph {
 public:
  static constexpr uint32_t kInput = 0xFFFFFFFFu;  // as a producer: the graph input

  ProbeGraph() { input_ = graph_.AddGraphInput(); }

  // |producers|: node ids or kInput. One output.
  uint32_t Add(const std::vector<uint32_t>& producers, CriticalSection section = CriticalSection::kLaunch,
               int priority = 0, KernelFn fn = ProbeKernel, void* extra = nullptr) {
    const uint32_t id = static_cast<uint32_t>(graph_.num_nodes());
    std::vector<ChainRef> in;
    for (uint32_t p : producers) {
      in.push_back(p == kInput ? ChainRef{ChainRef::kGraphInput, input_} : ChainRef{p, 0});
      if (p != kInput) edges_.emplace_back(p, id);
    }
    auto data = std::make_shared<ProbeData>(ProbeData{&probe_, id, extra});
    graph_.AddNode(fn, "n" + std::to_string(id), in, 1, std::move(data));
    graph_.node(id).section = section;
    graph_.node(id).priority = priority;
    return id;
  }
  void Control(uint32_t from, uint32_t to) {
    graph_.AddControlEdge(from, to);
    edges_.emplace_back(from, to);
  }
  void Output(uint32_t node) { graph_.AddGraphOutput({node, 0}); }

  void SetInput(uint64_t v) {
    graph_.graph_input(input_).SetValue<uint64_t>(v);
    probe_.Reset(graph_.num_nodes());
  }
  std::vector<uint64_t> Outputs() {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < graph_.num_graph_outputs(); ++i) {
      out.push_back(graph_.graph_output(static_cast<uint32_t>(i)).GetValue<uint64_t>());
    }
    return out;
  }
  // The first edge u -> v where v started before u ended, as "u->v"; empty if none. Nodes that did not run are
  // skipped.
  std::string OrderViolation() const {
    for (const auto& [u, v] : edges_) {
      if (!probe_.Ran(v)) continue;
      if (!probe_.Ran(u) || probe_.end[u] == kNever || probe_.end[u] > probe_.start[v]) {
        return std::to_string(u) + "->" + std::to_string(v);
      }
    }
    return "";
  }

  ExecuteGraph& graph() { return graph_; }
  Probe& probe() { return probe_; }
  const Probe& probe() const { return probe_; }
  size_t size() const { return graph_.num_nodes(); }

 private:
  ExecuteGraph graph_;
  Probe probe_;
  uint32_t input_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
};

// A random DAG of |n| nodes (same |seed|, same graph): each node reads up to three earlier nodes (or the graph
// input), some get control edges from earlier nodes, a quarter are memory kernels, priorities in [-3, 3]; every
// node without consumers is a graph output.
inline void BuildRandomDag(ProbeGraph* g, uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<bool> consumed(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> in;
    const uint32_t k = i == 0 ? 0 : rng() % 4;
    for (uint32_t j = 0; j < k; ++j) {
      const uint32_t p = rng() % i;
      in.push_back(p);
      consumed[p] = true;
    }
    if (in.empty()) in.push_back(ProbeGraph::kInput);
    const auto section = rng() % 4 == 0 ? CriticalSection::kMemory : CriticalSection::kLaunch;
    g->Add(in, section, static_cast<int>(rng() % 7) - 3);
    if (i > 1 && rng() % 5 == 0) {
      const uint32_t from = rng() % i;
      g->Control(from, i);
      consumed[from] = true;
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!consumed[i]) g->Output(i);
  }
}

}  // namespace ge::runtime::v2::testing
