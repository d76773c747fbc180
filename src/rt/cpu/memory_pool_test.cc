#include "rt/cpu/memory_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

bool Aligned(void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

TEST(MemoryPool, AlignsAndCountsStatistics) {
  MemoryPool pool(MemType::kDevice, {});
  auto a = pool.Allocate(100);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_TRUE(Aligned(*a, 64));
  auto b = pool.Allocate(10, 4096);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(Aligned(*b, 4096));
  std::memset(*a, 1, 100);
  std::memset(*b, 2, 10);

  MemoryStats s = pool.stats();
  EXPECT_EQ(s.in_use_bytes, 128u + 4096u);
  EXPECT_EQ(s.live_blocks, 2u);
  EXPECT_EQ(s.alloc_count, 2u);
  EXPECT_TRUE(pool.Free(*a).ok());
  EXPECT_TRUE(pool.Free(*b).ok());
  s = pool.stats();
  EXPECT_EQ(s.in_use_bytes, 0u);
  EXPECT_EQ(s.peak_bytes, 128u + 4096u);
  EXPECT_EQ(s.live_blocks, 0u);
  EXPECT_EQ(s.mapped_bytes, 0u);
}

TEST(MemoryPool, RejectsBadArguments) {
  MemoryPool pool(MemType::kHost, {});
  EXPECT_EQ(pool.Allocate(8, 48).status().code(), StatusCode::kInvalidArgument);
  int x;
  EXPECT_EQ(pool.Free(&x).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(pool.Free(nullptr).ok());
  auto p = pool.Allocate(0);  // zero bytes still gives a distinct, freeable block
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(pool.Free(*p).ok());
  EXPECT_EQ(pool.Free(*p).code(), StatusCode::kInvalidArgument);  // double free
  EXPECT_EQ(pool.Allocate(SIZE_MAX).status().code(), StatusCode::kResourceExhausted);
}

TEST(MemoryPool, LimitGivesResourceExhausted) {
  MemoryPoolOptions o;
  o.limit_bytes = 1024;
  MemoryPool pool(MemType::kDevice, o);
  auto a = pool.Allocate(1000);
  ASSERT_TRUE(a.ok());
  auto b = pool.Allocate(100);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(b.status().message().find("device memory limit exceeded"), std::string::npos) << b.status().ToString();
  EXPECT_EQ(pool.stats().failed_count, 1u);
  ASSERT_TRUE(pool.Free(*a).ok());
  auto c = pool.Allocate(1024);
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(pool.Free(*c).ok());
}

TEST(MemoryPool, LargeBlocksAreMapped) {
  MemoryPool pool(MemType::kDevice, {});
  auto p = pool.Allocate(size_t{4} << 20);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(Aligned(*p, size_t{2} << 20));  // THP-friendly alignment
  std::memset(*p, 0, size_t{4} << 20);
  EXPECT_GE(pool.stats().mapped_bytes, size_t{4} << 20);
  EXPECT_TRUE(pool.Free(*p).ok());
}

TEST(MemoryPool, HugePagePolicies) {
  MemoryPoolOptions prefer;
  prefer.huge_page_policy = HugePagePolicy::kPrefer1G;
  prefer.huge_page_min_bytes = size_t{8} << 20;
  MemoryPool p2(MemType::kDevice, prefer);
  auto a = p2.Allocate(size_t{8} << 20);
  ASSERT_TRUE(a.ok()) << a.status().ToString();  // 1 GB pages or the fallback
  if (p2.stats().huge_1g_bytes == 0) {
    EXPECT_FALSE(p2.TakeWarning().ok());  // the fallback is reported
    EXPECT_TRUE(p2.TakeWarning().ok());   // and cleared once taken
  }
  EXPECT_TRUE(p2.Free(*a).ok());
  auto small = p2.Allocate(4096);  // below the threshold: never huge pages
  ASSERT_TRUE(small.ok());
  EXPECT_TRUE(p2.Free(*small).ok());

  MemoryPoolOptions only = prefer;
  only.huge_page_policy = HugePagePolicy::kOnly1G;
  MemoryPool p1(MemType::kDevice, only);
  auto b = p1.Allocate(size_t{8} << 20);
  if (b.ok()) {
    EXPECT_EQ(p1.stats().huge_1g_bytes, size_t{1} << 30);
    EXPECT_TRUE(p1.Free(*b).ok());
  } else {
    EXPECT_EQ(b.status().code(), StatusCode::kResourceExhausted);
    EXPECT_EQ(p1.stats().in_use_bytes, 0u);  // the reservation was undone
  }
}

TEST(MemoryPool, RdmaIsPinnedOrWarns) {
  MemoryPoolOptions o;
  o.pin = true;
  MemoryPool pool(MemType::kRdma, o);
  auto small = pool.Allocate(4096);
  ASSERT_TRUE(small.ok());
  Status w = pool.TakeWarning();
  EXPECT_TRUE(pool.stats().pinned_bytes > 0 || !w.ok());
  // Usually above RLIMIT_MEMLOCK for unprivileged users: must still succeed, unpinned, with a warning.
  auto big = pool.Allocate(size_t{64} << 20);
  ASSERT_TRUE(big.ok());
  if (pool.stats().pinned_bytes < (size_t{64} << 20)) {
    Status w2 = pool.TakeWarning();
    EXPECT_FALSE(w2.ok());
    EXPECT_NE(w2.message().find("mlock"), std::string::npos);
  }
  EXPECT_TRUE(pool.Free(*small).ok());
  EXPECT_TRUE(pool.Free(*big).ok());
  EXPECT_EQ(pool.stats().pinned_bytes, 0u);
}

TEST(MemoryPool, ConcurrentAllocationsRespectTheLimit) {
  MemoryPoolOptions o;
  o.limit_bytes = 64 * 1000;
  MemoryPool pool(MemType::kHost, o);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      std::vector<void*> mine;
      for (int i = 0; i < 2000; ++i) {
        auto p = pool.Allocate(64);
        if (p.ok()) mine.push_back(*p);
        EXPECT_LE(pool.stats().in_use_bytes, o.limit_bytes);
        if (mine.size() > 100) {
          EXPECT_TRUE(pool.Free(mine.back()).ok());
          mine.pop_back();
        }
      }
      for (void* p : mine) EXPECT_TRUE(pool.Free(p).ok());
    });
  }
  for (auto& t : threads) t.join();
  MemoryStats s = pool.stats();
  EXPECT_EQ(s.in_use_bytes, 0u);
  EXPECT_LE(s.peak_bytes, o.limit_bytes);
}

}  // namespace
}  // namespace ge::rt
