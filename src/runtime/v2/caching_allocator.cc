#include "runtime/v2/caching_allocator.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace ge::runtime::v2 {
namespace {

constexpr size_t kMaxRequest = SIZE_MAX >> 2;

size_t RoundUp(size_t v, size_t quantum) { return (v + quantum - 1) / quantum * quantum; }

size_t SaturatingMul(size_t a, size_t b) { return (b != 0 && a > SIZE_MAX / b) ? SIZE_MAX : a * b; }

}  // namespace

// A block's bookkeeping lives on the host, never in the block: device memory need not be host-accessible.
struct CachingAllocator::Block : MemBlock {
  const CachingAllocator* owner = nullptr;
  void* device_addr = nullptr;
  size_t bytes = 0;  // class bytes
  bool cached = false;
  Block* class_prev = nullptr;  // neighbours in its class list (cached blocks only)
  Block* class_next = nullptr;
  Block* lru_newer = nullptr;   // neighbours in the LRU list (cached blocks only); lru_older also chains
  Block* lru_older = nullptr;   // released blocks between EvictLocked and ReleaseChain (both under mu_)
};

StatusOr<OverCapPolicy> OverCapPolicyFromStaticMemoryPolicy(std::string_view value) {
  if (value.empty() || value == "0" || value == "1" || value == "2") return OverCapPolicy::kFail;
  if (value == "3" || value == "4") return OverCapPolicy::kExpand;
  return InvalidArgument("ge.exec.staticMemoryPolicy must be 0, 1, 2, 3 or 4, got '" + std::string(value) + "'");
}

size_t CachingAllocator::ClassBytes(size_t bytes) {
  bytes = std::min(std::max<size_t>(bytes, 1), kMaxRequest);
  if (bytes <= kSmallLimit) return RoundUp(bytes, kSmallQuantum);
  const int k = 63 - __builtin_clzll(bytes);  // 2^k <= bytes < 2^(k+1)
  return RoundUp(bytes, size_t{1} << (k - 2));
}

size_t CachingAllocator::ClassIndex(size_t class_bytes) {
  if (class_bytes <= kSmallLimit) return class_bytes / kSmallQuantum;
  const int k = 63 - __builtin_clzll(class_bytes);
  const size_t step = (class_bytes >> (k - 2)) - 4;  // 0..3
  return kSmallLimit / kSmallQuantum + static_cast<size_t>(k - 16) * 4 + step;
}

size_t CachingAllocator::IndexBytes(size_t index) {
  constexpr size_t kLastSmall = kSmallLimit / kSmallQuantum;
  if (index <= kLastSmall) return index * kSmallQuantum;
  const size_t k = 16 + (index - kLastSmall) / 4;
  return (size_t{1} << k) + ((index - kLastSmall) % 4) * (size_t{1} << (k - 2));
}

CachingAllocator::CachingAllocator(rt::Device* device, CachingAllocatorOptions options)
    : device_(device), options_(options) {}

CachingAllocator::~CachingAllocator() { Trim(); }

StatusOr<MemBlock*> CachingAllocator::Malloc(size_t bytes) {
  if (bytes > kMaxRequest) {
    std::lock_guard<std::mutex> lk(mu_);
    ++stats_.failed;
    return ResourceExhausted("caching allocator: a request of " + std::to_string(bytes) + " bytes is absurd");
  }
  const size_t class_bytes = ClassBytes(bytes);
  Block* evicted = nullptr;
  Status refused;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (Block* b = TakeCachedLocked(class_bytes)) {
      b->cached = false;
      b->addr = b->device_addr;
      b->size = b->bytes;
      stats_.in_use_bytes += b->bytes;
      ++stats_.live_blocks;
      ++stats_.hits;
      stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
      return static_cast<MemBlock*>(b);
    }
    const size_t cap = CapLocked(class_bytes);
    if (stats_.in_use_bytes + stats_.cached_bytes + class_bytes > cap) {
      size_t released = 0;
      evicted = EvictLocked(class_bytes, cap, /*all=*/false, &released);
      // Under mu_: the device must have the evicted memory back before another thread's reservation, which the
      // accounting now allows, reaches it (the device's peak stays within the cap).
      ReleaseChain(evicted);
      if (stats_.in_use_bytes + stats_.cached_bytes + class_bytes > cap &&
          options_.over_cap == OverCapPolicy::kFail) {
        ++stats_.failed;
        refused = OverCap(bytes, class_bytes);
      }
    }
    if (refused.ok()) {
      // Reserved before calling the device so that concurrent misses cannot overshoot the cap together.
      stats_.in_use_bytes += class_bytes;
      ++stats_.live_blocks;
      ++stats_.misses;
    }
  }
  if (!refused.ok()) return refused;
  StatusOr<void*> mem = device_->Malloc(options_.mem_type, class_bytes, rt::kDefaultAlignment);
  if (!mem.ok()) {
    size_t released = 0;
    Block* all;
    {
      std::lock_guard<std::mutex> lk(mu_);
      all = EvictLocked(0, 0, /*all=*/true, &released);
      ReleaseChain(all);
    }
    if (all != nullptr) mem = device_->Malloc(options_.mem_type, class_bytes, rt::kDefaultAlignment);
  }
  std::lock_guard<std::mutex> lk(mu_);
  if (!mem.ok()) {
    stats_.in_use_bytes -= class_bytes;
    --stats_.live_blocks;
    ++stats_.failed;
    return mem.status().WithContext("caching allocator: " + std::to_string(bytes) + " bytes (block of " +
                                    std::to_string(class_bytes) + ")");
  }
  auto* b = new Block();
  b->owner = this;
  b->device_addr = b->addr = *mem;
  b->bytes = b->size = class_bytes;
  stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
  stats_.peak_total_bytes = std::max(stats_.peak_total_bytes, stats_.in_use_bytes + stats_.cached_bytes);
  return static_cast<MemBlock*>(b);
}

void CachingAllocator::Free(MemBlock* block) {
  if (block == nullptr) return;
  auto* b = static_cast<Block*>(block);
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (b->owner != this || b->cached) {
      ++stats_.bad_frees;
      return;
    }
    stats_.in_use_bytes -= b->bytes;
    --stats_.live_blocks;
    if (stats_.in_use_bytes + stats_.cached_bytes + b->bytes <= CapLocked(0)) {
      CacheLocked(b);
      return;
    }
    // Only an expanded total gets here (kFail never lets it pass the cap): memory shrinks back to the cap.
    ++stats_.released_blocks;
    b->lru_older = nullptr;
    ReleaseChain(b);
  }
}

size_t CachingAllocator::Trim() {
  size_t released = 0;
  Block* chain;
  {
    std::lock_guard<std::mutex> lk(mu_);
    chain = EvictLocked(0, 0, /*all=*/true, &released);
    ReleaseChain(chain);
  }
  return released;
}

CachingAllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  CachingAllocatorStats s = stats_;
  const size_t cap = CapLocked(0);
  s.cap_bytes = cap == SIZE_MAX ? 0 : cap;
  return s;
}

size_t CachingAllocator::CapLocked(size_t extra) const {
  if (options_.cap_bytes != 0) return options_.cap_bytes;
  if (options_.peak_cap_factor == 0) return SIZE_MAX;
  return SaturatingMul(std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes + extra), options_.peak_cap_factor);
}

CachingAllocator::Block* CachingAllocator::TakeCachedLocked(size_t class_bytes) {
  const size_t index = ClassIndex(class_bytes);
  Block* b = classes_[index].head;
  if (b == nullptr && options_.fit_ratio > 1) {
    // The first non-empty class in (index, hi]: hi is the largest class within fit_ratio x class_bytes.
    const size_t limit = std::min(SaturatingMul(class_bytes, options_.fit_ratio), kMaxRequest);
    size_t hi = ClassIndex(ClassBytes(limit));
    if (IndexBytes(hi) > limit) --hi;
    const size_t lo = index + 1;
    for (size_t w = lo / 64; w <= hi / 64 && w < kBitWords; ++w) {
      uint64_t bits = nonempty_[w];
      if (w == lo / 64) bits &= ~uint64_t{0} << (lo % 64);
      if (bits == 0) continue;
      const size_t found = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
      if (found <= hi) b = classes_[found].head;
      break;
    }
  }
  if (b != nullptr) UncacheLocked(b);
  return b;
}

void CachingAllocator::CacheLocked(Block* b) {
  const size_t index = ClassIndex(b->bytes);
  ClassList& list = classes_[index];
  nonempty_[index / 64] |= uint64_t{1} << (index % 64);
  b->cached = true;
  b->class_prev = nullptr;
  b->class_next = list.head;
  if (list.head != nullptr) list.head->class_prev = b;
  list.head = b;
  b->lru_newer = nullptr;
  b->lru_older = lru_newest_;
  if (lru_newest_ != nullptr) lru_newest_->lru_newer = b;
  lru_newest_ = b;
  if (lru_oldest_ == nullptr) lru_oldest_ = b;
  stats_.cached_bytes += b->bytes;
  ++stats_.cached_blocks;
}

void CachingAllocator::UncacheLocked(Block* b) {
  if (b->class_prev != nullptr) {
    b->class_prev->class_next = b->class_next;
  } else {
    const size_t index = ClassIndex(b->bytes);
    classes_[index].head = b->class_next;
    if (b->class_next == nullptr) nonempty_[index / 64] &= ~(uint64_t{1} << (index % 64));
  }
  if (b->class_next != nullptr) b->class_next->class_prev = b->class_prev;
  (b->lru_newer != nullptr ? b->lru_newer->lru_older : lru_newest_) = b->lru_older;
  (b->lru_older != nullptr ? b->lru_older->lru_newer : lru_oldest_) = b->lru_newer;
  b->class_prev = b->class_next = b->lru_newer = b->lru_older = nullptr;
  b->cached = false;
  stats_.cached_bytes -= b->bytes;
  --stats_.cached_blocks;
}

CachingAllocator::Block* CachingAllocator::EvictLocked(size_t extra, size_t cap, bool all, size_t* released) {
  Block* chain = nullptr;
  while (lru_oldest_ != nullptr && (all || stats_.in_use_bytes + stats_.cached_bytes + extra > cap)) {
    Block* b = lru_oldest_;
    UncacheLocked(b);
    b->lru_older = chain;
    chain = b;
    *released += b->bytes;
    ++stats_.released_blocks;
  }
  return chain;
}

void CachingAllocator::ReleaseChain(Block* chain) {
  while (chain != nullptr) {
    Block* next = chain->lru_older;
    device_->Free(options_.mem_type, chain->device_addr).IgnoreError();
    delete chain;
    chain = next;
  }
}

Status CachingAllocator::OverCap(size_t bytes, size_t class_bytes) const {
  return ResourceExhausted("caching allocator: " + std::to_string(bytes) + " bytes (block of " +
                           std::to_string(class_bytes) + ") would exceed the cap of " +
                           std::to_string(options_.cap_bytes) + " bytes: " + std::to_string(stats_.in_use_bytes) +
                           " in use, " + std::to_string(stats_.cached_bytes) +
                           " cached (ge.exec.staticMemoryPolicy 3 or 4 lets dynamic-shape memory expand)");
}

}  // namespace ge::runtime::v2
