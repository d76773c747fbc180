#include "runtime/run_loop.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/fake_model.h"

namespace ge::runtime {
namespace {
using namespace std::chrono_literals;
using testing::FakeModel;

// Records each request's callbacks: how many, and the last status.
struct Results {
  explicit Results(size_t n) : calls(n), codes(n) {}
  RunCallback Callback(size_t slot) {
    return [this, slot](uint64_t, const Status& st, const std::vector<DataBuffer>&) {
      codes[slot].store(static_cast<int>(st.code()));
      {
        std::lock_guard<std::mutex> lk(mu);
        if (!st.ok()) messages.push_back(st.message());
      }
      calls[slot].fetch_add(1);
    };
  }
  StatusCode code(size_t slot) const { return static_cast<StatusCode>(codes[slot].load()); }
  std::vector<std::atomic<int>> calls;
  std::vector<std::atomic<int>> codes;
  std::mutex mu;
  std::vector<std::string> messages;
};

struct Slot {
  std::vector<float> x = std::vector<float>(4), y = std::vector<float>(4, -1.f);
};

RunRequest MakeRequest(Slot& s, RunCallback done, rt::Duration timeout = rt::kWaitForever) {
  RunRequest r;
  r.inputs = testing::Buffers(s.x);
  r.outputs = testing::Buffers(s.y);
  r.timeout = timeout;
  r.done = std::move(done);
  return r;
}

std::unique_ptr<RunLoop> StartLoop(FakeModel& m, size_t capacity = 64) {
  RunLoopOptions o;
  o.queue_capacity = capacity;
  auto loop = RunLoop::Start(&m, o);
  EXPECT_TRUE(loop.ok()) << loop.status().ToString();
  return std::move(loop).value();
}

TEST(RunLoop, TenThousandRequestsFromFourThreadsCompleteExactlyOnce) {
  FakeModel model("adder");
  auto loop = StartLoop(model, 16);
  constexpr int kThreads = 4, kPerThread = 2500, kTotal = kThreads * kPerThread;
  std::vector<Slot> slots(kTotal);
  Results results(kTotal);
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&, t] {
      for (int i = t * kPerThread; i < (t + 1) * kPerThread; ++i) {
        for (int k = 0; k < 4; ++k) slots[i].x[k] = static_cast<float>(i * 4 + k);
        // Generous timeout: exercises the watchdog arming on every run without ever firing.
        auto id = loop->Submit(MakeRequest(slots[i], results.Callback(i), 600s));
        ASSERT_TRUE(id.ok()) << id.status().ToString();
      }
    });
  }
  for (auto& t : producers) t.join();
  ASSERT_TRUE(loop->WaitIdle());
  for (int i = 0; i < kTotal; ++i) {
    ASSERT_EQ(results.calls[i].load(), 1) << "request " << i;
    ASSERT_EQ(results.code(i), StatusCode::kOk) << "request " << i;
    for (int k = 0; k < 4; ++k) ASSERT_EQ(slots[i].y[k], static_cast<float>(i * 4 + k) + 1.f) << i;
  }
  RunLoopStats s = loop->stats();
  EXPECT_EQ(s.accepted, static_cast<uint64_t>(kTotal));
  EXPECT_EQ(s.succeeded, static_cast<uint64_t>(kTotal));
  EXPECT_EQ(s.failed + s.timed_out + s.cancelled, 0u);
  EXPECT_EQ(model.executions(), static_cast<uint64_t>(kTotal));
  EXPECT_EQ(model.abort_calls(), 0);
  EXPECT_FALSE(model.overlapped());
  EXPECT_EQ(loop->in_flight(), 0u);
}

TEST(RunLoop, RunPastItsTimeoutIsAbortedAndLaterRequestsSucceed) {
  FakeModel model("slowpoke");
  auto loop = StartLoop(model);
  std::vector<Slot> slots(5);
  Results results(5);
  slots[0].x[0] = FakeModel::kHang;  // never finishes on its own
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[0], results.Callback(0), 20ms)).ok());
  for (int i = 1; i < 5; ++i) {
    slots[i].x = {float(i), 1, 2, 3};
    ASSERT_TRUE(loop->Submit(MakeRequest(slots[i], results.Callback(i))).ok());
  }
  ASSERT_TRUE(loop->WaitIdle());
  EXPECT_EQ(results.calls[0].load(), 1);
  EXPECT_EQ(results.code(0), StatusCode::kTimeout);
  ASSERT_EQ(results.messages.size(), 1u);
  const std::string& msg = results.messages[0];
  EXPECT_NE(msg.find("deadline exceeded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'slowpoke'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("20 ms"), std::string::npos) << msg;
  for (int i = 1; i < 5; ++i) {
    EXPECT_EQ(results.calls[i].load(), 1);
    EXPECT_EQ(results.code(i), StatusCode::kOk) << i;
    EXPECT_EQ(slots[i].y, (std::vector<float>{float(i) + 1, 2, 3, 4}));
  }
  EXPECT_EQ(model.abort_calls(), 1);
  EXPECT_EQ(loop->stats().timed_out, 1u);
  EXPECT_EQ(loop->stats().succeeded, 4u);
}

TEST(RunLoop, StopCallsEveryQueuedCallbackOnce) {
  FakeModel model;
  auto loop = StartLoop(model);
  constexpr int kQueued = 10;
  std::vector<Slot> slots(kQueued + 1);
  Results results(kQueued + 1);
  slots[0].x[0] = FakeModel::kGate;  // holds the loop while the others queue
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[0], results.Callback(0))).ok());
  model.WaitUntilBlocked();
  for (int i = 1; i <= kQueued; ++i) ASSERT_TRUE(loop->Submit(MakeRequest(slots[i], results.Callback(i))).ok());

  std::thread stopper([&] { loop->Stop(StopMode::kFinishRunning); });
  while (!loop->stopped()) std::this_thread::yield();  // queue closed: nothing more will start
  EXPECT_EQ(loop->Submit(MakeRequest(slots[1], results.Callback(1))).status().code(), StatusCode::kAborted);
  model.OpenGate();
  stopper.join();

  EXPECT_EQ(results.calls[0].load(), 1);
  EXPECT_EQ(results.code(0), StatusCode::kOk);  // the running request finished normally
  for (int i = 1; i <= kQueued; ++i) {
    EXPECT_EQ(results.calls[i].load(), 1) << i;
    EXPECT_EQ(results.code(i), StatusCode::kAborted) << i;
  }
  EXPECT_EQ(loop->stats().cancelled, static_cast<uint64_t>(kQueued));
  EXPECT_EQ(model.executions(), 1u);
  loop->Stop();  // idempotent
}

TEST(RunLoop, StopAbortRunningAbortsTheRunningRequest) {
  FakeModel model;
  auto loop = StartLoop(model);
  std::vector<Slot> slots(3);
  Results results(3);
  slots[0].x[0] = FakeModel::kHang;
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[0], results.Callback(0))).ok());
  model.WaitUntilBlocked();
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[1], results.Callback(1))).ok());
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[2], results.Callback(2))).ok());
  loop->Stop(StopMode::kAbortRunning);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(results.calls[i].load(), 1) << i;
    EXPECT_EQ(results.code(i), StatusCode::kAborted) << i;
  }
  EXPECT_EQ(model.abort_calls(), 1);
  EXPECT_EQ(loop->stats().cancelled, 3u);
}

TEST(RunLoop, FullQueueFailsFastWithoutCallback) {
  FakeModel model;
  auto loop = StartLoop(model, 2);
  std::vector<Slot> slots(4);
  Results results(4);
  slots[0].x[0] = FakeModel::kGate;
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[0], results.Callback(0))).ok());
  model.WaitUntilBlocked();  // popped: the queue is empty again
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[1], results.Callback(1))).ok());
  ASSERT_TRUE(loop->Submit(MakeRequest(slots[2], results.Callback(2))).ok());
  auto r = loop->Submit(MakeRequest(slots[3], results.Callback(3)), rt::Duration::zero());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted) << r.status().ToString();
  model.OpenGate();
  ASSERT_TRUE(loop->WaitIdle());
  EXPECT_EQ(results.calls[3].load(), 0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(results.code(i), StatusCode::kOk);
  EXPECT_EQ(loop->stats().accepted, 3u);
}

TEST(RunLoop, BadBuffersAreRejectedAtSubmit) {
  FakeModel model("m");
  auto loop = StartLoop(model);
  std::vector<float> small(3), y(4);
  Results results(1);
  RunRequest r;
  r.inputs = testing::Buffers(small);
  r.outputs = testing::Buffers(y);
  r.done = results.Callback(0);
  auto id = loop->Submit(std::move(r));
  ASSERT_EQ(id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(id.status().message().find("input 0 'x'"), std::string::npos) << id.status().message();
  EXPECT_NE(id.status().message().find("model 'm'"), std::string::npos) << id.status().message();
  loop->Stop();
  EXPECT_EQ(results.calls[0].load(), 0);
}

TEST(RunLoop, RunErrorsReachTheCallbackWithContext) {
  FakeModel model("m");
  auto loop = StartLoop(model);
  Slot s;
  s.x[0] = FakeModel::kFail;
  Results results(1);
  auto id = loop->Submit(MakeRequest(s, results.Callback(0)));
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(loop->WaitIdle());
  EXPECT_EQ(results.code(0), StatusCode::kInternal);
  ASSERT_EQ(results.messages.size(), 1u);
  EXPECT_EQ(results.messages[0], "model 'm' request " + std::to_string(*id) + ": fake failure");
  EXPECT_EQ(loop->stats().failed, 1u);
}

TEST(RunLoop, AssignsIncreasingIdsAndKeepsCallerIds) {
  FakeModel model;
  auto loop = StartLoop(model);
  std::vector<Slot> slots(3);
  std::vector<uint64_t> seen;
  std::mutex mu;
  auto cb = [&](uint64_t id, const Status&, const std::vector<DataBuffer>&) {
    std::lock_guard<std::mutex> lk(mu);
    seen.push_back(id);
  };
  auto a = loop->Submit(MakeRequest(slots[0], cb));
  RunRequest mine = MakeRequest(slots[1], cb);
  mine.id = 777;
  auto b = loop->Submit(std::move(mine));
  auto c = loop->Submit(MakeRequest(slots[2], cb));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*b, 777u);
  EXPECT_LT(*a, *c);
  ASSERT_TRUE(loop->WaitIdle());
  EXPECT_EQ(seen, (std::vector<uint64_t>{*a, 777, *c}));
}

TEST(RunLoop, CallbackMaySubmitAgain) {
  FakeModel model;
  auto loop = StartLoop(model);
  Slot first, second;
  std::atomic<int> second_calls{0};
  Status resubmit;
  auto id = loop->Submit(MakeRequest(first, [&](uint64_t, const Status&, const std::vector<DataBuffer>&) {
    resubmit = loop->Submit(MakeRequest(second,
                                        [&](uint64_t, const Status& st, const std::vector<DataBuffer>&) {
                                          if (st.ok()) second_calls++;
                                        }))
                   .status();
  }));
  ASSERT_TRUE(id.ok());
  while (loop->stats().succeeded < 2) ASSERT_TRUE(loop->WaitIdle());
  EXPECT_TRUE(resubmit.ok()) << resubmit.ToString();
  EXPECT_EQ(second_calls.load(), 1);
}

}  // namespace
}  // namespace ge::runtime
