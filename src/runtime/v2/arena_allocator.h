// ArenaAllocator: runtime v2's memory for values above min_bytes (4 KiB), carved from a few device segments with
// best-fit placement, splitting and coalescing; smaller requests go to another allocator (a CachingAllocator: a
// handful of classes up to 4 KiB, which also keeps the small values that live across runs, memoized shapes, out of
// the segments).
//
// Why not size classes for these values: under shape churn (a decoder run at lengths 1..256) a cache of blocks per
// size class keeps blocks of many classes, since a block of one class serves only requests close to its size, and
// it goes on taking new ones long after warm-up. In a segment a freed range coalesces with its free neighbours and
// serves any smaller request, and every value of a run dies by the run's end, so fragmentation does not carry from
// one run to the next: the memory held follows the largest working set seen (with that run's fragmentation), not
// the number of distinct shapes.
//
// Placement: the smallest free range that fits, at its low end, so touched pages stay at the bottom of a segment.
// Block sizes are multiples of granule (512 B: the classes of AllocatorFront, which may keep arena blocks up to
// 64 KiB). A segment is mapped when nothing fits: max(request, segment_granule) rounded to segment_granule.
// Run boundaries (EndRun, called by the owner once a run's values are released):
//   grow:   two or more segments wholly free are replaced by one of their summed size (so the arena converges to one
//           segment sized for the largest run; values that outlive runs, e.g. fixed-size ones allocated at load,
//           pin their segment, which stays);
//   shrink: at the end of every shrink_window runs, a wholly free segment larger than twice the largest in-use
//           peak of the last two windows plus a segment granule is replaced by one of 1.25 times that peak.
// A device allocation that fails is retried once after releasing the wholly free segments.
//
// Threading: thread-safe (one mutex). Ownership: segments come from |device| (not owned, outlives the allocator);
// |small| is owned; every block handed out must be freed before destruction, which releases the segments. The
// MemBlock a caller gets is owned by the allocator until it is freed; a block freed twice is counted and ignored
// while its record is not reused.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "rt/device.h"
#include "runtime/v2/allocator.h"

namespace ge::runtime::v2 {

struct ArenaAllocatorOptions {
  rt::MemType mem_type = rt::MemType::kDevice;
  size_t min_bytes = size_t{4} << 10;        // requests of more than this are served by the arena
  size_t granule = 512;                      // block sizes and offsets: multiples of this (a power of two, >= 64)
  size_t segment_granule = size_t{2} << 20;  // segment sizes: multiples of this
  size_t shrink_window = 64;                 // runs (EndRun calls) the shrink rule looks back over
};

struct ArenaAllocatorStats {
  size_t segment_bytes = 0;  // mapped from the device
  size_t segments = 0;
  size_t touched_bytes = 0;  // per segment the highest end of a block handed out since its mapping, summed:
                             // what the arena can have made resident
  size_t in_use_bytes = 0;   // arena blocks handed out (granule-rounded)
  size_t peak_in_use_bytes = 0;
  size_t peak_segment_bytes = 0;
  uint64_t segments_mapped = 0;
  uint64_t segments_released = 0;
  uint64_t runs = 0;  // EndRun calls
  uint64_t failed = 0;
  uint64_t bad_frees = 0;
};

class ArenaAllocator final : public Allocator {
 public:
  ArenaAllocator(rt::Device* device, std::unique_ptr<Allocator> small, ArenaAllocatorOptions options);
  ~ArenaAllocator() override;
  ArenaAllocator(const ArenaAllocator&) = delete;
  ArenaAllocator& operator=(const ArenaAllocator&) = delete;

  StatusOr<MemBlock*> Malloc(size_t bytes) override;
  void Free(MemBlock* block) override;  // nullptr: no-op
  // A run ended: applies the grow and shrink rules above to the segments wholly free now.
  void EndRun();

  ArenaAllocatorStats stats() const;
  Allocator* small() const { return small_.get(); }
  const ArenaAllocatorOptions& options() const { return options_; }

 private:
  struct Block;
  struct Segment;

  // All below: guarded by mu_.
  Block* BestFitLocked(size_t bytes) const;
  Block* TakeLocked(Block* free_block, size_t bytes);  // marks it used, splitting off the rest
  void LinkFreeLocked(Block* b);
  void UnlinkFreeLocked(Block* b);
  Block* NewBlockLocked();
  void RecycleLocked(Block* b);
  StatusOr<Segment*> MapLocked(size_t bytes);
  void ReleaseLocked(Segment* s);
  bool ReleaseFreeSegmentsLocked();  // returns whether any was released

  rt::Device* const device_;
  const std::unique_ptr<Allocator> small_;
  const ArenaAllocatorOptions options_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Segment>> segments_;
  Block* free_head_ = nullptr;        // free blocks of every segment
  std::vector<Block*> spare_blocks_;  // bookkeeping records kept for reuse
  size_t run_peak_ = 0;               // in-use peak of the current run
  size_t window_peak_ = 0;            // in-use peak of this shrink window so far
  size_t prev_window_peak_ = 0;       // in-use peak of the last closed window
  uint64_t window_runs_ = 0;
  ArenaAllocatorStats stats_;
};

}  // namespace ge::runtime::v2
