// Feature-map memory planner: assigns every buffer an offset inside its segment from tensor lifetimes.
//
// A pure computation, independent of the IR: the graph side turns an execution order into PlanBuffers (one per
// tensor, lifetimes in step indices of that order) and reads the offsets back. Mirrors GE's HybridMemAssigner
// (compiler/graph/build/memory/hybrid_mem_assigner.cc): several strategies run and the smallest feature-map
// segment wins. Graph inputs and outputs are planned apart (GE's zero-copy IO blocks), each in its own range that
// no other buffer ever shares, so user buffers can be bound in their place without copies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge::compiler {

enum class BufferKind { kFeatureMap, kGraphInput, kGraphOutput };

struct PlanBuffer {
  int64_t id = 0;  // unique among the buffers of one plan
  uint64_t size_bytes = 0;
  int64_t first_step = 0;  // step that writes the buffer
  int64_t last_step = 0;   // last step that reads it, inclusive
  BufferKind kind = BufferKind::kFeatureMap;
  // Id of a buffer whose memory this one may take over (element-wise in-place), or -1. Honoured only when both
  // are feature maps, the source's last step is this buffer's first step, this buffer is no larger (after
  // alignment) and no other buffer already took the source over.
  int64_t inplace_source = -1;
  // Id of a buffer this one is a byte range of (a no-task Concat's input inside the Concat's output), or -1. An
  // alias takes no memory of its own: it lies at its parent's offset + alias_offset. The parent must be a feature
  // map that is no alias itself, takes over no buffer in place, holds [alias_offset, alias_offset + size_bytes)
  // and lives whenever the alias does (first_step <= the alias's, last_step >= the alias's). An alias is a feature
  // map and no side of an in-place pair; aliases of one parent must not overlap each other.
  int64_t alias_of = -1;
  uint64_t alias_offset = 0;
};

enum class PlanStrategy {
  kGreedyBySize,          // largest first, best-fitting gap among lifetime-overlapping placed buffers
  kGreedyBySizeFirstFit,  // largest first, lowest offset that fits
  kGreedyByArea,          // largest size x lifetime first, then a few jittered orders; best-fitting gap
  kGreedyByBreadth,       // buffers of the step with the most live bytes first, best-fitting gap
  kBlockReuse,            // GE-style walk in step order: free list of blocks, best fit by size, split/merge
};

const char* PlanStrategyName(PlanStrategy strategy);

struct MemoryPlanOptions {
  uint64_t alignment = 512;  // bytes, a power of two; GE's feature-map rule (kMemAlignSize)
  // ge.exec.disableReuseMemory: every buffer gets its own range, no in-place. Aliases stay inside their parent:
  // a slice is the parent's own bytes, never reused by another tensor.
  bool disable_reuse = false;
  std::vector<PlanStrategy> strategies;  // empty = all of them
};

// Applies one GE option to |options|; keys the planner does not know are ignored.
// "ge.exec.disableReuseMemory": "0" or "1".
Status ApplyMemoryPlanOption(const std::string& key, const std::string& value, MemoryPlanOptions* options);

struct StrategyResult {
  std::string strategy;
  uint64_t feature_map_bytes = 0;
};

struct MemoryPlan {
  // Parallel to the input buffers: byte offset inside the buffer's own segment (by kind) and aligned size (an
  // alias: its own size, unaligned, at an offset that need not be aligned).
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> aligned_sizes;
  // Parallel to the input buffers: index of the buffer whose memory this one took over in place, or -1.
  std::vector<int64_t> inplace_of;
  uint64_t alignment = 512;
  uint64_t feature_map_bytes = 0;
  uint64_t graph_input_bytes = 0;
  uint64_t graph_output_bytes = 0;
  // Max over steps of the aligned bytes of live feature maps, an in-place pair counted once (the pairs reuse
  // accepts, also when reuse is disabled, so the bound depends on the lifetimes alone).
  uint64_t feature_map_lower_bound_bytes = 0;
  std::string strategy;  // the winner; "no_reuse" when reuse is disabled
  std::vector<StrategyResult> tried;

  // Checks the plan against the buffers it was made from: offsets aligned and inside their segment; feature
  // maps with overlapping lifetimes disjoint in memory unless joined by an accepted in-place chain (then at one
  // offset); graph input and output ranges disjoint from each other whatever their lifetimes; each alias at its
  // parent's offset + alias_offset, inside the parent, live only while it is, disjoint from its siblings; a
  // parent taken over in place only after its aliases' last reads.
  Status Verify(const std::vector<PlanBuffer>& buffers) const;
};

// Fails with InvalidArgument on duplicate ids, a negative or inverted lifetime, an unknown in-place source, an
// alias that breaks the rules of PlanBuffer::alias_of, a size too large to align (total over 2^62 bytes), or an
// alignment that is not a power of two up to 2^30.
// Cost: O(n log n + n * live set * log n) per strategy; greedy_by_area repeats it up to 16 times, fewer for big n.
StatusOr<MemoryPlan> PlanMemory(const std::vector<PlanBuffer>& buffers, const MemoryPlanOptions& options = {});

}  // namespace ge::compiler
