#include "runtime/v2/allocator_front.h"

namespace ge::runtime::v2 {

StatusOr<MemBlock*> AllocatorFront::Malloc(size_t bytes) {
  if (MemBlock* b = TryTake(bytes)) return b;
  return backing_->Malloc(bytes);
}

void AllocatorFront::Free(MemBlock* block) {
  if (block == nullptr || TryKeep(block)) return;
  backing_->Free(block);
}

void AllocatorFront::Flush() {
  for (Stack& s : stacks_) {
    while (s.count != 0) backing_->Free(s.blocks[--s.count]);
  }
  held_bytes_ = 0;
}

}  // namespace ge::runtime::v2
