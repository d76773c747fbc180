#include "runtime/v2/topological_executor.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/v2/exec_plan.h"

namespace ge::runtime::v2 {
namespace {

// Ready nodes in the order they became ready.
class FifoReady {
 public:
  explicit FifoReady(const ExecPlan& plan) : slots_(plan.num_nodes()) {}
  void Clear() { head_ = tail_ = 0; }
  bool Empty() const { return head_ == tail_; }
  void Push(uint32_t node) { slots_[tail_++] = node; }
  uint32_t Pop() { return slots_[head_++]; }

 private:
  std::vector<uint32_t> slots_;  // never wraps: each node is pushed once per run
  size_t head_ = 0;
  size_t tail_ = 0;
};

// Ready nodes by priority (higher first), then by index (lower first). Nodes are ranked once in that order; the
// ready set is a bitset over ranks with one summary level per 64x (a word's bit says its child word is non-empty),
// so the next node is the lowest set bit, found with one count-trailing-zeros per level. A lone ready node (chains)
// is held aside and never touches the bitset.
class PriorityReady {
 public:
  explicit PriorityReady(const ExecPlan& plan) : rank_(plan.num_nodes()), node_at_(plan.num_nodes()) {
    for (uint32_t i = 0; i < plan.num_nodes(); ++i) node_at_[i] = i;
    std::stable_sort(node_at_.begin(), node_at_.end(),
                     [&](uint32_t a, uint32_t b) { return plan.priority[a] > plan.priority[b]; });
    for (uint32_t r = 0; r < node_at_.size(); ++r) rank_[node_at_[r]] = r;
    size_t bits = std::max<size_t>(plan.num_nodes(), 1);
    size_t words = 0;
    do {
      bits = (bits + 63) / 64;
      offset_[levels_++] = words;
      words += bits;
    } while (bits > 1);
    words_.assign(words, 0);
  }
  void Clear() {
    std::fill(words_.begin(), words_.end(), 0);
    count_ = 0;
    held_ = kNoNode;
  }
  bool Empty() const { return count_ == 0; }
  void Push(uint32_t node) {
    if (count_++ == 0) {
      held_ = node;
      return;
    }
    if (held_ != kNoNode) {
      Insert(held_);
      held_ = kNoNode;
    }
    Insert(node);
  }
  uint32_t Pop() {
    --count_;
    if (held_ == kNoNode) return Extract();
    const uint32_t node = held_;
    held_ = kNoNode;
    return node;
  }

 private:
  static constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  void Insert(uint32_t node) {
    uint64_t* w = words_.data();
    size_t p = rank_[node];
    for (int l = 0; l < levels_; ++l) {
      uint64_t& word = w[offset_[l] + (p >> 6)];
      const uint64_t before = word;
      word = before | (uint64_t{1} << (p & 63));
      if (before != 0) return;
      p >>= 6;
    }
  }
  uint32_t Extract() {
    uint64_t* w = words_.data();
    size_t p = 0;
    for (int l = levels_ - 1; l >= 0; --l) p = p * 64 + static_cast<size_t>(__builtin_ctzll(w[offset_[l] + p]));
    const uint32_t node = node_at_[p];
    for (int l = 0; l < levels_; ++l) {
      uint64_t& word = w[offset_[l] + (p >> 6)];
      word &= word - 1;  // p is the lowest set bit of its word
      if (word != 0) break;
      p >>= 6;
    }
    return node;
  }

  std::vector<uint32_t> rank_;     // node -> position in (priority desc, index asc) order
  std::vector<uint32_t> node_at_;  // position -> node
  std::vector<uint64_t> words_;    // the levels, one after another; level 0 has one bit per position
  size_t offset_[6] = {};          // first word of each level (6 levels of 64 cover 2^32 nodes)
  int levels_ = 0;
  size_t count_ = 0;         // ready nodes
  uint32_t held_ = kNoNode;  // the only ready node, when it was pushed into an empty set
};

template <typename Ready>
class TopologicalExecutor final : public Executor {
 public:
  TopologicalExecutor(ExecuteGraph* graph, ExecutionState* exec, ExecPlan plan)
      : graph_(graph), exec_(exec), plan_(std::move(plan)), in_degree_(plan_.num_nodes()), ready_(plan_) {
    graph_->Bind(exec_);
  }

  Status Run() override {
    const FlatNode* nodes = plan_.nodes.data();
    const uint32_t* edge_begin = plan_.edge_begin.data();
    const uint32_t* edges = plan_.edges.data();
    uint32_t* degree = in_degree_.data();
    if (!in_degree_.empty()) std::memcpy(degree, plan_.in_degree.data(), in_degree_.size() * sizeof(uint32_t));
    ready_.Clear();
    for (uint32_t r : plan_.roots) ready_.Push(r);
    while (!ready_.Empty()) {
      const uint32_t i = ready_.Pop();
      if (nodes[i].fn(nodes[i].ctx) != kStatusSuccess) return FailedNodeStatus(*graph_, exec_, i);
      for (uint32_t e = edge_begin[i]; e < edge_begin[i + 1]; ++e) {
        if (--degree[edges[e]] == 0) ready_.Push(edges[e]);
      }
    }
    return Status::Ok();  // BuildExecPlan rejected cycles, so every node ran
  }

 private:
  ExecuteGraph* graph_;
  ExecutionState* exec_;
  const ExecPlan plan_;
  std::vector<uint32_t> in_degree_;  // this run's counts
  Ready ready_;
};

template <typename Ready>
StatusOr<std::unique_ptr<Executor>> Create(ExecuteGraph* graph, ExecutionState* exec) {
  GE_ASSIGN_OR_RETURN(ExecPlan plan, BuildExecPlan(*graph));
  return std::unique_ptr<Executor>(std::make_unique<TopologicalExecutor<Ready>>(graph, exec, std::move(plan)));
}

}  // namespace

StatusOr<std::unique_ptr<Executor>> CreateTopologicalExecutor(ExecuteGraph* graph, ExecutionState* exec) {
  return Create<FifoReady>(graph, exec);
}

StatusOr<std::unique_ptr<Executor>> CreatePriorityExecutor(ExecuteGraph* graph, ExecutionState* exec) {
  return Create<PriorityReady>(graph, exec);
}

}  // namespace ge::runtime::v2
