#include "rt/cpu/cpu_event.h"

#include <gtest/gtest.h>

#include "rt/cpu/test_util.h"

namespace ge::rt {
namespace {
using namespace testing;  // NOLINT
using namespace std::chrono_literals;

TEST(CpuEvent, OrdersWorkAcrossStreams) {
  auto dev = MakeDevice();
  auto a = MakeStream(*dev);
  auto b = MakeStream(*dev);
  auto ev = std::make_unique<CpuEvent>();
  std::mutex mu;
  std::vector<int> log;
  int sleep_ms = 30;
  LogArgs first{&mu, &log, 1}, second{&mu, &log, 2};
  ASSERT_TRUE(a->Enqueue({SleepTask, &sleep_ms}).ok());
  ASSERT_TRUE(a->Enqueue({LogTask, &first}).ok());
  ASSERT_TRUE(a->RecordEvent(*ev).ok());
  ASSERT_TRUE(b->WaitEvent(*ev).ok());
  ASSERT_TRUE(b->Enqueue({LogTask, &second}).ok());
  ASSERT_TRUE(b->Synchronize().ok());
  ASSERT_EQ(log, (std::vector<int>{1, 2}));
  EXPECT_TRUE(ev->Query());
  EXPECT_TRUE(a->Synchronize().ok());
}

TEST(CpuEvent, ReusedAcrossIterations) {
  auto dev = MakeDevice();
  auto producer = MakeStream(*dev);
  auto consumer = MakeStream(*dev);
  auto ev = std::make_unique<CpuEvent>();
  std::mutex mu;
  std::vector<int> log;
  std::vector<LogArgs> args;
  args.reserve(200);
  for (int i = 0; i < 100; ++i) {
    args.push_back({&mu, &log, 2 * i});
    args.push_back({&mu, &log, 2 * i + 1});
  }
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(producer->Enqueue({LogTask, &args[2 * i]}).ok());
    ASSERT_TRUE(producer->RecordEvent(*ev).ok());
    ASSERT_TRUE(consumer->WaitEvent(*ev).ok());
    ASSERT_TRUE(consumer->Enqueue({LogTask, &args[2 * i + 1]}).ok());
    // The consumer's record-point for i+1 must not run before the producer's i+1 point either.
    ASSERT_TRUE(consumer->RecordEvent(*ev).ok());
    ASSERT_TRUE(producer->WaitEvent(*ev).ok());
  }
  ASSERT_TRUE(producer->Synchronize().ok());
  ASSERT_TRUE(consumer->Synchronize().ok());
  ASSERT_EQ(log.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(log[i], i);
  EXPECT_EQ(ev->recorded(), 200u);
  EXPECT_EQ(ev->completed(), 200u);
}

TEST(CpuEvent, HostSynchronizeAndTimeout) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  auto ev = std::make_unique<CpuEvent>();
  EXPECT_TRUE(ev->Synchronize().ok());  // never recorded
  std::atomic<bool> gate{false};
  ASSERT_TRUE(s->Enqueue({GateTask, &gate}).ok());
  ASSERT_TRUE(s->RecordEvent(*ev).ok());
  EXPECT_FALSE(ev->Query());
  EXPECT_EQ(ev->Synchronize(10ms).code(), StatusCode::kTimeout);
  gate = true;
  EXPECT_TRUE(ev->Synchronize().ok());
  EXPECT_TRUE(ev->Query());
}

TEST(CpuEvent, WaitOnUnrecordedEventIsNoOp) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  CpuEvent ev;
  ASSERT_TRUE(s->WaitEvent(ev).ok());
  EXPECT_TRUE(s->Synchronize(5s).ok());
}

TEST(CpuEvent, FailedStreamPropagatesToWaiters) {
  auto dev = MakeDevice();
  auto a = MakeStream(*dev);
  auto b = MakeStream(*dev);
  CpuEvent ev;
  std::atomic<int> count{0};
  ASSERT_TRUE(a->Enqueue({FailTask, const_cast<char*>("kernel exploded")}).ok());
  ASSERT_TRUE(a->RecordEvent(ev).ok());
  ASSERT_TRUE(b->WaitEvent(ev).ok());
  ASSERT_TRUE(b->Enqueue({CountTask, &count}).ok());
  Status sb = b->Synchronize(5s);
  EXPECT_EQ(sb.code(), StatusCode::kInternal) << sb.ToString();
  EXPECT_NE(sb.message().find("kernel exploded"), std::string::npos);
  EXPECT_EQ(count.load(), 0);
  EXPECT_FALSE(ev.Synchronize().ok());
  // After both streams recover, a fresh record succeeds and clears the event's error.
  a->ResetError();
  b->ResetError();
  ASSERT_TRUE(a->RecordEvent(ev).ok());
  ASSERT_TRUE(b->WaitEvent(ev).ok());
  ASSERT_TRUE(b->Enqueue({CountTask, &count}).ok());
  EXPECT_TRUE(b->Synchronize(5s).ok());
  EXPECT_TRUE(ev.Synchronize().ok());
  EXPECT_EQ(count.load(), 1);
}

}  // namespace
}  // namespace ge::rt
