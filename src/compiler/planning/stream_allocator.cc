#include "compiler/planning/stream_allocator.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "base/data_type.h"
#include "base/shape.h"

namespace ge::compiler {
namespace {

using VClock = std::vector<int>;  // per stream: how many of its nodes (or tasks) are known finished

// Graph nodes as positions in the caller's order, with each node's predecessors: data producers, then producers
// of captured values, then control inputs; each predecessor once, in first-seen order.
struct NodeIndex {
  std::unordered_map<const ir::Node*, int> index;
  std::vector<std::vector<int>> preds;
};

void AddName(const std::string& name, std::vector<std::string>* names) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}

// Names of enclosing-graph values that |g| reads, first-seen first: its captures, and what its own subgraphs read
// without |g| defining it.
void CollectCaptureNames(const ir::Graph& g, std::vector<std::string>* names) {
  for (const ir::Value* v : g.values()) {
    if (v->is_capture()) AddName(v->name(), names);
  }
  for (const ir::Node* n : g.nodes()) {
    for (const auto& [attr, sub] : n->subgraphs()) {
      std::vector<std::string> inner;
      CollectCaptureNames(*sub, &inner);
      for (const std::string& name : inner) {
        const ir::Value* v = g.FindValue(name);
        if (v == nullptr || v->is_capture()) AddName(name, names);
      }
    }
  }
}

StatusOr<NodeIndex> IndexGraph(const ir::Graph& graph, const std::vector<const ir::Node*>& order,
                               bool require_topological) {
  NodeIndex idx;
  GE_CHECK_ARG(static_cast<int>(order.size()) == graph.num_nodes(),
               "execution order has " + std::to_string(order.size()) + " nodes, graph " + graph.name() + " has " +
                   std::to_string(graph.num_nodes()));
  for (size_t i = 0; i < order.size(); ++i) {
    const ir::Node* n = order[i];
    GE_CHECK_ARG(n != nullptr, "execution order holds a null node at " + std::to_string(i));
    GE_CHECK_ARG(n->graph() == &graph, "node " + n->name() + " is not a node of graph " + graph.name());
    GE_CHECK_ARG(idx.index.emplace(n, static_cast<int>(i)).second,
                 "node " + n->name() + " appears twice in the execution order");
  }
  idx.preds.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const ir::Node* n = order[i];
    std::vector<const ir::Node*> producers;
    for (const ir::Value* v : n->inputs()) {
      if (v != nullptr && v->producer() != nullptr) producers.push_back(v->producer());
    }
    std::vector<std::string> captured;
    for (const auto& [attr, sub] : n->subgraphs()) CollectCaptureNames(*sub, &captured);
    for (const std::string& name : captured) {
      const ir::Value* v = graph.FindValue(name);
      if (v != nullptr && v->producer() != nullptr) producers.push_back(v->producer());
    }
    for (const ir::Node* c : n->control_inputs()) producers.push_back(c);
    std::vector<int>& preds = idx.preds[i];
    for (const ir::Node* p : producers) {
      auto it = idx.index.find(p);
      if (it == idx.index.end()) continue;  // a producer outside this graph
      if (std::find(preds.begin(), preds.end(), it->second) != preds.end()) continue;
      GE_CHECK_ARG(it->second != static_cast<int>(i), "node " + n->name() + " depends on itself");
      GE_CHECK_ARG(!require_topological || it->second < static_cast<int>(i),
                   "execution order is not topological: " + n->name() + " comes before its input " + p->name());
      preds.push_back(it->second);
    }
  }
  return idx;
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

uint64_t NodeWork(const ir::Node& n) {
  uint64_t bytes = 0;
  for (const ir::Value* v : n.outputs()) {
    if (v == nullptr) continue;
    const TensorDesc& d = v->desc();
    const uint64_t elem = DataTypeSize(d.dtype);
    if (d.kind != ValueKind::kTensor || d.dtype == DataType::kString || elem == 0 || !d.shape.IsFullyKnown()) {
      return 1;
    }
    StatusOr<int64_t> count = CheckedNumElements(d.shape.dims());
    if (!count.ok()) return 1;
    const uint64_t c = static_cast<uint64_t>(*count);
    bytes = SaturatingAdd(bytes, c > std::numeric_limits<uint64_t>::max() / elem
                                     ? std::numeric_limits<uint64_t>::max()
                                     : c * elem);
  }
  return std::max<uint64_t>(bytes, 1);
}

// Unbounded logical streams first (GE's AssignByDependency): a node continues the logical stream of its first
// predecessor when that predecessor is still the stream's last node, else opens a new one. Small logical streams
// then fold into the one they forked from (youngest first, so folded work counts for the parent), and the
// survivors go round-robin onto max_streams physical streams.
std::vector<int> AssignStreams(const std::vector<const ir::Node*>& order, const NodeIndex& idx,
                               const StreamAllocOptions& options, int* num_streams) {
  const int n = static_cast<int>(order.size());
  std::vector<int> logical(n);
  std::vector<int> tail, parent;
  for (int i = 0; i < n; ++i) {
    const int pp = idx.preds[i].empty() ? -1 : idx.preds[i][0];
    if (pp >= 0 && tail[logical[pp]] == pp) {
      logical[i] = logical[pp];
      tail[logical[i]] = i;
      continue;
    }
    logical[i] = static_cast<int>(tail.size());
    tail.push_back(i);
    parent.push_back(pp >= 0 ? logical[pp] : 0);
  }
  const int num_logical = static_cast<int>(tail.size());
  std::vector<uint64_t> work(num_logical, 0);
  for (int i = 0; i < n; ++i) work[logical[i]] = SaturatingAdd(work[logical[i]], NodeWork(*order[i]));
  std::vector<bool> folded(num_logical, false);
  for (int l = num_logical - 1; l >= 1; --l) {
    if (work[l] >= options.min_branch_work) continue;
    folded[l] = true;
    work[parent[l]] = SaturatingAdd(work[parent[l]], work[l]);
  }
  std::vector<int> compact(num_logical, 0);
  int survivors = 0;
  for (int l = 0; l < num_logical; ++l) compact[l] = folded[l] ? compact[parent[l]] : survivors++;
  *num_streams = std::min(survivors, options.max_streams);
  std::vector<int> stream(n);
  for (int i = 0; i < n; ++i) stream[i] = compact[logical[i]] % options.max_streams;
  return stream;
}

}  // namespace

int StreamPlan::StreamOf(const ir::Node* node) const {
  auto it = stream_of.find(node);
  return it == stream_of.end() ? -1 : it->second;
}

Status ApplyStreamAllocOption(const std::string& key, const std::string& value, StreamAllocOptions* options) {
  if (key != "ge.streamMaxParallelNum") return Status::Ok();
  bool digits = !value.empty() && value.size() <= 9 &&
                std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  GE_CHECK_ARG(digits && std::stoi(value) >= 1,
               "ge.streamMaxParallelNum must be a positive integer, got \"" + value + "\"");
  options->max_streams = std::stoi(value);
  return Status::Ok();
}

StatusOr<StreamPlan> AllocateStreams(const ir::Graph& graph, const std::vector<const ir::Node*>& order,
                                     const StreamAllocOptions& options) {
  GE_CHECK_ARG(options.max_streams >= 1,
               "max_streams must be at least 1, got " + std::to_string(options.max_streams));
  GE_ASSIGN_OR_RETURN(NodeIndex idx, IndexGraph(graph, order, /*require_topological=*/true));
  const int n = static_cast<int>(order.size());
  StreamPlan plan;
  const std::vector<int> stream = AssignStreams(order, idx, options, &plan.num_streams);
  const int num_streams = plan.num_streams;
  plan.stream_nodes.resize(num_streams);

  // Vector clocks in execution order: cur[s] is what stream s is known to have waited for so far; after[i] is
  // the clock an event recorded after node i carries. An event p→i is needed only when neither i's stream nor
  // another candidate event of i already covers p's position: exact, because joins are componentwise maxima.
  std::vector<int> pos(n);
  std::vector<VClock> after(n);
  std::vector<VClock> cur(num_streams, VClock(num_streams, 0));
  std::vector<std::pair<int, int>> edges;  // (record position, wait position), in wait order
  int unpruned = 0;
  for (int i = 0; i < n; ++i) {
    const int s = stream[i];
    pos[i] = static_cast<int>(plan.stream_nodes[s].size());
    plan.stream_nodes[s].push_back(order[i]);
    plan.stream_of[order[i]] = s;
    VClock& v = cur[s];
    std::vector<int> candidates;
    for (int p : idx.preds[i]) {
      if (stream[p] != s) candidates.push_back(p);
    }
    std::sort(candidates.begin(), candidates.end());
    unpruned += static_cast<int>(candidates.size());
    if (options.prune_events) {
      // Of several producers on one stream only the last can be needed; this bounds the loop below by streams^2.
      std::vector<int> last(num_streams, -1);
      for (int c : candidates) last[stream[c]] = c;
      candidates.clear();
      for (int c : last) {
        if (c >= 0) candidates.push_back(c);
      }
      std::sort(candidates.begin(), candidates.end());
    }
    std::vector<int> kept;
    for (int c : candidates) {
      const int t = stream[c];
      const int need = pos[c] + 1;
      bool covered = v[t] >= need;
      for (size_t k = 0; options.prune_events && !covered && k < candidates.size(); ++k) {
        covered = candidates[k] != c && after[candidates[k]][t] >= need;
      }
      if (options.prune_events && covered) continue;
      kept.push_back(c);
    }
    for (int c : kept) {
      for (int t = 0; t < num_streams; ++t) v[t] = std::max(v[t], after[c][t]);
      edges.emplace_back(c, i);
    }
    v[s] = pos[i] + 1;
    after[i] = v;
  }

  std::map<int, int> id_of_record;  // record position → event id, numbered in execution order
  for (const auto& [rec, wait] : edges) id_of_record.emplace(rec, 0);
  for (auto& [rec, id] : id_of_record) id = plan.num_event_ids++;
  for (const auto& [rec, wait] : edges) {
    plan.events.push_back(StreamEvent{id_of_record[rec], order[rec], order[wait], stream[rec], stream[wait]});
  }
  plan.pruned_events = unpruned - static_cast<int>(edges.size());
  return plan;
}

namespace {

// One entry of a stream's task list in the simulation.
struct SimTask {
  int stream = 0;
  int pos = 0;        // index in its stream's task list
  int node = -1;      // order position for a node's own task, else -1
  int wait_id = -1;   // event id for a wait task
  int record_id = -1; // event id for a record task
};

std::string Name(const std::vector<const ir::Node*>& order, int i) { return order[i]->name(); }

}  // namespace

Status VerifyStreamPlan(const ir::Graph& graph, const std::vector<const ir::Node*>& order, const StreamPlan& plan) {
  GE_ASSIGN_OR_RETURN(NodeIndex idx, IndexGraph(graph, order, /*require_topological=*/false));
  const int n = static_cast<int>(order.size());
  const int num_streams = plan.num_streams;
  GE_CHECK_ARG(num_streams >= 0 && static_cast<int>(plan.stream_nodes.size()) == num_streams,
               "plan has " + std::to_string(plan.stream_nodes.size()) + " stream lists for " +
                   std::to_string(num_streams) + " streams");
  GE_CHECK_ARG(num_streams >= 1 || n == 0, "plan has no stream for " + std::to_string(n) + " nodes");
  std::vector<int> stream(n, -1);
  for (int s = 0; s < num_streams; ++s) {
    for (const ir::Node* m : plan.stream_nodes[s]) {
      auto it = idx.index.find(m);
      GE_CHECK_ARG(it != idx.index.end(), "stream " + std::to_string(s) + " holds a node outside the graph");
      GE_CHECK_ARG(stream[it->second] == -1, "node " + m->name() + " is listed on two streams or twice");
      GE_CHECK_ARG(plan.StreamOf(m) == s, "node " + m->name() + " is listed on stream " + std::to_string(s) +
                                              " but stream_of says " + std::to_string(plan.StreamOf(m)));
      stream[it->second] = s;
    }
  }
  for (int i = 0; i < n; ++i) GE_CHECK_ARG(stream[i] != -1, "node " + Name(order, i) + " is on no stream");

  std::map<int, int> record_of_id;
  std::vector<std::vector<int>> waits_before(n);  // event indices, in plan order
  for (size_t e = 0; e < plan.events.size(); ++e) {
    const StreamEvent& ev = plan.events[e];
    auto rec = idx.index.find(ev.record_node);
    auto wait = idx.index.find(ev.wait_node);
    GE_CHECK_ARG(rec != idx.index.end() && wait != idx.index.end(),
                 "event " + std::to_string(ev.id) + " names a node outside the graph");
    GE_CHECK_ARG(ev.id >= 0, "event id " + std::to_string(ev.id) + " is negative");
    GE_CHECK_ARG(stream[rec->second] == ev.record_stream && stream[wait->second] == ev.wait_stream,
                 "event " + std::to_string(ev.id) + " " + ev.record_node->name() + " -> " + ev.wait_node->name() +
                     " names streams its nodes are not on");
    auto [it, inserted] = record_of_id.emplace(ev.id, rec->second);
    GE_CHECK_ARG(inserted || it->second == rec->second,
                 "event id " + std::to_string(ev.id) + " is recorded after both " + Name(order, it->second) +
                     " and " + ev.record_node->name());
    waits_before[wait->second].push_back(static_cast<int>(e));
  }
  std::vector<std::vector<int>> records_after(n);
  for (const auto& [id, rec] : record_of_id) records_after[rec].push_back(id);

  std::vector<SimTask> tasks;
  std::vector<std::vector<int>> lists(num_streams);
  std::map<int, int> record_task_of_id;
  std::vector<int> task_of_node(n);
  for (int s = 0; s < num_streams; ++s) {
    auto add = [&](SimTask t) {
      t.stream = s;
      t.pos = static_cast<int>(lists[s].size());
      lists[s].push_back(static_cast<int>(tasks.size()));
      tasks.push_back(t);
    };
    for (const ir::Node* m : plan.stream_nodes[s]) {
      const int i = idx.index.at(m);
      for (int e : waits_before[i]) add(SimTask{0, 0, -1, plan.events[e].id, -1});
      task_of_node[i] = static_cast<int>(tasks.size());
      add(SimTask{0, 0, i, -1, -1});
      for (int id : records_after[i]) {
        record_task_of_id[id] = static_cast<int>(tasks.size());
        add(SimTask{0, 0, -1, -1, id});
      }
    }
  }

  // Every interleaving can run iff the happens-before graph (stream order + record→wait) is acyclic; vector
  // clocks over it then answer "a finishes before b starts" exactly.
  const int num_tasks = static_cast<int>(tasks.size());
  std::vector<int> indegree(num_tasks, 0);
  std::vector<std::vector<int>> waiters(num_tasks);
  for (int k = 0; k < num_tasks; ++k) {
    if (tasks[k].pos > 0) ++indegree[k];
    if (tasks[k].wait_id >= 0) {
      ++indegree[k];
      waiters[record_task_of_id.at(tasks[k].wait_id)].push_back(k);
    }
  }
  std::vector<VClock> clock(num_tasks);
  std::deque<int> ready;
  for (int k = 0; k < num_tasks; ++k) {
    if (indegree[k] == 0) ready.push_back(k);
  }
  int done = 0;
  while (!ready.empty()) {
    const int k = ready.front();
    ready.pop_front();
    ++done;
    const SimTask& t = tasks[k];
    VClock c = t.pos > 0 ? clock[lists[t.stream][t.pos - 1]] : VClock(num_streams, 0);
    if (t.wait_id >= 0) {
      const VClock& r = clock[record_task_of_id.at(t.wait_id)];
      for (int s = 0; s < num_streams; ++s) c[s] = std::max(c[s], r[s]);
    }
    c[t.stream] = t.pos + 1;
    clock[k] = std::move(c);
    std::vector<int> next = waiters[k];
    if (t.pos + 1 < static_cast<int>(lists[t.stream].size())) next.push_back(lists[t.stream][t.pos + 1]);
    for (int j : next) {
      if (--indegree[j] == 0) ready.push_back(j);
    }
  }
  if (done < num_tasks) {
    for (int s = 0; s < num_streams; ++s) {
      for (int k : lists[s]) {
        if (!clock[k].empty()) continue;
        if (tasks[k].wait_id < 0) break;
        const int rec = record_of_id.at(tasks[k].wait_id);
        return FailedPrecondition("streams deadlock: stream " + std::to_string(s) + " waits for event " +
                                  std::to_string(tasks[k].wait_id) + " recorded after " + Name(order, rec) +
                                  " on stream " + std::to_string(stream[rec]) + ", which never gets there");
      }
    }
    return FailedPrecondition("streams deadlock");
  }

  for (int i = 0; i < n; ++i) {
    const SimTask& consumer = tasks[task_of_node[i]];
    const VClock& c = clock[task_of_node[i]];
    for (int p : idx.preds[i]) {
      const SimTask& producer = tasks[task_of_node[p]];
      if (c[producer.stream] >= producer.pos + 1 && task_of_node[p] != task_of_node[i]) continue;
      return FailedPrecondition("node " + Name(order, i) + " on stream " + std::to_string(consumer.stream) +
                                " may start before its input " + Name(order, p) + " on stream " +
                                std::to_string(producer.stream) + " finishes");
    }
  }
  return Status::Ok();
}

}  // namespace ge::compiler
