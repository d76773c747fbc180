#include "rt/cpu/cpu_stream.h"

#include <gtest/gtest.h>

#include "rt/cpu/test_util.h"

namespace ge::rt {
namespace {
using namespace testing;  // NOLINT
using namespace std::chrono_literals;

TEST(CpuStream, RunsTasksInOrder) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  std::mutex mu;
  std::vector<int> log;
  std::vector<LogArgs> args;
  args.reserve(1000);
  for (int i = 0; i < 1000; ++i) args.push_back({&mu, &log, i});
  for (auto& a : args) ASSERT_TRUE(s->Enqueue({LogTask, &a}).ok());
  ASSERT_TRUE(s->Synchronize().ok());
  ASSERT_EQ(log.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(log[i], i);
  EXPECT_TRUE(s->Query());
}

TEST(CpuStream, RejectsNullTask) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  EXPECT_EQ(s->Enqueue({nullptr, nullptr}).code(), StatusCode::kInvalidArgument);
}

TEST(CpuStream, ErrorsAreStickyUntilReset) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  std::atomic<int> count{0};
  ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
  ASSERT_TRUE(s->Enqueue({FailTask, const_cast<char*>("first")}).ok());
  ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
  ASSERT_TRUE(s->Enqueue({FailTask, const_cast<char*>("second")}).ok());
  Status st = s->Synchronize();
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_EQ(st.message(), "first");
  EXPECT_EQ(count.load(), 1);  // the task after the failure was skipped
  EXPECT_EQ(s->Synchronize().message(), "first");  // still reported
  ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
  EXPECT_FALSE(s->Synchronize().ok());  // still skipping
  EXPECT_EQ(count.load(), 1);
  s->ResetError();
  EXPECT_TRUE(s->error().ok());
  ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
  EXPECT_TRUE(s->Synchronize().ok());
  EXPECT_EQ(count.load(), 2);
}

// `always` tasks (what releases resources taken by earlier tasks) run after a failure, with the error visible, and
// when the stream is destroyed with them still queued; stream copies run in order and are skipped after a failure.
Status AlwaysTask(void* args, TaskContext& ctx) {
  auto* seen = static_cast<std::vector<int>*>(args);
  seen->push_back(ctx.stream_error != nullptr ? 1 : 0);
  return Status::Ok();
}

TEST(CpuStream, AlwaysTasksAndCopies) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  std::vector<int> seen;
  int a = 1, b = 0, c = 0;
  ASSERT_TRUE(s->EnqueueMemcpy(&b, &a, sizeof(int), MemcpyKind::kHostToHost).ok());
  ASSERT_TRUE(s->EnqueueMemcpy(&c, &b, sizeof(int), MemcpyKind::kHostToHost).ok());  // after the first: reads 1
  Task always{AlwaysTask, &seen};
  always.always = true;
  ASSERT_TRUE(s->Enqueue(always).ok());
  ASSERT_TRUE(s->Synchronize().ok());
  EXPECT_EQ(c, 1);
  ASSERT_TRUE(s->Enqueue({FailTask, const_cast<char*>("boom")}).ok());
  a = 2;
  ASSERT_TRUE(s->EnqueueMemcpy(&b, &a, sizeof(int), MemcpyKind::kHostToHost).ok());
  ASSERT_TRUE(s->Enqueue(always).ok());
  EXPECT_EQ(s->Synchronize().message(), "boom");
  EXPECT_EQ(b, 1);  // the copy after the failure was skipped
  EXPECT_EQ(seen, (std::vector<int>{0, 1}));  // the always task ran, and saw the error
  EXPECT_EQ(s->EnqueueMemcpy(nullptr, &a, 4, MemcpyKind::kHostToHost).code(), StatusCode::kInvalidArgument);

  // Destroyed with work queued behind a blocked task: the always task still runs.
  auto s2 = MakeStream(*dev);
  std::atomic<bool> gate{false};
  std::vector<int> seen2;
  ASSERT_TRUE(s2->Enqueue({GateTask, &gate}).ok());
  Task always2{AlwaysTask, &seen2};
  always2.always = true;
  ASSERT_TRUE(s2->Enqueue(always2).ok());
  std::thread opener([&] {
    std::this_thread::sleep_for(20ms);
    gate.store(true);
  });
  s2.reset();
  opener.join();
  EXPECT_EQ(seen2.size(), 1u);
}

TEST(CpuStream, SynchronizeTimesOut) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  std::atomic<bool> gate{false};
  ASSERT_TRUE(s->Enqueue({GateTask, &gate}).ok());
  auto t0 = std::chrono::steady_clock::now();
  Status st = s->Synchronize(20ms);
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 20ms);
  EXPECT_FALSE(s->Query());
  gate = true;
  EXPECT_TRUE(s->Synchronize(10s).ok());
}

TEST(CpuStream, DestroyDiscardsPendingWork) {
  auto dev = MakeDevice();
  std::atomic<int> count{0};
  std::atomic<bool> gate{false};
  {
    auto s = MakeStream(*dev);
    ASSERT_TRUE(s->Enqueue({GateTask, &gate}).ok());  // stopped by the destructor
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
  }
  EXPECT_LT(count.load(), 100);
}

TEST(CpuStream, DestroyInterruptsABlockedEventWait) {
  auto dev = MakeDevice();
  CpuEvent never_done;
  auto other = MakeStream(*dev);
  std::atomic<bool> gate{false};
  ASSERT_TRUE(other->Enqueue({GateTask, &gate}).ok());
  ASSERT_TRUE(other->RecordEvent(never_done).ok());  // not reached until the gate opens
  {
    auto s = MakeStream(*dev);
    ASSERT_TRUE(s->WaitEvent(never_done).ok());
    EXPECT_EQ(s->Synchronize(10ms).code(), StatusCode::kTimeout);
  }  // must not hang
  gate = true;
  EXPECT_TRUE(other->Synchronize().ok());
}

TEST(CpuStream, TasksSeeThePoolAndTheirStream) {
  auto dev = MakeDevice(3);
  auto s = MakeStream(*dev);
  struct Args {
    CpuStream* expect;
    std::atomic<long> sum{0};
    bool ok = false;
  } a;
  a.expect = s.get();
  auto fn = [](void* p, TaskContext& ctx) -> Status {
    auto* a = static_cast<Args*>(p);
    a->ok = ctx.stream == a->expect && ctx.pool != nullptr;
    ctx.pool->ParallelFor(1000, [&](size_t b, size_t e) { a->sum.fetch_add(static_cast<long>(e - b)); });
    return Status::Ok();
  };
  ASSERT_TRUE(s->Enqueue({fn, &a}).ok());
  ASSERT_TRUE(s->Synchronize().ok());
  EXPECT_TRUE(a.ok);
  EXPECT_EQ(a.sum.load(), 1000);
}

}  // namespace
}  // namespace ge::rt
