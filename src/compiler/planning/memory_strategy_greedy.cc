// Offset-based strategies (TFLite/XNNPACK "greedy by size" and "greedy by breadth"): each buffer goes into a gap
// among the already-placed buffers whose lifetimes overlap its own.
#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "compiler/planning/memory_planner_internal.h"

namespace ge::compiler::mem_internal {
namespace {

constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();

// Places |item| against the placed items, records it and grows the segment.
void PlaceItem(const std::vector<Item>& items, int item, bool best_fit, LifetimeIndex* placed,
               std::vector<int>* scratch, std::vector<std::pair<uint64_t, uint64_t>>* ranges, Placement* out) {
  const Item& it = items[item];
  if (it.size == 0) return;  // occupies nothing; offset stays 0
  scratch->clear();
  placed->Overlapping(it.first, it.last, scratch);
  ranges->clear();
  for (int other : *scratch) ranges->emplace_back(out->offsets[other], out->offsets[other] + items[other].size);
  uint64_t offset = FindOffset(ranges, it.size, best_fit);
  out->offsets[item] = offset;
  out->total = std::max(out->total, offset + it.size);
  placed->Insert(item);
}

}  // namespace

LifetimeIndex::LifetimeIndex(const std::vector<Item>& items, bool all_present) : items_(items) {
  const int n = static_cast<int>(items.size());
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0);
  std::sort(order_.begin(), order_.end(), [&](int a, int b) {
    return items[a].first != items[b].first ? items[a].first < items[b].first : a < b;
  });
  position_.resize(n);
  firsts_.resize(n);
  for (int i = 0; i < n; ++i) {
    position_[order_[i]] = i;
    firsts_[i] = items[order_[i]].first;
  }
  while (leaves_ < static_cast<size_t>(n)) leaves_ *= 2;
  tree_.assign(2 * leaves_, kAbsent);
  if (all_present) {
    for (int i = 0; i < n; ++i) tree_[leaves_ + i] = items[order_[i]].last;
    for (size_t node = leaves_ - 1; node >= 1; --node) tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
  }
}

void LifetimeIndex::Set(int item, int64_t value) {
  size_t node = leaves_ + position_[item];
  tree_[node] = value;
  for (node /= 2; node >= 1; node /= 2) tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
}

void LifetimeIndex::Insert(int item) { Set(item, items_[item].last); }
void LifetimeIndex::Erase(int item) { Set(item, kAbsent); }

void LifetimeIndex::Overlapping(int64_t first, int64_t last, std::vector<int>* out) const {
  // Items starting at or before |last| form a prefix of order_; among them, report those ending at or after
  // |first| by descending only into subtrees whose max last step reaches |first|.
  const size_t limit = std::upper_bound(firsts_.begin(), firsts_.end(), last) - firsts_.begin();
  if (limit == 0) return;
  struct Frame {
    size_t node, lo, hi;
  };
  Frame stack[64];
  int top = 0;
  stack[top++] = {1, 0, leaves_};
  while (top > 0) {
    Frame f = stack[--top];
    if (f.lo >= limit || tree_[f.node] < first) continue;
    if (f.hi - f.lo == 1) {
      out->push_back(order_[f.lo]);
      continue;
    }
    size_t mid = (f.lo + f.hi) / 2;
    stack[top++] = {2 * f.node + 1, mid, f.hi};
    stack[top++] = {2 * f.node, f.lo, mid};
  }
}

uint64_t FindOffset(std::vector<std::pair<uint64_t, uint64_t>>* ranges, uint64_t size, bool best_fit) {
  std::sort(ranges->begin(), ranges->end());
  uint64_t prev_end = 0;
  uint64_t best = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  bool found = false;
  for (const auto& [offset, end] : *ranges) {
    if (offset > prev_end) {
      uint64_t gap = offset - prev_end;
      if (gap >= size && gap < best_gap) {
        best = prev_end;
        best_gap = gap;
        found = true;
        if (!best_fit) break;
      }
    }
    prev_end = std::max(prev_end, end);
  }
  return found ? best : prev_end;
}

Placement PlanGreedyInOrder(const std::vector<Item>& items, const std::vector<int>& order, bool best_fit) {
  Placement out;
  out.offsets.assign(items.size(), 0);
  LifetimeIndex placed(items, /*all_present=*/false);
  std::vector<int> scratch;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (int item : order) PlaceItem(items, item, best_fit, &placed, &scratch, &ranges, &out);
  return out;
}

Placement PlanGreedyBySize(const std::vector<Item>& items, bool best_fit) {
  std::vector<int> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  // Largest first; among equals the longer-lived, then the earlier: long-lived tensors settle low and the short
  // ones fill the gaps above and between them.
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Item& x = items[a];
    const Item& y = items[b];
    if (x.size != y.size) return x.size > y.size;
    if (x.last - x.first != y.last - y.first) return x.last - x.first > y.last - y.first;
    if (x.first != y.first) return x.first < y.first;
    return a < b;
  });
  return PlanGreedyInOrder(items, order, best_fit);
}

Placement PlanGreedyByArea(const std::vector<Item>& items, int max_tries) {
  const size_t n = items.size();
  std::vector<double> area(n);
  for (size_t i = 0; i < n; ++i) {
    area[i] = static_cast<double>(items[i].size) * static_cast<double>(items[i].last - items[i].first + 1);
  }
  // A try costs about n * (1 + mean live count) range visits; the budget keeps big or wide graphs to one or two
  // tries. Try 0 is the exact order.
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = 0;
  double lived = 0;
  for (const Item& it : items) {
    lo = std::min(lo, it.first);
    hi = std::max(hi, it.last);
    lived += static_cast<double>(it.last - it.first + 1);
  }
  const double work = n == 0 ? 1 : static_cast<double>(n) * (1 + lived / static_cast<double>(hi - lo + 1));
  const int tries = static_cast<int>(std::clamp(262144.0 / work, 1.0, static_cast<double>(max_tries)));
  std::mt19937_64 rng(0x9e3779b97f4a7c15ull);  // fixed: plans are reproducible
  std::vector<double> key(n);
  std::vector<int> order(n);
  Placement best;
  for (int t = 0; t < tries; ++t) {
    for (size_t i = 0; i < n; ++i) key[i] = t == 0 ? area[i] : area[i] * static_cast<double>(800 + rng() % 451);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return key[a] != key[b] ? key[a] > key[b] : a < b; });
    Placement p = PlanGreedyInOrder(items, order, /*best_fit=*/true);
    if (t == 0 || p.total < best.total) best = std::move(p);
  }
  return best;
}

Placement PlanGreedyByBreadth(const std::vector<Item>& items) {
  const int n = static_cast<int>(items.size());
  // Every item is live at its own first step, so visiting the distinct first steps reaches all of them; the
  // live bytes of each such step come from a sweep over the sorted first steps.
  std::vector<int64_t> steps;
  steps.reserve(n);
  for (const Item& it : items) steps.push_back(it.first);
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  std::vector<uint64_t> load(steps.size() + 1, 0);
  std::vector<uint64_t> unload(steps.size() + 1, 0);
  for (const Item& it : items) {
    load[std::lower_bound(steps.begin(), steps.end(), it.first) - steps.begin()] += it.size;
    unload[std::upper_bound(steps.begin(), steps.end(), it.last) - steps.begin()] += it.size;
  }
  std::vector<uint64_t> live(steps.size());
  uint64_t running = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    running += load[i];
    running -= unload[i];
    live[i] = running;
  }
  std::vector<int> step_order(steps.size());
  std::iota(step_order.begin(), step_order.end(), 0);
  std::stable_sort(step_order.begin(), step_order.end(), [&](int a, int b) { return live[a] > live[b]; });

  Placement out;
  out.offsets.assign(n, 0);
  LifetimeIndex placed(items, /*all_present=*/false);
  LifetimeIndex unplaced(items, /*all_present=*/true);
  std::vector<int> batch;
  std::vector<int> scratch;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (int s : step_order) {
    batch.clear();
    unplaced.Overlapping(steps[s], steps[s], &batch);
    std::sort(batch.begin(), batch.end(), [&](int a, int b) {
      if (items[a].size != items[b].size) return items[a].size > items[b].size;
      return a < b;
    });
    for (int item : batch) {
      unplaced.Erase(item);
      PlaceItem(items, item, /*best_fit=*/true, &placed, &scratch, &ranges, &out);
    }
  }
  return out;
}

}  // namespace ge::compiler::mem_internal
