#include "rt/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

std::unique_ptr<ThreadPool> MakePool(int n) {
  auto p = ThreadPool::Create(n);
  EXPECT_TRUE(p.ok());
  return std::move(*p);
}

TEST(ThreadPool, CoversEveryIndexOnce) {
  auto pool = MakePool(4);
  EXPECT_EQ(pool->num_threads(), 4);
  for (size_t n : {0, 1, 3, 17, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(n);
    pool->ParallelFor(n, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
    });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
  }
}

TEST(ThreadPool, RespectsGrain) {
  auto pool = MakePool(3);
  std::atomic<int> short_ranges{0};
  pool->ParallelFor(1000, [&](size_t b, size_t e) {
    if (e - b < 100 && e != 1000) short_ranges.fetch_add(1);
  }, 100);
  EXPECT_EQ(short_ranges.load(), 0);
}

TEST(ThreadPool, NestedAndConcurrentCallsRunSerially) {
  auto pool = MakePool(4);
  std::atomic<long> sum{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&] {
      for (int r = 0; r < 20; ++r) {
        pool->ParallelFor(64, [&](size_t b, size_t e) {
          for (size_t i = b; i < e; ++i) {
            pool->ParallelFor(10, [&](size_t b2, size_t e2) { sum.fetch_add(static_cast<long>(e2 - b2)); });
          }
        });
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(sum.load(), 3L * 20 * 64 * 10);
}

TEST(ThreadPool, SingleThreadRunsOnCaller) {
  auto pool = MakePool(1);
  std::thread::id caller = std::this_thread::get_id();
  bool same = false;
  pool->ParallelFor(100, [&](size_t, size_t) { same = std::this_thread::get_id() == caller; });
  EXPECT_TRUE(same);
  EXPECT_FALSE(ThreadPool::Create(-1).ok());
}

}  // namespace
}  // namespace ge::rt
