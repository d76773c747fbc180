// AllocatorFront: small blocks come back without reaching the backing allocator, bounded per class; large blocks
// and overflow go through; Flush and destruction return everything.
#include "runtime/v2/allocator_front.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/v2/simple_allocator.h"

namespace ge::runtime::v2 {
namespace {

class CountingAllocator final : public Allocator {
 public:
  explicit CountingAllocator(int* live) : live_(live) {}
  StatusOr<MemBlock*> Malloc(size_t bytes) override {
    ++*live_;
    return inner_.Malloc(bytes);
  }
  void Free(MemBlock* b) override {
    --*live_;
    inner_.Free(b);
  }

 private:
  int* live_;
  SimpleAllocator inner_;
};

TEST(AllocatorFront, ReusesSmallBlocksAndBoundsWhatItHolds) {
  int live = 0;
  {
    AllocatorFront f(std::make_unique<CountingAllocator>(&live));
    MemBlock* a = std::move(f.Malloc(1000)).value();
    ASSERT_GE(a->size, 1000u);
    f.Free(a);
    MemBlock* b = std::move(f.Malloc(a->size)).value();
    EXPECT_EQ(a, b);
    EXPECT_EQ(live, 1);
    std::vector<MemBlock*> many;
    for (size_t i = 0; i < 2 * AllocatorFront::kPerClass; ++i) many.push_back(std::move(f.Malloc(512)).value());
    for (MemBlock* m : many) f.Free(m);
    EXPECT_LE(f.held_bytes(), AllocatorFront::kPerClass * 512 * 2);
    MemBlock* big = std::move(f.Malloc(size_t{1} << 20)).value();
    f.Free(big);
    f.Free(b);
    EXPECT_LE(f.held_bytes(), AllocatorFront::kMaxBytes);
    f.Flush();
    EXPECT_EQ(f.held_bytes(), 0u);
    EXPECT_EQ(live, 0);
    f.Free(std::move(f.Malloc(0)).value());
  }
  EXPECT_EQ(live, 0);
}

TEST(AllocatorFront, KeepsNoBlockAboveItsLimit) {
  int live = 0;
  {
    AllocatorFront f(std::make_unique<CountingAllocator>(&live), /*max_block_bytes=*/4096);
    MemBlock* small = std::move(f.Malloc(4096)).value();
    MemBlock* large = std::move(f.Malloc(4097)).value();
    f.Free(small);
    f.Free(large);
    EXPECT_EQ(live, 1);  // the 4 KiB block is kept, the larger one went back
    EXPECT_EQ(f.held_bytes(), small->size);
  }
  EXPECT_EQ(live, 0);
}

}  // namespace
}  // namespace ge::runtime::v2
