// GE-style block reuse (BlockMemAssigner, compiler/graph/build/memory/block_mem_assigner.cc): walk the steps in
// execution order, allocate the buffers a step writes, then release the ones whose last reader has run. Freed
// blocks go to a free list; an allocation takes the smallest free block that fits (best fit by size) and splits
// off the rest, and freed neighbours merge. GE's level-1 reuse only takes blocks of equal size; splitting and
// merging here stand in for its level-2 ReuseBlocksByLifeTime nesting.
#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <set>

#include "compiler/planning/memory_planner_internal.h"

namespace ge::compiler::mem_internal {
namespace {

class BlockAllocator {
 public:
  uint64_t Allocate(uint64_t size) {
    auto fit = by_size_.lower_bound({size, 0});
    if (fit != by_size_.end()) {
      auto [block_size, offset] = *fit;
      Remove(offset, block_size);
      if (block_size > size) Add(offset + size, block_size - size);
      return offset;
    }
    // Nothing fits: grow the segment, starting inside a free block that touches its top.
    uint64_t offset = top_;
    if (!by_offset_.empty()) {
      auto last = std::prev(by_offset_.end());
      if (last->first + last->second == top_) {
        offset = last->first;
        Remove(last->first, last->second);
      }
    }
    top_ = offset + size;
    peak_ = std::max(peak_, top_);
    return offset;
  }

  void Free(uint64_t offset, uint64_t size) {
    auto next = by_offset_.lower_bound(offset);
    if (next != by_offset_.end() && offset + size == next->first) {
      size += next->second;
      Remove(next->first, next->second);
    }
    next = by_offset_.lower_bound(offset);
    if (next != by_offset_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        size += prev->second;
        Remove(prev->first, prev->second);
      }
    }
    Add(offset, size);
  }

  uint64_t peak() const { return peak_; }

 private:
  void Add(uint64_t offset, uint64_t size) {
    by_offset_.emplace(offset, size);
    by_size_.emplace(size, offset);
  }
  void Remove(uint64_t offset, uint64_t size) {
    by_offset_.erase(offset);
    by_size_.erase({size, offset});
  }

  std::map<uint64_t, uint64_t> by_offset_;          // free block offset -> size
  std::set<std::pair<uint64_t, uint64_t>> by_size_;  // (size, offset) of the same blocks
  uint64_t top_ = 0;
  uint64_t peak_ = 0;
};

}  // namespace

Placement PlanBlockReuse(const std::vector<Item>& items) {
  const int n = static_cast<int>(items.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (items[a].first != items[b].first) return items[a].first < items[b].first;
    if (items[a].size != items[b].size) return items[a].size > items[b].size;
    return a < b;
  });
  Placement out;
  out.offsets.assign(n, 0);
  BlockAllocator allocator;
  using Release = std::pair<int64_t, int>;  // (last step, item)
  std::priority_queue<Release, std::vector<Release>, std::greater<Release>> releases;
  for (int item : order) {
    const Item& it = items[item];
    if (it.size == 0) continue;
    // A block is free for a buffer written at step s once its last reader ran before s.
    while (!releases.empty() && releases.top().first < it.first) {
      int done = releases.top().second;
      releases.pop();
      allocator.Free(out.offsets[done], items[done].size);
    }
    out.offsets[item] = allocator.Allocate(it.size);
    releases.emplace(it.last, item);
  }
  out.total = allocator.peak();
  return out;
}

}  // namespace ge::compiler::mem_internal
