// SimpleAllocator: the Allocator (allocator.h) of a ModelV2 given no device (tests, tools): host memory in
// power-of-two size classes from 64 bytes, freed blocks kept per class for reuse, everything returned to the system
// at destruction. No byte cap (CachingAllocator, on a device, has one). Thread-safe (one mutex).
#pragma once
#include <cstddef>
#include <mutex>
#include <vector>

#include "runtime/v2/allocator.h"

namespace ge::runtime::v2 {

class SimpleAllocator final : public Allocator {
 public:
  SimpleAllocator() = default;
  ~SimpleAllocator() override;
  SimpleAllocator(const SimpleAllocator&) = delete;
  SimpleAllocator& operator=(const SimpleAllocator&) = delete;

  StatusOr<MemBlock*> Malloc(size_t bytes) override;
  void Free(MemBlock* block) override;

  // Bytes held from the system (in use and cached).
  size_t held_bytes() const;

 private:
  static constexpr int kClasses = 48;
  mutable std::mutex mu_;
  std::vector<MemBlock*> free_[kClasses];
  std::vector<MemBlock*> all_;
  size_t held_ = 0;
};

}  // namespace ge::runtime::v2
