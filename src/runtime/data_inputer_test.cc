#include "runtime/data_inputer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace ge::runtime {
namespace {
using namespace std::chrono_literals;

RunRequest Req(uint64_t id) {
  RunRequest r;
  r.id = id;
  r.done = [](uint64_t, const Status&, const std::vector<DataBuffer>&) {};
  return r;
}

TEST(DataInputer, PopsInFifoOrder) {
  DataInputer q(8);
  for (uint64_t i = 1; i <= 5; ++i) ASSERT_TRUE(q.Push(Req(i)).ok());
  EXPECT_EQ(q.size(), 5u);
  for (uint64_t i = 1; i <= 5; ++i) {
    auto r = q.Pop();
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->id, i);
  }
  EXPECT_EQ(q.size(), 0u);
}

TEST(DataInputer, BoundPushesBack) {
  DataInputer q(2);
  ASSERT_TRUE(q.Push(Req(1)).ok());
  ASSERT_TRUE(q.Push(Req(2)).ok());

  // Fail fast: ResourceExhausted, and the request stays with the caller.
  RunRequest third = Req(3);
  Status st = q.Push(std::move(third), rt::Duration::zero());
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("full"), std::string::npos) << st.message();
  EXPECT_EQ(third.id, 3u);
  EXPECT_TRUE(static_cast<bool>(third.done));

  // Bounded wait: still full afterwards.
  st = q.Push(std::move(third), 5ms);
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_EQ(q.size(), 2u);

  // A blocking push completes only once a pop makes room.
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    ASSERT_TRUE(q.Push(Req(3)).ok());
    pushed = true;
  });
  EXPECT_FALSE(pushed.load());  // it can never succeed while the queue is full
  EXPECT_EQ(q.size(), 2u);
  auto first = q.Pop();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->id, 1u);
  producer.join();
  EXPECT_TRUE(pushed.load());
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.Pop()->id, 2u);
  EXPECT_EQ(q.Pop()->id, 3u);
}

TEST(DataInputer, PopTimesOutWhenEmpty) {
  DataInputer q(1);
  auto r = q.Pop(1ms);
  EXPECT_EQ(r.status().code(), StatusCode::kTimeout);
}

TEST(DataInputer, StopWakesBlockedPopAndPush) {
  DataInputer empty(1);
  std::thread consumer([&] { EXPECT_EQ(empty.Pop().status().code(), StatusCode::kAborted); });

  DataInputer full(1);
  ASSERT_TRUE(full.Push(Req(1)).ok());
  std::thread producer([&] { EXPECT_EQ(full.Push(Req(2)).code(), StatusCode::kAborted); });

  empty.Stop();
  full.Stop();
  consumer.join();
  producer.join();
  EXPECT_TRUE(full.stopped());
  EXPECT_EQ(full.Push(Req(3), rt::Duration::zero()).code(), StatusCode::kAborted);
  EXPECT_EQ(full.Pop().status().code(), StatusCode::kAborted);
  auto rest = full.Drain();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].id, 1u);
  EXPECT_EQ(full.size(), 0u);
}

TEST(DataInputer, ManyProducersAndConsumersSeeEveryRequestOnce) {
  DataInputer q(8);
  constexpr int kProducers = 4, kPerProducer = 2000, kConsumers = 3;
  std::vector<std::atomic<int>> seen(kProducers * kPerProducer + 1);
  std::atomic<int> consumed{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&] {
      for (;;) {
        auto r = q.Pop();
        if (!r.ok()) return;  // stopped
        seen[r->id].fetch_add(1);
        consumed.fetch_add(1);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) ASSERT_TRUE(q.Push(Req(p * kPerProducer + i + 1)).ok());
    });
  }
  for (auto& t : producers) t.join();
  while (consumed.load() < kProducers * kPerProducer) std::this_thread::yield();
  q.Stop();
  for (auto& t : threads) t.join();
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_EQ(seen[i].load(), 1) << "request " << i;
}

TEST(DataInputer, FormatsDurations) {
  EXPECT_EQ(FormatDuration(20ms), "20 ms");
  EXPECT_EQ(FormatDuration(1500ms), "1.5 s");
  EXPECT_EQ(FormatDuration(40us), "40 us");
  EXPECT_EQ(FormatDuration(rt::kWaitForever), "forever");
  EXPECT_EQ(DeadlineAfter(rt::kWaitForever), Clock::time_point::max());
}

}  // namespace
}  // namespace ge::runtime
