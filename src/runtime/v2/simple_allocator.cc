#include "runtime/v2/simple_allocator.h"

#include <cstdlib>
#include <string>

#include "ge/tensor.h"

namespace ge::runtime::v2 {
namespace {

int ClassOf(size_t bytes) {
  int c = 0;
  size_t size = 64;
  while (size < bytes) {
    size <<= 1;
    ++c;
  }
  return c;
}

}  // namespace

SimpleAllocator::~SimpleAllocator() {
  for (MemBlock* b : all_) {
    std::free(b->addr);
    delete b;
  }
}

StatusOr<MemBlock*> SimpleAllocator::Malloc(size_t bytes) {
  if (bytes > static_cast<size_t>(kMaxTensorBytes)) {
    return ResourceExhausted("cannot allocate " + std::to_string(bytes) + " bytes (more than the per-tensor limit)");
  }
  const int c = ClassOf(bytes);
  {
    std::lock_guard<std::mutex> lk(mu_);
    std::vector<MemBlock*>& list = free_[c];
    if (!list.empty()) {
      MemBlock* b = list.back();
      list.pop_back();
      return b;
    }
  }
  const size_t size = size_t{64} << c;
  void* p = std::aligned_alloc(64, size);
  if (p == nullptr) return ResourceExhausted("out of memory allocating " + std::to_string(size) + " bytes");
  auto* b = new MemBlock{p, size};
  std::lock_guard<std::mutex> lk(mu_);
  all_.push_back(b);
  held_ += size;
  return b;
}

void SimpleAllocator::Free(MemBlock* block) {
  if (block == nullptr) return;
  std::lock_guard<std::mutex> lk(mu_);
  free_[ClassOf(block->size)].push_back(block);
}

size_t SimpleAllocator::held_bytes() const {
  std::lock_guard<std::mutex> lk(mu_);
  return held_;
}

}  // namespace ge::runtime::v2
