// MemoryPlan::Verify: an independent check of a plan, O(n log n), run by the tests on every plan.
#include <algorithm>
#include <map>
#include <numeric>

#include "compiler/planning/memory_planner.h"

namespace ge::compiler {
namespace {

std::string Name(const PlanBuffer& b) { return "buffer " + std::to_string(b.id); }

Status CheckApart(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan, BufferKind kind) {
  std::vector<int> members;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].kind == kind && plan.aligned_sizes[i] > 0) members.push_back(static_cast<int>(i));
  }
  std::sort(members.begin(), members.end(), [&](int a, int b) { return plan.offsets[a] < plan.offsets[b]; });
  for (size_t k = 1; k < members.size(); ++k) {
    const int a = members[k - 1];
    const int b = members[k];
    if (plan.offsets[a] + plan.aligned_sizes[a] > plan.offsets[b]) {
      return Internal(Name(buffers[a]) + " and " + Name(buffers[b]) + " share graph IO memory");
    }
  }
  return Status::Ok();
}

Status CheckInplace(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan) {
  std::vector<bool> taken(buffers.size(), false);
  for (size_t i = 0; i < buffers.size(); ++i) {
    const int64_t s = plan.inplace_of[i];
    if (s < 0) continue;
    if (s >= static_cast<int64_t>(buffers.size()) || taken[s]) {
      return Internal(Name(buffers[i]) + " has a bad or repeated in-place source");
    }
    taken[s] = true;
    const PlanBuffer& b = buffers[i];
    const PlanBuffer& src = buffers[s];
    if (b.inplace_source != src.id || b.kind != BufferKind::kFeatureMap || src.kind != BufferKind::kFeatureMap ||
        src.last_step != b.first_step || plan.aligned_sizes[i] > plan.aligned_sizes[s] ||
        plan.offsets[i] != plan.offsets[s]) {
      return Internal(Name(b) + " takes over " + Name(src) + " in place, which is not allowed");
    }
  }
  return Status::Ok();
}

// Sweeps the steps keeping the live feature maps in an offset-ordered map of disjoint ranges; every pair with
// overlapping lifetimes meets when the later one is inserted. Members of one in-place chain share one entry.
Status CheckFeatureMaps(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan) {
  const size_t n = buffers.size();
  std::vector<int> chain(n);
  for (size_t i = 0; i < n; ++i) {
    int x = static_cast<int>(i);
    for (size_t hops = 0; plan.inplace_of[x] >= 0 && hops <= n; ++hops) x = static_cast<int>(plan.inplace_of[x]);
    chain[i] = x;
  }
  std::vector<int> by_first;
  for (size_t i = 0; i < n; ++i) {
    if (buffers[i].kind == BufferKind::kFeatureMap && plan.aligned_sizes[i] > 0) {
      by_first.push_back(static_cast<int>(i));
    }
  }
  std::vector<int> by_last = by_first;
  std::sort(by_first.begin(), by_first.end(),
            [&](int a, int b) { return buffers[a].first_step < buffers[b].first_step; });
  std::sort(by_last.begin(), by_last.end(), [&](int a, int b) { return buffers[a].last_step < buffers[b].last_step; });
  struct Entry {
    int chain;
    std::vector<int> members;
  };
  std::map<uint64_t, Entry> live;  // offset -> chain living there
  auto end_of = [&](const Entry& e) {
    uint64_t end = 0;
    for (int m : e.members) end = std::max(end, plan.offsets[m] + plan.aligned_sizes[m]);
    return end;
  };
  size_t next_release = 0;
  for (int i : by_first) {
    const PlanBuffer& b = buffers[i];
    for (; next_release < by_last.size() && buffers[by_last[next_release]].last_step < b.first_step; ++next_release) {
      const int r = by_last[next_release];
      Entry& e = live.at(plan.offsets[r]);
      e.members.erase(std::find(e.members.begin(), e.members.end(), r));
      if (e.members.empty()) live.erase(plan.offsets[r]);
    }
    const uint64_t offset = plan.offsets[i];
    const uint64_t end = offset + plan.aligned_sizes[i];
    auto next = live.upper_bound(offset);
    if (next != live.end() && next->first < end) {
      return Internal(Name(b) + " overlaps live " + Name(buffers[next->second.members[0]]) + " in memory");
    }
    if (next != live.begin()) {
      auto prev = std::prev(next);
      if (prev->first == offset && prev->second.chain == chain[i]) {
        prev->second.members.push_back(i);
        continue;
      }
      if (end_of(prev->second) > offset) {
        return Internal(Name(b) + " overlaps live " + Name(buffers[prev->second.members[0]]) + " in memory");
      }
    }
    live.emplace(offset, Entry{chain[i], {i}});
  }
  return Status::Ok();
}

}  // namespace

Status MemoryPlan::Verify(const std::vector<PlanBuffer>& buffers) const {
  const size_t n = buffers.size();
  if (offsets.size() != n || aligned_sizes.size() != n || inplace_of.size() != n) {
    return Internal("memory plan was made for " + std::to_string(offsets.size()) + " buffers, not " +
                    std::to_string(n));
  }
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return Internal("memory plan has a bad alignment");
  for (size_t i = 0; i < n; ++i) {
    const PlanBuffer& b = buffers[i];
    const uint64_t segment = b.kind == BufferKind::kFeatureMap   ? feature_map_bytes
                             : b.kind == BufferKind::kGraphInput ? graph_input_bytes
                                                                 : graph_output_bytes;
    if (aligned_sizes[i] < b.size_bytes || aligned_sizes[i] % alignment != 0 || offsets[i] % alignment != 0) {
      return Internal(Name(b) + " is not aligned to " + std::to_string(alignment) + " bytes");
    }
    if (aligned_sizes[i] > 0 && offsets[i] + aligned_sizes[i] > segment) {
      return Internal(Name(b) + " ends past its segment of " + std::to_string(segment) + " bytes");
    }
  }
  GE_RETURN_IF_ERROR(CheckApart(buffers, *this, BufferKind::kGraphInput));
  GE_RETURN_IF_ERROR(CheckApart(buffers, *this, BufferKind::kGraphOutput));
  GE_RETURN_IF_ERROR(CheckInplace(buffers, *this));
  return CheckFeatureMaps(buffers, *this);
}

}  // namespace ge::compiler
