// Internals of the memory planner shared by its strategy files; not part of the compiler's interface.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ge::compiler::mem_internal {

// What a strategy places: one feature map, or an accepted in-place chain placed as a unit. Sizes are aligned
// bytes; steps are inclusive.
struct Item {
  uint64_t size = 0;
  int64_t first = 0;
  int64_t last = 0;
};

struct Placement {
  std::vector<uint64_t> offsets;  // parallel to the items
  uint64_t total = 0;             // bytes of the segment
};

// Places the items one by one in |order| at the offset FindOffset picks.
Placement PlanGreedyInOrder(const std::vector<Item>& items, const std::vector<int>& order, bool best_fit);
Placement PlanGreedyBySize(const std::vector<Item>& items, bool best_fit);
// Largest size x lifetime first, then up to |max_tries| - 1 orders with that key jittered by -20%..+25%.
Placement PlanGreedyByArea(const std::vector<Item>& items, int max_tries);
Placement PlanGreedyByBreadth(const std::vector<Item>& items);
Placement PlanBlockReuse(const std::vector<Item>& items);

// The set of items present, searchable by lifetime: a max segment tree of last steps over the items sorted by
// first step. Overlapping() costs O((k + 1) log n) for k results.
class LifetimeIndex {
 public:
  LifetimeIndex(const std::vector<Item>& items, bool all_present);
  void Insert(int item);
  void Erase(int item);
  // Appends the present items whose lifetime intersects [first, last].
  void Overlapping(int64_t first, int64_t last, std::vector<int>* out) const;

 private:
  void Set(int item, int64_t value);

  const std::vector<Item>& items_;
  std::vector<int> order_;      // item indices by first step
  std::vector<int> position_;   // item index -> place in order_
  std::vector<int64_t> firsts_;  // first step of order_[i]
  std::vector<int64_t> tree_;    // 1-based heap; leaves hold last step, or kAbsent
  size_t leaves_ = 1;
};

// Picks an offset for a buffer of |size| bytes given the [offset, end) ranges of the placed buffers it must not
// touch (sorted here): the smallest gap that fits (best fit) or the lowest (first fit), else the top.
uint64_t FindOffset(std::vector<std::pair<uint64_t, uint64_t>>* ranges, uint64_t size, bool best_fit);

}  // namespace ge::compiler::mem_internal
