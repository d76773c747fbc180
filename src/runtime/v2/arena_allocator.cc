#include "runtime/v2/arena_allocator.h"

#include <algorithm>
#include <string>

namespace ge::runtime::v2 {
namespace {

constexpr size_t kMaxRequest = SIZE_MAX >> 2;

size_t RoundUp(size_t v, size_t quantum) { return (v + quantum - 1) / quantum * quantum; }

}  // namespace

struct ArenaAllocator::Segment {
  void* base = nullptr;
  size_t bytes = 0;
  size_t used_bytes = 0;   // bytes of its blocks handed out
  size_t high_water = 0;   // highest end offset of a block handed out
  Block* first = nullptr;  // its blocks in address order, covering it
};

// Bookkeeping lives on the host, never in the segment: device memory need not be host-accessible.
struct ArenaAllocator::Block : MemBlock {
  Segment* segment = nullptr;
  size_t offset = 0;
  size_t bytes = 0;
  bool free = true;
  Block* prev = nullptr;  // address-order neighbours in its segment
  Block* next = nullptr;
  Block* free_prev = nullptr;  // the free list (free blocks only)
  Block* free_next = nullptr;
};

ArenaAllocator::ArenaAllocator(rt::Device* device, std::unique_ptr<Allocator> small, ArenaAllocatorOptions options)
    : device_(device), small_(std::move(small)), options_(options) {}

ArenaAllocator::~ArenaAllocator() {
  std::lock_guard<std::mutex> lk(mu_);
  while (!segments_.empty()) ReleaseLocked(segments_.back().get());
  for (Block* b : spare_blocks_) delete b;
}

StatusOr<MemBlock*> ArenaAllocator::Malloc(size_t bytes) {
  if (bytes <= options_.min_bytes) return small_->Malloc(bytes);
  std::lock_guard<std::mutex> lk(mu_);
  if (bytes > kMaxRequest) {
    ++stats_.failed;
    return ResourceExhausted("arena allocator: a request of " + std::to_string(bytes) + " bytes is absurd");
  }
  const size_t need = RoundUp(bytes, options_.granule);
  Block* fit = BestFitLocked(need);
  if (fit == nullptr) {
    StatusOr<Segment*> s = MapLocked(std::max(need, options_.segment_granule));
    if (!s.ok() && ReleaseFreeSegmentsLocked()) s = MapLocked(std::max(need, options_.segment_granule));
    if (!s.ok()) {
      ++stats_.failed;
      return s.status().WithContext("arena allocator: " + std::to_string(bytes) + " bytes");
    }
    fit = (*s)->first;
  }
  Block* b = TakeLocked(fit, need);
  stats_.in_use_bytes += b->bytes;
  Segment* seg = b->segment;
  seg->used_bytes += b->bytes;
  if (b->offset + b->bytes > seg->high_water) {
    stats_.touched_bytes += b->offset + b->bytes - seg->high_water;
    seg->high_water = b->offset + b->bytes;
  }
  stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
  run_peak_ = std::max(run_peak_, stats_.in_use_bytes);
  return static_cast<MemBlock*>(b);
}

void ArenaAllocator::Free(MemBlock* block) {
  if (block == nullptr) return;
  // Arena blocks are all larger than min_bytes (even once freed); the small allocator's blocks for requests up to
  // min_bytes are not (a CachingAllocator's class of at most 4 KiB is at most 4 KiB).
  if (block->size <= options_.min_bytes) {
    small_->Free(block);
    return;
  }
  std::lock_guard<std::mutex> lk(mu_);
  auto* b = static_cast<Block*>(block);
  // Only a block whose address lies in one of the segments is dereferenced as an arena block.
  const auto addr = reinterpret_cast<uintptr_t>(block->addr);
  const bool ours = std::any_of(segments_.begin(), segments_.end(), [&](const std::unique_ptr<Segment>& s) {
    const auto base = reinterpret_cast<uintptr_t>(s->base);
    return addr >= base && addr < base + s->bytes;
  });
  if (!ours || b->free) {
    ++stats_.bad_frees;
    return;
  }
  stats_.in_use_bytes -= b->bytes;
  b->segment->used_bytes -= b->bytes;
  // Coalesce with free neighbours: the survivor is the lowest of them.
  if (b->next != nullptr && b->next->free) {
    Block* n = b->next;
    UnlinkFreeLocked(n);
    b->bytes += n->bytes;
    b->next = n->next;
    if (b->next != nullptr) b->next->prev = b;
    RecycleLocked(n);
  }
  if (b->prev != nullptr && b->prev->free) {
    Block* p = b->prev;
    UnlinkFreeLocked(p);
    p->bytes += b->bytes;
    p->next = b->next;
    if (p->next != nullptr) p->next->prev = p;
    RecycleLocked(b);
    b = p;
  }
  LinkFreeLocked(b);
}

void ArenaAllocator::EndRun() {
  std::lock_guard<std::mutex> lk(mu_);
  ++stats_.runs;
  window_peak_ = std::max(window_peak_, run_peak_);
  run_peak_ = stats_.in_use_bytes;
  const bool window_closed = ++window_runs_ >= options_.shrink_window;
  size_t recent = 0;  // with window_closed: the in-use peak of the last two windows
  if (window_closed) {
    recent = std::max(prev_window_peak_, window_peak_);
    prev_window_peak_ = window_peak_;
    window_peak_ = 0;
    window_runs_ = 0;
  }
  std::vector<Segment*> free_segments;
  for (const auto& s : segments_) {
    if (s->used_bytes == 0) free_segments.push_back(s.get());
  }
  if (free_segments.size() >= 2) {
    size_t total = 0;
    for (Segment* s : free_segments) {
      total += s->bytes;
      ReleaseLocked(s);
    }
    // If the device refuses, the next run maps what it needs again.
    MapLocked(total).status().IgnoreError();
    return;
  }
  if (window_closed && free_segments.size() == 1) {
    Segment* s = free_segments[0];
    if (s->bytes > 2 * recent + options_.segment_granule) {
      ReleaseLocked(s);
      if (recent != 0) MapLocked(RoundUp(recent + recent / 4, options_.segment_granule)).status().IgnoreError();
    }
  }
}

ArenaAllocatorStats ArenaAllocator::stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stats_;
}

ArenaAllocator::Block* ArenaAllocator::BestFitLocked(size_t bytes) const {
  Block* best = nullptr;
  for (Block* b = free_head_; b != nullptr; b = b->free_next) {
    if (b->bytes >= bytes && (best == nullptr || b->bytes < best->bytes)) {
      best = b;
      if (b->bytes == bytes) break;
    }
  }
  return best;
}

ArenaAllocator::Block* ArenaAllocator::TakeLocked(Block* b, size_t bytes) {
  UnlinkFreeLocked(b);
  if (b->bytes > bytes) {
    Block* rest = NewBlockLocked();
    rest->segment = b->segment;
    rest->offset = b->offset + bytes;
    rest->bytes = b->bytes - bytes;
    rest->addr = static_cast<char*>(b->segment->base) + rest->offset;
    rest->prev = b;
    rest->next = b->next;
    if (rest->next != nullptr) rest->next->prev = rest;
    b->next = rest;
    b->bytes = bytes;
    LinkFreeLocked(rest);
  }
  b->free = false;
  b->addr = static_cast<char*>(b->segment->base) + b->offset;
  b->size = b->bytes;
  return b;
}

void ArenaAllocator::LinkFreeLocked(Block* b) {
  b->free = true;
  b->free_prev = nullptr;
  b->free_next = free_head_;
  if (free_head_ != nullptr) free_head_->free_prev = b;
  free_head_ = b;
}

void ArenaAllocator::UnlinkFreeLocked(Block* b) {
  (b->free_prev != nullptr ? b->free_prev->free_next : free_head_) = b->free_next;
  if (b->free_next != nullptr) b->free_next->free_prev = b->free_prev;
  b->free_prev = b->free_next = nullptr;
}

ArenaAllocator::Block* ArenaAllocator::NewBlockLocked() {
  if (spare_blocks_.empty()) return new Block();
  Block* b = spare_blocks_.back();
  spare_blocks_.pop_back();
  *b = Block();
  return b;
}

void ArenaAllocator::RecycleLocked(Block* b) {
  b->free = true;  // a stale pointer freed again is then refused, until the record is reused
  spare_blocks_.push_back(b);
}

StatusOr<ArenaAllocator::Segment*> ArenaAllocator::MapLocked(size_t bytes) {
  bytes = RoundUp(bytes, options_.segment_granule);
  GE_ASSIGN_OR_RETURN(void* base,
                      device_->Malloc(options_.mem_type, bytes, std::max(options_.granule, rt::kDefaultAlignment)));
  auto s = std::make_unique<Segment>();
  s->base = base;
  s->bytes = bytes;
  Block* b = NewBlockLocked();
  b->segment = s.get();
  b->bytes = bytes;
  b->addr = base;
  s->first = b;
  LinkFreeLocked(b);
  segments_.push_back(std::move(s));
  stats_.segment_bytes += bytes;
  stats_.segments = segments_.size();
  stats_.peak_segment_bytes = std::max(stats_.peak_segment_bytes, stats_.segment_bytes);
  ++stats_.segments_mapped;
  return segments_.back().get();
}

// Blocks still handed out (only at destruction, a caller's bug) are forgotten with their segment.
void ArenaAllocator::ReleaseLocked(Segment* s) {
  for (Block* b = s->first; b != nullptr;) {
    Block* next = b->next;
    if (b->free) UnlinkFreeLocked(b);
    RecycleLocked(b);
    b = next;
  }
  device_->Free(options_.mem_type, s->base).IgnoreError();
  stats_.segment_bytes -= s->bytes;
  stats_.touched_bytes -= s->high_water;
  ++stats_.segments_released;
  segments_.erase(std::find_if(segments_.begin(), segments_.end(),
                               [&](const std::unique_ptr<Segment>& p) { return p.get() == s; }));
  stats_.segments = segments_.size();
}

bool ArenaAllocator::ReleaseFreeSegmentsLocked() {
  bool any = false;
  for (size_t i = segments_.size(); i-- > 0;) {
    if (segments_[i]->used_bytes == 0) {
      ReleaseLocked(segments_[i].get());
      any = true;
    }
  }
  return any;
}

}  // namespace ge::runtime::v2
