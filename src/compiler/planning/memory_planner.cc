#include "compiler/planning/memory_planner.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "compiler/planning/memory_planner_internal.h"

namespace ge::compiler {
namespace {

using mem_internal::Item;
using mem_internal::Placement;

// Keeps every sum of aligned sizes (segments, live bytes) far from uint64 overflow.
constexpr uint64_t kMaxTotalBytes = uint64_t{1} << 62;

constexpr PlanStrategy kAllStrategies[] = {PlanStrategy::kGreedyBySize, PlanStrategy::kGreedyBySizeFirstFit,
                                           PlanStrategy::kGreedyByArea, PlanStrategy::kGreedyByBreadth,
                                           PlanStrategy::kBlockReuse};
constexpr int kAreaTries = 16;

uint64_t AlignUp(uint64_t size, uint64_t alignment) { return (size + alignment - 1) & ~(alignment - 1); }

Status ValidateAliases(const std::vector<PlanBuffer>& buffers, const std::unordered_map<int64_t, int>& index_of);

Status Validate(const std::vector<PlanBuffer>& buffers, const MemoryPlanOptions& options,
                std::unordered_map<int64_t, int>* index_of) {
  const uint64_t a = options.alignment;
  GE_CHECK_ARG(a != 0 && (a & (a - 1)) == 0 && a <= (uint64_t{1} << 30),
               "memory plan alignment " + std::to_string(a) + " is not a power of two up to 2^30");
  uint64_t total = 0;
  index_of->reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    const PlanBuffer& b = buffers[i];
    const std::string name = "buffer " + std::to_string(b.id);
    GE_CHECK_ARG(index_of->emplace(b.id, static_cast<int>(i)).second, name + " appears twice");
    GE_CHECK_ARG(b.first_step >= 0 && b.first_step <= b.last_step,
                 name + " has lifetime [" + std::to_string(b.first_step) + ", " + std::to_string(b.last_step) + "]");
    GE_CHECK_ARG(b.size_bytes <= kMaxTotalBytes - a && total + AlignUp(b.size_bytes, a) <= kMaxTotalBytes,
                 name + " makes the plan larger than 2^62 bytes");
    total += AlignUp(b.size_bytes, a);
  }
  for (const PlanBuffer& b : buffers) {
    GE_CHECK_ARG(b.inplace_source == -1 || index_of->count(b.inplace_source),
                 "buffer " + std::to_string(b.id) + " names unknown in-place source " +
                     std::to_string(b.inplace_source));
  }
  return ValidateAliases(buffers, *index_of);
}

Status ValidateAliases(const std::vector<PlanBuffer>& buffers, const std::unordered_map<int64_t, int>& index_of) {
  std::vector<bool> is_parent(buffers.size(), false);
  std::vector<std::pair<int, int>> by_parent;  // (parent index, alias index)
  for (size_t i = 0; i < buffers.size(); ++i) {
    const PlanBuffer& b = buffers[i];
    if (b.alias_of == -1) continue;
    const std::string name = "alias " + std::to_string(b.id);
    auto p = index_of.find(b.alias_of);
    GE_CHECK_ARG(p != index_of.end() && p->second != static_cast<int>(i),
                 name + " names a bad parent " + std::to_string(b.alias_of));
    const PlanBuffer& parent = buffers[p->second];
    GE_CHECK_ARG(b.kind == BufferKind::kFeatureMap && parent.kind == BufferKind::kFeatureMap && parent.alias_of == -1,
                 name + ": alias and parent must be feature maps, the parent no alias");
    GE_CHECK_ARG(b.alias_offset <= parent.size_bytes && b.size_bytes <= parent.size_bytes - b.alias_offset,
                 name + " does not lie inside its parent " + std::to_string(parent.id));
    GE_CHECK_ARG(parent.first_step <= b.first_step && b.last_step <= parent.last_step,
                 name + " lives outside its parent " + std::to_string(parent.id) + "'s lifetime");
    GE_CHECK_ARG(b.inplace_source == -1 && parent.inplace_source == -1,
                 name + ": an alias or its parent cannot take over a buffer in place");
    is_parent[p->second] = true;
    by_parent.emplace_back(p->second, static_cast<int>(i));
  }
  for (const PlanBuffer& b : buffers) {
    GE_CHECK_ARG(b.inplace_source == -1 || buffers[index_of.at(b.inplace_source)].alias_of == -1,
                 "buffer " + std::to_string(b.id) + " cannot take over alias " + std::to_string(b.inplace_source));
  }
  std::sort(by_parent.begin(), by_parent.end(), [&](const std::pair<int, int>& x, const std::pair<int, int>& y) {
    if (x.first != y.first) return x.first < y.first;
    return buffers[x.second].alias_offset < buffers[y.second].alias_offset;
  });
  for (size_t k = 1; k < by_parent.size(); ++k) {
    const PlanBuffer& a = buffers[by_parent[k - 1].second];
    const PlanBuffer& b = buffers[by_parent[k].second];
    GE_CHECK_ARG(by_parent[k - 1].first != by_parent[k].first || a.alias_offset + a.size_bytes <= b.alias_offset,
                 "aliases " + std::to_string(a.id) + " and " + std::to_string(b.id) + " overlap in their parent");
  }
  return Status::Ok();
}

// Last step at which an alias of each buffer is read (-1: none).
std::vector<int64_t> LastAliasStep(const std::vector<PlanBuffer>& buffers,
                                   const std::unordered_map<int64_t, int>& index_of) {
  std::vector<int64_t> last(buffers.size(), -1);
  for (const PlanBuffer& b : buffers) {
    if (b.alias_of == -1) continue;
    int64_t& l = last[index_of.at(b.alias_of)];
    l = std::max(l, b.last_step);
  }
  return last;
}

void PlaceAliases(const std::vector<PlanBuffer>& buffers, const std::unordered_map<int64_t, int>& index_of,
                  MemoryPlan* plan) {
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].alias_of == -1) continue;
    plan->offsets[i] = plan->offsets[index_of.at(buffers[i].alias_of)] + buffers[i].alias_offset;
  }
}

// Accepts the in-place pairs that are safe; returns, per buffer, the index of the buffer it takes over or -1.
// A parent is taken over only after its aliases' last reads: the taker may read an alias where it writes.
std::vector<int64_t> ResolveInplace(const std::vector<PlanBuffer>& buffers, const std::vector<uint64_t>& sizes,
                                    const std::unordered_map<int64_t, int>& index_of) {
  const std::vector<int64_t> last_alias_step = LastAliasStep(buffers, index_of);
  const size_t n = buffers.size();
  std::vector<int64_t> inplace_of(n, -1);
  std::vector<bool> taken(n, false);
  std::vector<int> root(n);  // union-find, to refuse degenerate cycles of zero-length lifetimes
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int x) {
    while (root[x] != x) x = root[x] = root[root[x]];
    return x;
  };
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return buffers[a].first_step < buffers[b].first_step; });
  for (int i : order) {
    const PlanBuffer& b = buffers[i];
    if (b.inplace_source == -1 || b.kind != BufferKind::kFeatureMap) continue;
    const int s = index_of.at(b.inplace_source);
    const PlanBuffer& src = buffers[s];
    if (s == i || src.kind != BufferKind::kFeatureMap || taken[s] || src.last_step != b.first_step ||
        sizes[i] > sizes[s] || find(i) == find(s) || last_alias_step[s] >= b.first_step) {
      continue;
    }
    taken[s] = true;
    inplace_of[i] = s;
    root[find(i)] = find(s);
  }
  return inplace_of;
}

// Max over steps of the live feature-map bytes; at the step where an in-place pair hands over, the pair counts
// as the larger of the two.
uint64_t LowerBound(const std::vector<PlanBuffer>& buffers, const std::vector<uint64_t>& sizes,
                    const std::vector<int64_t>& inplace_of) {
  std::vector<std::pair<int64_t, int64_t>> events;  // (step, signed bytes)
  for (size_t i = 0; i < buffers.size(); ++i) {
    const PlanBuffer& b = buffers[i];
    if (b.kind != BufferKind::kFeatureMap || b.alias_of != -1 || sizes[i] == 0) continue;
    const auto size = static_cast<int64_t>(sizes[i]);
    events.emplace_back(b.first_step, size);
    events.emplace_back(b.last_step + 1, -size);
    if (inplace_of[i] >= 0) {
      const auto shared = static_cast<int64_t>(std::min(sizes[i], sizes[inplace_of[i]]));
      events.emplace_back(b.first_step, -shared);
      events.emplace_back(b.first_step + 1, shared);
    }
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0;
  int64_t peak = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    live += events[i].second;
    if (i + 1 == events.size() || events[i + 1].first != events[i].first) peak = std::max(peak, live);
  }
  return static_cast<uint64_t>(peak);
}

// Lays the buffers of |kind| out one after another in input order.
uint64_t PlaceApart(const std::vector<PlanBuffer>& buffers, BufferKind kind, MemoryPlan* plan) {
  uint64_t top = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].kind != kind || buffers[i].alias_of != -1) continue;
    plan->offsets[i] = top;
    top += plan->aligned_sizes[i];
  }
  return top;
}

Placement RunStrategy(PlanStrategy strategy, const std::vector<Item>& items) {
  switch (strategy) {
    case PlanStrategy::kGreedyBySize:
      return mem_internal::PlanGreedyBySize(items, /*best_fit=*/true);
    case PlanStrategy::kGreedyBySizeFirstFit:
      return mem_internal::PlanGreedyBySize(items, /*best_fit=*/false);
    case PlanStrategy::kGreedyByArea:
      return mem_internal::PlanGreedyByArea(items, kAreaTries);
    case PlanStrategy::kGreedyByBreadth:
      return mem_internal::PlanGreedyByBreadth(items);
    case PlanStrategy::kBlockReuse:
      return mem_internal::PlanBlockReuse(items);
  }
  return {};
}

}  // namespace

const char* PlanStrategyName(PlanStrategy strategy) {
  switch (strategy) {
    case PlanStrategy::kGreedyBySize:
      return "greedy_by_size";
    case PlanStrategy::kGreedyBySizeFirstFit:
      return "greedy_by_size_first_fit";
    case PlanStrategy::kGreedyByArea:
      return "greedy_by_area";
    case PlanStrategy::kGreedyByBreadth:
      return "greedy_by_breadth";
    case PlanStrategy::kBlockReuse:
      return "block_reuse";
  }
  return "unknown";
}

Status ApplyMemoryPlanOption(const std::string& key, const std::string& value, MemoryPlanOptions* options) {
  if (key != "ge.exec.disableReuseMemory") return Status::Ok();
  GE_CHECK_ARG(value == "0" || value == "1",
               "ge.exec.disableReuseMemory must be \"0\" or \"1\", got \"" + value + "\"");
  options->disable_reuse = value == "1";
  return Status::Ok();
}

StatusOr<MemoryPlan> PlanMemory(const std::vector<PlanBuffer>& buffers, const MemoryPlanOptions& options) {
  std::unordered_map<int64_t, int> index_of;
  GE_RETURN_IF_ERROR(Validate(buffers, options, &index_of));
  const size_t n = buffers.size();
  MemoryPlan plan;
  plan.alignment = options.alignment;
  plan.offsets.assign(n, 0);
  plan.aligned_sizes.resize(n);
  for (size_t i = 0; i < n; ++i) {
    plan.aligned_sizes[i] =
        buffers[i].alias_of == -1 ? AlignUp(buffers[i].size_bytes, options.alignment) : buffers[i].size_bytes;
  }
  plan.graph_input_bytes = PlaceApart(buffers, BufferKind::kGraphInput, &plan);
  plan.graph_output_bytes = PlaceApart(buffers, BufferKind::kGraphOutput, &plan);

  // The bound counts the in-place pairs reuse would accept, so it does not move with disable_reuse.
  std::vector<int64_t> inplace_of = ResolveInplace(buffers, plan.aligned_sizes, index_of);
  plan.feature_map_lower_bound_bytes = LowerBound(buffers, plan.aligned_sizes, inplace_of);
  if (options.disable_reuse) {
    plan.inplace_of.assign(n, -1);
    plan.feature_map_bytes = PlaceApart(buffers, BufferKind::kFeatureMap, &plan);
    plan.strategy = "no_reuse";
    plan.tried.push_back({plan.strategy, plan.feature_map_bytes});
    PlaceAliases(buffers, index_of, &plan);
    return plan;
  }
  plan.inplace_of = inplace_of;

  // One item per in-place chain (a chain's head is its largest member and spans the chain's lifetime).
  std::vector<int> item_of(n, -1);
  std::vector<Item> items;
  for (size_t i = 0; i < n; ++i) {
    if (buffers[i].kind != BufferKind::kFeatureMap || buffers[i].alias_of != -1 || inplace_of[i] >= 0) continue;
    item_of[i] = static_cast<int>(items.size());
    items.push_back({plan.aligned_sizes[i], buffers[i].first_step, buffers[i].last_step});
  }
  std::vector<int> path;
  for (size_t i = 0; i < n; ++i) {
    if (item_of[i] >= 0 || inplace_of[i] < 0) continue;
    path.clear();
    int x = static_cast<int>(i);
    for (; item_of[x] < 0; x = static_cast<int>(inplace_of[x])) path.push_back(x);
    for (int member : path) {
      item_of[member] = item_of[x];
      Item& item = items[item_of[x]];
      item.first = std::min(item.first, buffers[member].first_step);
      item.last = std::max(item.last, buffers[member].last_step);
    }
  }

  const std::vector<PlanStrategy> strategies =
      options.strategies.empty() ? std::vector<PlanStrategy>(std::begin(kAllStrategies), std::end(kAllStrategies))
                                 : options.strategies;
  Placement best;
  bool have_best = false;
  for (PlanStrategy strategy : strategies) {
    Placement placement = RunStrategy(strategy, items);
    plan.tried.push_back({PlanStrategyName(strategy), placement.total});
    if (!have_best || placement.total < best.total) {
      best = std::move(placement);
      plan.strategy = PlanStrategyName(strategy);
      have_best = true;
    }
  }
  plan.feature_map_bytes = best.total;
  for (size_t i = 0; i < n; ++i) {
    if (item_of[i] >= 0) plan.offsets[i] = best.offsets[item_of[i]];
  }
  PlaceAliases(buffers, index_of, &plan);
  return plan;
}

}  // namespace ge::compiler
