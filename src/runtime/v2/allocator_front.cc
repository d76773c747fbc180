#include "runtime/v2/allocator_front.h"

namespace ge::runtime::v2 {

StatusOr<MemBlock*> AllocatorFront::Malloc(size_t bytes) {
  const size_t index = (bytes + kQuantum - 1) / kQuantum + (bytes == 0 ? 1 : 0);
  if (index < kNumClasses) {
    Stack& s = stacks_[index];
    if (s.count != 0) {
      MemBlock* b = s.blocks[--s.count];
      held_bytes_ -= b->size;
      return b;
    }
  }
  return backing_->Malloc(bytes);
}

void AllocatorFront::Free(MemBlock* block) {
  if (block == nullptr) return;
  const size_t size = block->size;
  // Only blocks of exactly a class size: they serve any request of that class.
  if (size % kQuantum == 0 && size / kQuantum < kNumClasses && size != 0 && held_bytes_ + size <= kMaxBytes) {
    Stack& s = stacks_[size / kQuantum];
    if (s.count < kPerClass) {
      s.blocks[s.count++] = block;
      held_bytes_ += size;
      return;
    }
  }
  backing_->Free(block);
}

void AllocatorFront::Flush() {
  for (Stack& s : stacks_) {
    while (s.count != 0) backing_->Free(s.blocks[--s.count]);
  }
  held_bytes_ = 0;
}

}  // namespace ge::runtime::v2
