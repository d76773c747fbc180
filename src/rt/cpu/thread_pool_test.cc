#include "rt/cpu/thread_pool.h"

#include "rt/cpu/cpu_quota.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

// Every test runs on both backends.
class ThreadPoolTest : public ::testing::TestWithParam<PoolBackend> {
 protected:
  void SetUp() override {
    if (GetParam() == PoolBackend::kOpenMp && !ThreadPool::Create(2, PoolBackend::kOpenMp).ok()) {
      GTEST_SKIP() << "this build has no OpenMP";
    }
  }
  // Full width always: these tests are about the pool, not about the governor (which a loaded CI machine could
  // otherwise trigger).
  std::unique_ptr<ThreadPool> MakePool(int n) {
    auto p = ThreadPool::Create(n, GetParam(), ContentionPolicy::kFullThreads);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? std::move(*p) : nullptr;
  }
};

TEST_P(ThreadPoolTest, CoversEveryIndexOnce) {
  auto pool = MakePool(4);
  EXPECT_EQ(pool->backend(), GetParam());
  EXPECT_EQ(pool->num_threads(), 4);
  for (size_t n : {0, 1, 3, 17, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(n);
    pool->ParallelFor(n, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
    });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
  }
}

TEST_P(ThreadPoolTest, RespectsGrain) {
  auto pool = MakePool(3);
  std::atomic<int> short_ranges{0};
  pool->ParallelFor(1000, [&](size_t b, size_t e) {
    if (e - b < 100 && e != 1000) short_ranges.fetch_add(1);
  }, 100);
  EXPECT_EQ(short_ranges.load(), 0);
}

TEST_P(ThreadPoolTest, NestedAndConcurrentCallsRunSerially) {
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

TEST_P(ThreadPoolTest, SingleThreadRunsOnCaller) {
  auto pool = MakePool(1);
  std::thread::id caller = std::this_thread::get_id();
  bool same = false;
  pool->ParallelFor(100, [&](size_t, size_t) { same = std::this_thread::get_id() == caller; });
  EXPECT_TRUE(same);
  EXPECT_FALSE(ThreadPool::Create(-1, GetParam()).ok());
}

// The work is really shared: with two threads, a range that waits until two different threads are inside it
// completes (a pool running everything on the caller would wait forever; the wait is bounded to fail instead).
TEST_P(ThreadPoolTest, TwoThreadsRunAtOnce) {
  auto pool = MakePool(2);
  std::atomic<int> inside{0};
  std::atomic<bool> met{false};
  pool->ParallelFor(2, [&](size_t, size_t) {
    inside.fetch_add(1);
    for (int spin = 0; spin < 2000000 && inside.load() < 2; ++spin) std::this_thread::yield();
    if (inside.load() >= 2) met = true;
  });
  EXPECT_TRUE(met.load());
}

TEST_P(ThreadPoolTest, OneThreadPolicyRunsEverythingOnTheCaller) {
  auto p = ThreadPool::Create(4, GetParam(), ContentionPolicy::kOneThread);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->num_threads(), 4);  // kernels are still prepared for four
  EXPECT_EQ((*p)->active_threads(), 1);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  std::atomic<size_t> covered{0};
  (*p)->ParallelFor(10000, [&](size_t b, size_t e) {
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    covered.fetch_add(e - b);
  });
  EXPECT_EQ(elsewhere.load(), 0);
  EXPECT_EQ(covered.load(), 10000u);
}

TEST_P(ThreadPoolTest, FullThreadsPolicyKeepsItsWidth) {
  auto pool = MakePool(3);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(pool->active_threads(), 3);
  EXPECT_EQ(pool->governor().degradations(), 0u);
}

TEST_P(ThreadPoolTest, ZeroThreadsMeansTheUsableCpus) {
  auto p = ThreadPool::Create(0, GetParam());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->num_threads(), UsableCpuCount());
}

INSTANTIATE_TEST_SUITE_P(Backends, ThreadPoolTest, ::testing::Values(PoolBackend::kOpenMp, PoolBackend::kThreads));

TEST(ThreadPool, DefaultIsOpenMpWhereTheBuildHasIt) {
  auto p = ThreadPool::Create(2);
  ASSERT_TRUE(p.ok());
  const bool have_openmp = ThreadPool::Create(2, PoolBackend::kOpenMp).ok();
  EXPECT_EQ((*p)->backend(), have_openmp ? PoolBackend::kOpenMp : PoolBackend::kThreads);
#if defined(__GNUC__) && !defined(__clang__)
  EXPECT_TRUE(have_openmp);  // GCC builds (make build) always have it
#endif
}

}  // namespace
}  // namespace ge::rt
