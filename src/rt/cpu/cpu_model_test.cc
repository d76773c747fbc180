#include "rt/cpu/cpu_model.h"

#include <gtest/gtest.h>

#include "rt/cpu/test_util.h"

namespace ge::rt {
namespace {
using namespace testing;  // NOLINT
using namespace std::chrono_literals;

std::unique_ptr<CpuModel> MakeModel(CpuDevice& d, int streams, const char* name = "m") {
  auto m = CpuModel::Create(name, streams, &d.thread_pool());
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(*m);
}

TEST(CpuModel, SingleStreamRunsTasksInOrderEveryExecution) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 1);
  std::mutex mu;
  std::vector<int> log;
  std::vector<LogArgs> args;
  for (int i = 0; i < 100; ++i) args.push_back({&mu, &log, i});
  for (auto& a : args) ASSERT_TRUE(m->AddKernel(0, LogTask, &a).ok());
  EXPECT_EQ(ModelExecute(*m, *MakeStream(*dev)).code(), StatusCode::kFailedPrecondition);  // not finalized
  ASSERT_TRUE(m->Finalize().ok());
  EXPECT_EQ(m->AddKernel(0, LogTask, &args[0]).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(m->tasks(0).size(), 101u);  // + end-graph

  auto s = MakeStream(*dev);
  for (int it = 0; it < 3; ++it) ASSERT_TRUE(ModelExecute(*m, *s).ok());
  ASSERT_TRUE(s->Synchronize().ok());
  ASSERT_EQ(log.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(log[i], i % 100);
  EXPECT_EQ(m->executions(), 3u);
  ASSERT_TRUE(m->Execute().ok());  // on the caller's thread
  EXPECT_EQ(m->executions(), 4u);
}

TEST(CpuModel, MemcpyTasks) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 1);
  float in[4] = {1, 2, 3, 4}, mid[4] = {}, out[4] = {};
  ASSERT_TRUE(m->AddMemcpy(0, mid, in, sizeof(in)).ok());
  ASSERT_TRUE(m->AddMemcpy(0, out, mid, sizeof(in)).ok());
  EXPECT_EQ(m->AddMemcpy(0, nullptr, in, 4).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(m->Finalize().ok());
  ASSERT_TRUE(m->Execute().ok());
  EXPECT_EQ(out[3], 4.0f);
  in[3] = 7;
  ASSERT_TRUE(m->Execute().ok());
  EXPECT_EQ(out[3], 7.0f);
}

TEST(CpuModel, EventsOrderStreamsWithinEachExecution) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 3);
  // Diamond: stream 0 "a" → streams 1 "b" and 2 "c" in parallel → stream 0 "d".
  std::mutex mu;
  std::vector<int> log;
  LogArgs a{&mu, &log, 0}, b{&mu, &log, 1}, c{&mu, &log, 2}, d{&mu, &log, 3};
  int sleep_ms = 5;
  auto e_a = m->AddEvent(), e_b = m->AddEvent(), e_c = m->AddEvent();
  ASSERT_TRUE(e_a.ok() && e_b.ok() && e_c.ok());
  ASSERT_TRUE(m->AddKernel(0, SleepTask, &sleep_ms).ok());
  ASSERT_TRUE(m->AddKernel(0, LogTask, &a).ok());
  ASSERT_TRUE(m->AddEventRecord(0, *e_a).ok());
  ASSERT_TRUE(m->AddEventWait(1, *e_a).ok());
  ASSERT_TRUE(m->AddKernel(1, SleepTask, &sleep_ms).ok());
  ASSERT_TRUE(m->AddKernel(1, LogTask, &b).ok());
  ASSERT_TRUE(m->AddEventRecord(1, *e_b).ok());
  ASSERT_TRUE(m->AddEventWait(2, *e_a).ok());
  ASSERT_TRUE(m->AddKernel(2, LogTask, &c).ok());
  ASSERT_TRUE(m->AddEventRecord(2, *e_c).ok());
  ASSERT_TRUE(m->AddEventWait(0, *e_b).ok());
  ASSERT_TRUE(m->AddEventWait(0, *e_c).ok());
  ASSERT_TRUE(m->AddKernel(0, LogTask, &d).ok());
  ASSERT_TRUE(m->AddEndGraph(0).ok());
  ASSERT_TRUE(m->Finalize().ok());

  auto s = MakeStream(*dev);
  const int kIters = 20;
  for (int i = 0; i < kIters; ++i) ASSERT_TRUE(ModelExecute(*m, *s).ok());
  ASSERT_TRUE(s->Synchronize(30s).ok());
  ASSERT_EQ(log.size(), 4u * kIters);
  for (int i = 0; i < kIters; ++i) {
    EXPECT_EQ(log[4 * i], 0);
    EXPECT_EQ(log[4 * i + 3], 3);
  }
  EXPECT_EQ(m->executions(), static_cast<uint64_t>(kIters));
}

TEST(CpuModel, RejectsBadBuilds) {
  auto dev = MakeDevice();
  {
    auto m = MakeModel(*dev, 2);
    auto e = m->AddEvent();
    ASSERT_TRUE(m->AddEventWait(0, *e).ok());  // never recorded
    Status st = m->Finalize();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("deadlock"), std::string::npos) << st.ToString();
  }
  {
    auto m = MakeModel(*dev, 2);
    auto e0 = m->AddEvent(), e1 = m->AddEvent();
    ASSERT_TRUE(m->AddEventWait(0, *e1).ok());  // cross-stream cycle
    ASSERT_TRUE(m->AddEventRecord(0, *e0).ok());
    ASSERT_TRUE(m->AddEventWait(1, *e0).ok());
    ASSERT_TRUE(m->AddEventRecord(1, *e1).ok());
    EXPECT_EQ(m->Finalize().code(), StatusCode::kInvalidArgument);
  }
  {
    auto m = MakeModel(*dev, 1);
    auto e = m->AddEvent();
    ASSERT_TRUE(m->AddEventRecord(0, *e).ok());
    ASSERT_TRUE(m->AddEventRecord(0, *e).ok());
    EXPECT_EQ(m->Finalize().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(m->AddKernel(1, CountTask, nullptr).code(), StatusCode::kOutOfRange);
    EXPECT_EQ(m->AddEventWait(0, 7).code(), StatusCode::kOutOfRange);
    EXPECT_EQ(m->AddKernel(0, nullptr, nullptr).code(), StatusCode::kInvalidArgument);
    ASSERT_TRUE(m->AddEndGraph(0).ok());
    EXPECT_EQ(m->AddKernel(0, CountTask, nullptr).code(), StatusCode::kFailedPrecondition);
  }
  EXPECT_FALSE(dev->CreateModel("zero", 0).ok());
}

TEST(CpuModel, KernelErrorFailsTheLaunchingStream) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 2);
  std::atomic<int> count{0};
  auto e = m->AddEvent();
  ASSERT_TRUE(m->AddKernel(1, FailTask, const_cast<char*>("bad kernel")).ok());
  ASSERT_TRUE(m->AddEventRecord(1, *e).ok());
  ASSERT_TRUE(m->AddEventWait(0, *e).ok());  // would hang if the failure did not cancel it
  ASSERT_TRUE(m->AddKernel(0, CountTask, &count).ok());
  ASSERT_TRUE(m->Finalize().ok());
  auto s = MakeStream(*dev);
  ASSERT_TRUE(ModelExecute(*m, *s).ok());
  Status st = s->Synchronize(10s);
  EXPECT_EQ(st.code(), StatusCode::kInternal) << st.ToString();
  EXPECT_NE(st.message().find("stream 1 task 0"), std::string::npos) << st.ToString();
  EXPECT_EQ(count.load(), 0);
  // The model is reusable once the failing kernel is fixed; here it just fails again the same way.
  s->ResetError();
  EXPECT_EQ(m->Execute().code(), StatusCode::kInternal);
}

TEST(CpuModel, AbortStopsALongExecution) {
  auto dev = MakeDevice();
  for (int streams : {1, 2}) {
    auto m = MakeModel(*dev, streams);
    int sleep_ms = 1;
    std::atomic<int> count{0};
    for (int i = 0; i < 10000; ++i) {
      ASSERT_TRUE(m->AddKernel(i % streams, SleepTask, &sleep_ms).ok());
      ASSERT_TRUE(m->AddKernel(i % streams, CountTask, &count).ok());
    }
    ASSERT_TRUE(m->Finalize().ok());
    auto s = MakeStream(*dev);
    ASSERT_TRUE(ModelExecute(*m, *s).ok());
    EXPECT_EQ(s->Synchronize(30ms).code(), StatusCode::kTimeout);
    auto t0 = std::chrono::steady_clock::now();
    m->Abort();
    Status st = s->Synchronize(10s);
    EXPECT_EQ(st.code(), StatusCode::kAborted) << st.ToString();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
    EXPECT_LT(count.load(), 10000);
    // Sticky until ResetAbort.
    s->ResetError();
    EXPECT_EQ(m->Execute().code(), StatusCode::kAborted);
    m->ResetAbort();
  }
}

TEST(CpuModel, AbortWakesAWaitingStream) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 2);
  std::atomic<bool> gate{false};
  auto e = m->AddEvent();
  ASSERT_TRUE(m->AddKernel(1, GateTask, &gate).ok());  // stopped only by the abort's stop flag
  ASSERT_TRUE(m->AddEventRecord(1, *e).ok());
  ASSERT_TRUE(m->AddEventWait(0, *e).ok());
  ASSERT_TRUE(m->Finalize().ok());
  auto s = MakeStream(*dev);
  ASSERT_TRUE(ModelExecute(*m, *s).ok());
  std::this_thread::sleep_for(10ms);
  m->Abort();
  EXPECT_EQ(s->Synchronize(10s).code(), StatusCode::kAborted);
}

TEST(CpuModel, ConcurrentLaunchOfOneModelIsRefused) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 1);
  std::atomic<bool> gate{false};
  ASSERT_TRUE(m->AddKernel(0, GateTask, &gate).ok());
  ASSERT_TRUE(m->Finalize().ok());
  auto s = MakeStream(*dev);
  ASSERT_TRUE(ModelExecute(*m, *s).ok());
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(m->Execute().code(), StatusCode::kFailedPrecondition);
  gate = true;
  EXPECT_TRUE(s->Synchronize(10s).ok());
}

TEST(CpuModel, DestroyingTheLaunchStreamCancelsTheModel) {
  auto dev = MakeDevice();
  auto m = MakeModel(*dev, 2);
  std::atomic<bool> gate{false};
  auto e = m->AddEvent();
  ASSERT_TRUE(m->AddKernel(1, GateTask, &gate).ok());
  ASSERT_TRUE(m->AddEventRecord(1, *e).ok());
  ASSERT_TRUE(m->AddEventWait(0, *e).ok());
  ASSERT_TRUE(m->Finalize().ok());
  {
    auto s = MakeStream(*dev);
    ASSERT_TRUE(ModelExecute(*m, *s).ok());
    std::this_thread::sleep_for(10ms);
  }  // must not hang
  gate = true;
  EXPECT_TRUE(m->Execute().ok());  // the cancel does not outlive that execution
}

}  // namespace
}  // namespace ge::rt
