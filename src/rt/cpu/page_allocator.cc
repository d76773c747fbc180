#include "rt/cpu/page_allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cstdint>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

namespace ge::rt {
namespace {
size_t RoundUp(size_t v, size_t a) { return (v + a - 1) / a * a; }
size_t PageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

StatusOr<PageBlock> AllocHeap(size_t bytes, size_t alignment) {
  void* p = nullptr;
  int rc = posix_memalign(&p, alignment, RoundUp(bytes, alignment));
  if (rc != 0 || p == nullptr) {
    return ResourceExhausted("out of host memory allocating " + std::to_string(bytes) + " bytes");
  }
  return PageBlock{p, p, bytes, PageKind::kHeap};
}

StatusOr<PageBlock> AllocMapped(size_t bytes, size_t alignment, bool advise_huge) {
  const size_t page = PageSize();
  size_t size = RoundUp(bytes, page);
  size_t extra = alignment > page ? alignment : 0;  // over-map, then trim to the alignment
  void* base = mmap(nullptr, size + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    return ResourceExhausted("mmap of " + std::to_string(size) + " bytes failed: " + std::strerror(errno));
  }
  auto b = reinterpret_cast<uintptr_t>(base);
  uintptr_t aligned = extra ? RoundUp(b, alignment) : b;
  if (extra) {
    if (aligned > b) munmap(base, aligned - b);
    size_t tail = (b + size + extra) - (aligned + size);
    if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
  }
  void* p = reinterpret_cast<void*>(aligned);
  // Advisory only: the kernel may ignore it (THP off), so failure is not an error.
  if (advise_huge) (void)madvise(p, size, MADV_HUGEPAGE);
  return PageBlock{p, p, size, PageKind::kMapped};
}

StatusOr<PageBlock> AllocHuge1G(size_t bytes) {
  size_t size = RoundUp(bytes, kOneGiB);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_1GB,
                 -1, 0);
  if (p == MAP_FAILED) {
    return ResourceExhausted("no 1 GB huge pages for " + std::to_string(size) + " bytes (" + std::strerror(errno) +
                             "); reserve them via /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages");
  }
  return PageBlock{p, p, size, PageKind::kHuge1G};
}

void ReleasePages(const PageBlock& block) {
  if (block.ptr == nullptr) return;
  if (block.kind == PageKind::kHeap) {
    std::free(block.map_base);
  } else {
    munmap(block.map_base, block.map_bytes);
  }
}

}  // namespace ge::rt
