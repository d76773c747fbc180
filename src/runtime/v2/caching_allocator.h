// CachingAllocator: the Allocator runtime v2 executions take memory from for values whose size is known only at
// run time. Freed blocks stay cached in free lists per size class and are handed out again by size, so a model run
// over and over at changing shapes stops calling the device once its working sets have been seen; a byte cap keeps
// the memory it holds (in use + cached) bounded under shape churn.
//
// Size classes. Up to 64 KiB a request is rounded up to a multiple of 512 B (128 classes, at most 511 B of slack,
// the granularity GE's own memory assigners use). Above, classes are geometric, four per power of two (2^k times
// 1, 1.25, 1.5, 1.75): at most 25% slack, and a value whose size scales with a dynamic dim spreads over a few
// classes per doubling rather than one class per length, so the blocks earlier shapes left behind fit later
// shapes. (512 B steps up to 1 MiB and 2 MiB steps above were measured too: uncapped, a decoder run at random
// lengths 1..256 kept allocating after warm-up and its cache grew 18% from run 100 to run 2,000; with these
// classes it settles, see the churn tests.) A request is served, in order, by the most recently freed block of
// its own class (the fast path: O(1), a few tens of nanoseconds), else by the smallest cached block of a larger
// class up to fit_ratio times its class size, else by the device.
//
// The cap (ge.exec.staticMemoryPolicy semantics, ../../shared/reference/ge_facts.md §1) is cap_bytes or, by
// default, three times the peak of in-use bytes (peak_cap_factor): the cache then holds at most twice the largest
// working set seen, with no number from the user. (Twice the peak was measured too: in the churn test it kept
// releasing and re-allocating blocks, about one device allocation every three runs.) When a device allocation
// would take in-use + cached bytes above the cap, cached blocks are released first, least recently freed first:
// under churn the stale sizes are those of shapes not seen lately, while the blocks the current shapes keep
// reusing (including the large ones that serve smaller requests through fit_ratio) stay. Releasing largest first
// would instead drop exactly those blocks and make the next large shape map and fault in its pages again. If the
// total is still above the cap once nothing is cached:
//   kFail   (policies 0, 1, 2: dynamic-shape memory is not expandable; the cap acts as the device limit)
//           the allocation fails with ResourceExhausted naming the request, bytes in use, cached and the cap;
//   kExpand (policies 3 and 4: "expandable memory for dynamic shape")
//           the allocation succeeds above the cap (the running shapes need it) and every block freed while the
//           total is above the cap goes back to the device instead of the cache, so memory shrinks back to the
//           cap after the peak.
// Policies 1 and 2 only change how static graphs' feature maps are shared, which this allocator does not serve.
// The cap that follows the peak never refuses: it rises with a new peak. A device allocation that fails (the
// device's own limit) is retried once after releasing every cached block.
//
// Threading: thread-safe (one mutex; device calls are made outside it). Ownership: blocks come from |device|
// (not owned, outlives the allocator); every block handed out must be freed before the allocator is destroyed,
// which releases what is cached. The MemBlock a caller gets is owned by the allocator until it is freed.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "base/status.h"
#include "rt/device.h"
#include "runtime/v2/allocator.h"

namespace ge::runtime::v2 {

enum class OverCapPolicy : int {
  kFail,    // in use + cached never exceed the cap: ResourceExhausted
  kExpand,  // grow past the cap while live blocks need it; blocks freed above the cap are released
};

// ge.exec.staticMemoryPolicy ("" means 0, the default) to the over-cap behaviour of dynamic-shape memory:
// 0, 1, 2 -> kFail; 3, 4 -> kExpand; anything else InvalidArgument.
StatusOr<OverCapPolicy> OverCapPolicyFromStaticMemoryPolicy(std::string_view value);

struct CachingAllocatorOptions {
  rt::MemType mem_type = rt::MemType::kDevice;
  size_t cap_bytes = 0;  // 0: the cap follows the working set (peak_cap_factor)
  OverCapPolicy over_cap = OverCapPolicy::kFail;
  // With cap_bytes 0: cap = peak_cap_factor x the peak of in-use bytes so far, so the cache holds at most
  // (factor - 1) x the largest working set seen, whatever the user's shapes; a new peak raises it (never fails).
  // 0 too: no cap at all (cached blocks are released only by Trim or a failing device allocation).
  size_t peak_cap_factor = 3;
  // A cached block of a larger class may serve a request if its size is at most fit_ratio times the request's
  // class size; 1: exact class only.
  size_t fit_ratio = 2;
};

struct CachingAllocatorStats {
  size_t cap_bytes = 0;           // the cap in force (cap_bytes, or the one following the peak); 0: none
  size_t in_use_bytes = 0;        // sizes (rounded to their class) of blocks handed out and not freed
  size_t cached_bytes = 0;        // sizes of freed blocks kept for reuse
  size_t peak_in_use_bytes = 0;
  size_t peak_total_bytes = 0;    // high-water mark of in_use + cached: what the allocator held from the device
  size_t live_blocks = 0;
  size_t cached_blocks = 0;
  uint64_t hits = 0;              // requests served by a cached block
  uint64_t misses = 0;            // requests that allocated from the device
  uint64_t released_blocks = 0;   // blocks returned to the device (cap, Trim, kExpand frees, device retries)
  uint64_t failed = 0;            // requests refused (cap or device)
  uint64_t bad_frees = 0;         // Free of a block not handed out by this allocator, or freed twice (ignored)
};

class CachingAllocator final : public Allocator {
 public:
  // Rounded block size of a request (what MemBlock::size will be); 0 counts as 1. bytes <= SIZE_MAX / 4.
  static size_t ClassBytes(size_t bytes);

  CachingAllocator(rt::Device* device, CachingAllocatorOptions options);
  ~CachingAllocator() override;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  StatusOr<MemBlock*> Malloc(size_t bytes) override;
  void Free(MemBlock* block) override;  // nullptr: no-op

  // Releases every cached block to the device; returns the bytes released.
  size_t Trim();
  CachingAllocatorStats stats() const;
  const CachingAllocatorOptions& options() const { return options_; }

 private:
  struct Block;
  struct ClassList {  // cached blocks of one class, most recently freed first
    Block* head = nullptr;
  };
  static constexpr size_t kSmallQuantum = 512;
  static constexpr size_t kSmallLimit = size_t{64} << 10;              // classes 1..128: multiples of 512 B
  static constexpr size_t kNumClasses = kSmallLimit / kSmallQuantum + 1 + (62 - 16) * 4;
  static constexpr size_t kBitWords = (kNumClasses + 63) / 64;
  static size_t ClassIndex(size_t class_bytes);  // class_bytes: a ClassBytes() value
  static size_t IndexBytes(size_t index);

  // All below: guarded by mu_.
  Block* TakeCachedLocked(size_t class_bytes);
  void CacheLocked(Block* b);
  void UncacheLocked(Block* b);
  // Uncaches least recently freed blocks until in_use + cached + extra <= cap (all: every block) or nothing is
  // cached; returns them chained through lru_older and adds their bytes to *released.
  Block* EvictLocked(size_t extra, size_t cap, bool all, size_t* released);
  // The cap for a total that adds |extra| in-use bytes; SIZE_MAX when there is none.
  size_t CapLocked(size_t extra) const;
  // Device frees, under mu_: memory the accounting no longer counts is back on the device before another
  // reservation can use the room (otherwise concurrent misses overshoot the device's cap).
  void ReleaseChain(Block* chain);
  Status OverCap(size_t bytes, size_t class_bytes) const;

  rt::Device* const device_;
  const CachingAllocatorOptions options_;
  mutable std::mutex mu_;
  std::array<ClassList, kNumClasses> classes_{};     // by ClassIndex
  std::array<uint64_t, kBitWords> nonempty_{};        // bit i: classes_[i] has a cached block
  Block* lru_newest_ = nullptr;
  Block* lru_oldest_ = nullptr;
  CachingAllocatorStats stats_;
};

}  // namespace ge::runtime::v2
