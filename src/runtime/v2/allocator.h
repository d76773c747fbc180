// Memory for values whose size is known only at run time. Blocks come from an Allocator the execution owns;
// CachingAllocator (caching_allocator.h) keeps freed blocks for reuse under a byte cap.
// Threading: an Allocator may be called from several kernels at once (multi-thread executor): implementations
// are thread-safe.
#pragma once
#include <cstddef>

#include "base/status.h"

namespace ge::runtime::v2 {

struct MemBlock {
  void* addr = nullptr;
  size_t size = 0;  // usable bytes (>= what was asked)
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // A block of at least |bytes| (64-byte aligned; bytes 0 gives a valid empty block); ResourceExhausted naming
  // the size when no memory is left within the cap.
  virtual StatusOr<MemBlock*> Malloc(size_t bytes) = 0;
  virtual void Free(MemBlock* block) = 0;
};

}  // namespace ge::runtime::v2
