// Raw memory from the OS for MemoryPool: heap blocks for small sizes, mmap for large ones (with
// madvise(MADV_HUGEPAGE) so transparent huge pages can back them), and MAP_HUGETLB 1 GB pages on request.
// Stateless and thread-safe.
#pragma once
#include <cstddef>

#include "base/status.h"

namespace ge::rt {

enum class PageKind : unsigned char {
  kHeap,    // posix_memalign
  kMapped,  // anonymous mmap, 4 KB pages (transparent huge pages advised when large)
  kHuge1G,  // MAP_HUGETLB | MAP_HUGE_1GB
};

struct PageBlock {
  void* ptr = nullptr;       // aligned start handed to the user
  void* map_base = nullptr;  // what to munmap/free
  size_t map_bytes = 0;      // bytes reserved from the OS
  PageKind kind = PageKind::kHeap;
};

inline constexpr size_t kOneGiB = size_t{1} << 30;

// |alignment| is a power of two.
StatusOr<PageBlock> AllocHeap(size_t bytes, size_t alignment);
StatusOr<PageBlock> AllocMapped(size_t bytes, size_t alignment, bool advise_huge);
// Fails with ResourceExhausted when the system has no free 1 GB pages.
StatusOr<PageBlock> AllocHuge1G(size_t bytes);
void ReleasePages(const PageBlock& block);

}  // namespace ge::rt
