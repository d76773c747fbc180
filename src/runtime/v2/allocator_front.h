// AllocatorFront: a single-thread cache in front of another Allocator, for executions whose kernels all run on one
// thread (sequential, topological and priority executors). A freed block whose size is a CachingAllocator class
// up to 64 KiB is kept in a small stack per class and handed out again without a lock or a virtual call to the
// backing allocator; everything else, and what overflows the stacks, goes through to the backing allocator.
// Bounded: at most kPerClass blocks per class and kMaxBytes in all, so it never changes the backing allocator's
// behaviour under shape churn by more than that. It keeps no block larger than max_block_bytes: ModelV2 sets the
// ArenaAllocator's min_bytes, so that blocks kept across runs never sit in (and pin) the arena's segments.
// Threading: NOT thread-safe (one thread at a time; the multi-thread executor uses the backing allocator directly).
// Ownership: owns the backing allocator; cached blocks go back to it on Flush and on destruction.
#pragma once
#include <array>
#include <cstddef>
#include <memory>

#include "runtime/v2/allocator.h"

namespace ge::runtime::v2 {

class AllocatorFront final : public Allocator {
 public:
  static constexpr size_t kPerClass = 8;
  static constexpr size_t kMaxBytes = size_t{1} << 20;

  explicit AllocatorFront(std::unique_ptr<Allocator> backing, size_t max_block_bytes = size_t{64} << 10)
      : backing_(std::move(backing)), max_block_bytes_(max_block_bytes) {}
  ~AllocatorFront() override { Flush(); }
  AllocatorFront(const AllocatorFront&) = delete;
  AllocatorFront& operator=(const AllocatorFront&) = delete;

  StatusOr<MemBlock*> Malloc(size_t bytes) override;
  void Free(MemBlock* block) override;
  // Inline fast paths: a cached block for |bytes| (null: none cached, call Malloc); whether |block| was kept
  // (false: call Free).
  MemBlock* TryTake(size_t bytes) {
    const size_t index = (bytes + kQuantum - 1) / kQuantum + (bytes == 0 ? 1 : 0);
    if (index >= kNumClasses) return nullptr;
    Stack& s = stacks_[index];
    if (s.count == 0) return nullptr;
    MemBlock* b = s.blocks[--s.count];
    held_bytes_ -= b->size;
    return b;
  }
  bool TryKeep(MemBlock* block) {
    const size_t size = block->size;
    // Only blocks of exactly a class size: they serve any request of that class.
    if (size % kQuantum != 0 || size / kQuantum >= kNumClasses || size == 0 || size > max_block_bytes_ ||
        held_bytes_ + size > kMaxBytes) {
      return false;
    }
    Stack& s = stacks_[size / kQuantum];
    if (s.count >= kPerClass) return false;
    s.blocks[s.count++] = block;
    held_bytes_ += size;
    return true;
  }
  // Returns every block held here to the backing allocator.
  void Flush();
  Allocator* backing() const { return backing_.get(); }
  size_t held_bytes() const { return held_bytes_; }

 private:
  static constexpr size_t kQuantum = 512;  // CachingAllocator's small classes: multiples of 512 B up to 64 KiB
  static constexpr size_t kNumClasses = (size_t{64} << 10) / kQuantum + 1;
  struct Stack {
    size_t count = 0;
    std::array<MemBlock*, kPerClass> blocks{};
  };
  std::unique_ptr<Allocator> backing_;
  const size_t max_block_bytes_;
  std::array<Stack, kNumClasses> stacks_{};  // by class bytes / kQuantum
  size_t held_bytes_ = 0;
};

}  // namespace ge::runtime::v2
