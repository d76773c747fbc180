// One memory pool per MemType: a byte limit, statistics, aligned blocks, and the huge-page policy
// (GE's ge.variableUse1gHugePage). Thread-safe.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "base/status.h"
#include "rt/device.h"
#include "rt/mem_type.h"
#include "rt/cpu/page_allocator.h"

namespace ge::rt {

enum class HugePagePolicy : int {
  kOff = 0,        // no 1 GB pages; large blocks get madvise(MADV_HUGEPAGE)
  kOnly1G = 1,     // blocks >= huge_page_min_bytes must come from 1 GB pages, else ResourceExhausted
  kPrefer1G = 2,   // try 1 GB pages for those blocks, fall back to advised 4 KB pages
};

struct MemoryPoolOptions {
  size_t limit_bytes = 0;  // 0: unlimited
  HugePagePolicy huge_page_policy = HugePagePolicy::kOff;
  size_t huge_page_min_bytes = kOneGiB;    // blocks at least this large follow huge_page_policy
  size_t mapped_min_bytes = size_t{2} << 20;  // blocks at least this large are mmap'ed and THP-advised
  bool pin = false;  // mlock every block (kRdma); falls back to unpinned memory with a warning
};


class MemoryPool {
 public:
  MemoryPool(MemType type, MemoryPoolOptions options);
  ~MemoryPool();  // returns blocks still live to the OS
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // A block of at least |bytes| bytes aligned to max(alignment, 64); |alignment| must be a power of two.
  // ResourceExhausted when the limit would be exceeded or the OS refuses.
  StatusOr<void*> Allocate(size_t bytes, size_t alignment = kDefaultAlignment);
  // InvalidArgument for a pointer this pool did not hand out (or already freed).
  Status Free(void* ptr);

  MemType type() const { return type_; }
  const MemoryPoolOptions& options() const { return options_; }
  MemoryStats stats() const;
  // The most recent non-fatal problem (e.g. mlock not permitted), cleared by the call; OK when none.
  Status TakeWarning();

 private:
  struct Block {
    PageBlock pages;
    size_t charged = 0;
    bool pinned = false;
  };
  StatusOr<PageBlock> AllocPages(size_t bytes, size_t alignment);
  void Warn(Status s);

  const MemType type_;
  const MemoryPoolOptions options_;
  mutable std::mutex mu_;
  std::unordered_map<void*, Block> blocks_;
  MemoryStats stats_;
  Status warning_;
};

}  // namespace ge::rt
