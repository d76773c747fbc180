// MemoryPlan::Verify: an independent check of a plan, O(n log n), run by the tests on every plan.
#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

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

// Each alias inside its parent at the offset it asked for, while the parent lives; siblings disjoint. Fills
// |last_alias_step| (per buffer, the last step an alias of it is read; -1 when it has none).
Status CheckAliases(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan,
                    std::vector<int64_t>* last_alias_step) {
  const size_t n = buffers.size();
  std::unordered_map<int64_t, size_t> index_of;
  for (size_t i = 0; i < n; ++i) index_of.emplace(buffers[i].id, i);
  last_alias_step->assign(n, -1);
  std::vector<std::pair<size_t, size_t>> by_parent;  // (parent, alias)
  for (size_t i = 0; i < n; ++i) {
    const PlanBuffer& b = buffers[i];
    if (b.alias_of == -1) continue;
    auto p = index_of.find(b.alias_of);
    if (p == index_of.end() || p->second == i) return Internal(Name(b) + " is an alias of no buffer");
    const PlanBuffer& parent = buffers[p->second];
    if (b.kind != BufferKind::kFeatureMap || parent.kind != BufferKind::kFeatureMap || parent.alias_of != -1 ||
        plan.inplace_of[i] != -1 || plan.inplace_of[p->second] != -1) {
      return Internal(Name(b) + " is an alias of " + Name(parent) + ", which is not allowed");
    }
    if (b.alias_offset > parent.size_bytes || b.size_bytes > parent.size_bytes - b.alias_offset ||
        plan.offsets[i] != plan.offsets[p->second] + b.alias_offset || plan.aligned_sizes[i] != b.size_bytes) {
      return Internal(Name(b) + " does not lie where it asked inside " + Name(parent));
    }
    if (b.first_step < parent.first_step || b.last_step > parent.last_step) {
      return Internal(Name(b) + " lives outside " + Name(parent) + "'s lifetime");
    }
    (*last_alias_step)[p->second] = std::max((*last_alias_step)[p->second], b.last_step);
    by_parent.emplace_back(p->second, i);
  }
  std::sort(by_parent.begin(), by_parent.end(), [&](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : plan.offsets[x.second] < plan.offsets[y.second];
  });
  for (size_t k = 1; k < by_parent.size(); ++k) {
    const size_t a = by_parent[k - 1].second;
    const size_t b = by_parent[k].second;
    if (by_parent[k - 1].first == by_parent[k].first && plan.offsets[a] + plan.aligned_sizes[a] > plan.offsets[b]) {
      return Internal(Name(buffers[a]) + " and " + Name(buffers[b]) + " overlap inside their parent");
    }
  }
  return Status::Ok();
}

Status CheckInplace(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan,
                    const std::vector<int64_t>& last_alias_step) {
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
        plan.offsets[i] != plan.offsets[s] || b.alias_of != -1 || src.alias_of != -1 ||
        last_alias_step[s] >= b.first_step) {
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
    if (buffers[i].kind == BufferKind::kFeatureMap && buffers[i].alias_of == -1 && plan.aligned_sizes[i] > 0) {
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
    if (b.alias_of != -1) continue;  // CheckAliases: inside its parent
    if (aligned_sizes[i] < b.size_bytes || aligned_sizes[i] % alignment != 0 || offsets[i] % alignment != 0) {
      return Internal(Name(b) + " is not aligned to " + std::to_string(alignment) + " bytes");
    }
    if (aligned_sizes[i] > 0 && offsets[i] + aligned_sizes[i] > segment) {
      return Internal(Name(b) + " ends past its segment of " + std::to_string(segment) + " bytes");
    }
  }
  GE_RETURN_IF_ERROR(CheckApart(buffers, *this, BufferKind::kGraphInput));
  GE_RETURN_IF_ERROR(CheckApart(buffers, *this, BufferKind::kGraphOutput));
  std::vector<int64_t> last_alias_step;
  GE_RETURN_IF_ERROR(CheckAliases(buffers, *this, &last_alias_step));
  GE_RETURN_IF_ERROR(CheckInplace(buffers, *this, last_alias_step));
  return CheckFeatureMaps(buffers, *this);
}

}  // namespace ge::compiler
