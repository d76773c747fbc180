#include "rt/cpu/memory_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ge::rt {
namespace {
bool IsPowerOfTwo(size_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

MemoryPool::MemoryPool(MemType type, MemoryPoolOptions options) : type_(type), options_(options) {
  stats_.limit_bytes = options_.limit_bytes;
}

MemoryPool::~MemoryPool() {
  for (auto& [ptr, block] : blocks_) {
    if (block.pinned) munlock(block.pages.ptr, block.pages.map_bytes);
    ReleasePages(block.pages);
  }
}

StatusOr<PageBlock> MemoryPool::AllocPages(size_t bytes, size_t alignment) {
  const bool huge = options_.huge_page_policy != HugePagePolicy::kOff && bytes >= options_.huge_page_min_bytes;
  if (huge && alignment <= kOneGiB) {
    StatusOr<PageBlock> b = AllocHuge1G(bytes);
    if (b.ok() || options_.huge_page_policy == HugePagePolicy::kOnly1G) return b;
    Warn(b.status().WithContext(std::string(MemTypeName(type_)) + " pool: falling back to 4 KB pages"));
  }
  // Pinned blocks get whole pages so that munlock of one block never unpins a neighbour.
  if (options_.pin || bytes >= options_.mapped_min_bytes) {
    return AllocMapped(bytes, alignment, bytes >= options_.mapped_min_bytes);
  }
  return AllocHeap(bytes, alignment);
}

StatusOr<void*> MemoryPool::Allocate(size_t bytes, size_t alignment) {
  if (!IsPowerOfTwo(alignment)) {
    return InvalidArgument("alignment must be a power of two, got " + std::to_string(alignment));
  }
  alignment = std::max(alignment, kDefaultAlignment);
  if (bytes > (SIZE_MAX >> 2)) return ResourceExhausted("allocation of " + std::to_string(bytes) + " bytes is absurd");
  const size_t charged = (std::max<size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  {
    // Reserve first so that concurrent allocations cannot overshoot the limit together.
    std::lock_guard<std::mutex> lk(mu_);
    if (options_.limit_bytes != 0 && charged > options_.limit_bytes - std::min(options_.limit_bytes, stats_.in_use_bytes)) {
      ++stats_.failed_count;
      return ResourceExhausted(std::string(MemTypeName(type_)) + " memory limit exceeded: requested " +
                               std::to_string(bytes) + " bytes, " + std::to_string(stats_.in_use_bytes) + " of " +
                               std::to_string(options_.limit_bytes) + " in use");
    }
    stats_.in_use_bytes += charged;
  }
  StatusOr<PageBlock> pages = AllocPages(charged, alignment);
  Block block{pages.ok() ? *pages : PageBlock{}, charged, false};
  if (pages.ok() && options_.pin) {
    if (mlock(block.pages.ptr, block.pages.map_bytes) == 0) {
      block.pinned = true;
    } else {
      Warn(Status(StatusCode::kResourceExhausted,
                  std::string("rdma pool: mlock of ") + std::to_string(block.pages.map_bytes) +
                      " bytes not permitted (" + std::strerror(errno) + "); block is not pinned (raise RLIMIT_MEMLOCK)"));
    }
  }
  std::lock_guard<std::mutex> lk(mu_);
  if (!pages.ok()) {
    stats_.in_use_bytes -= charged;
    ++stats_.failed_count;
    return pages.status().WithContext(std::string(MemTypeName(type_)) + " pool");
  }
  stats_.peak_bytes = std::max(stats_.peak_bytes, stats_.in_use_bytes);
  stats_.mapped_bytes += block.pages.map_bytes;
  if (block.pinned) stats_.pinned_bytes += block.pages.map_bytes;
  if (block.pages.kind == PageKind::kHuge1G) stats_.huge_1g_bytes += block.pages.map_bytes;
  ++stats_.live_blocks;
  ++stats_.alloc_count;
  void* ptr = block.pages.ptr;
  blocks_.emplace(ptr, block);
  return ptr;
}

Status MemoryPool::Free(void* ptr) {
  if (ptr == nullptr) return Status::Ok();
  Block block;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = blocks_.find(ptr);
    if (it == blocks_.end()) {
      return InvalidArgument(std::string(MemTypeName(type_)) + " pool: free of a pointer it did not allocate");
    }
    block = it->second;
    blocks_.erase(it);
    stats_.in_use_bytes -= block.charged;
    stats_.mapped_bytes -= block.pages.map_bytes;
    if (block.pinned) stats_.pinned_bytes -= block.pages.map_bytes;
    if (block.pages.kind == PageKind::kHuge1G) stats_.huge_1g_bytes -= block.pages.map_bytes;
    --stats_.live_blocks;
  }
  if (block.pinned) munlock(block.pages.ptr, block.pages.map_bytes);
  ReleasePages(block.pages);
  return Status::Ok();
}

MemoryStats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stats_;
}

void MemoryPool::Warn(Status s) {
  std::lock_guard<std::mutex> lk(mu_);
  warning_ = std::move(s);
}

Status MemoryPool::TakeWarning() {
  std::lock_guard<std::mutex> lk(mu_);
  Status s = std::move(warning_);
  warning_ = Status::Ok();
  return s;
}

}  // namespace ge::rt
