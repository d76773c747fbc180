// The public OfflineModel API over fake models (OfflineModelAccess::Load with FakeLoader). The same API over
// compiled .om models is tested in sink_integration_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "ge/model.h"
#include "runtime/fake_model.h"
#include "runtime/offline_model_internal.h"

namespace ge::runtime {
namespace {
using namespace std::chrono_literals;
using testing::FakeModel;

std::unique_ptr<OfflineModel> LoadFake(const std::string& spec, OfflineModelOptions options = {}) {
  options.intra_op_threads = 1;
  auto m = OfflineModelAccess::Load(ModelSource::File(spec), options, testing::FakeLoader());
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m).value();
}

FakeModel& Fake(OfflineModel& m) {
  auto lease = OfflineModelAccess::context(m).models().Acquire(OfflineModelAccess::model_id(m));
  return static_cast<FakeModel&>(lease->model());
}

TEST(OfflineModel, DescribesInputsAndOutputs) {
  auto m = LoadFake("net:256");
  EXPECT_EQ(m->name(), "net");
  ASSERT_EQ(m->inputs().size(), 1u);
  ASSERT_EQ(m->outputs().size(), 1u);
  const ModelTensorDesc& x = m->inputs()[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.dtype, DataType::kFloat);
  EXPECT_EQ(x.dims, (std::vector<int64_t>{4}));
  EXPECT_EQ(x.bytes, 16u);
  EXPECT_EQ(m->outputs()[0].name, "y");
  EXPECT_EQ(m->feature_map_bytes(), 256u);
  EXPECT_TRUE(m->loaded());
}

TEST(OfflineModel, ExecutesSynchronouslyOnCallerBuffers) {
  auto m = LoadFake("net:0");
  std::vector<float> x = {1, 2, 3, 4}, y(4);
  ASSERT_TRUE(m->Execute({{x.data(), 16}}, {{y.data(), 16}}).ok());
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5}));
  Status bad = m->Execute({{x.data(), 12}}, {{y.data(), 16}});
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("input 0 'x'"), std::string::npos) << bad.message();
  EXPECT_NE(bad.message().find("buffer is 12 bytes, expected 16"), std::string::npos) << bad.message();
  Status null_data = m->Execute({{x.data(), 16}}, {{nullptr, 16}});
  EXPECT_EQ(null_data.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(null_data.message().find("output 0 'y'"), std::string::npos) << null_data.message();
  EXPECT_NE(null_data.message().find("buffer data is null"), std::string::npos) << null_data.message();
  EXPECT_EQ(m->Execute({}, {{y.data(), 16}}).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(m->Execute({{x.data(), 16}}, {{y.data(), 16}}).ok());  // good buffers after bad ones
}

TEST(OfflineModel, ExecutesAsynchronouslyFromManyThreads) {
  OfflineModelOptions o;
  o.async_queue_capacity = 8;
  auto m = LoadFake("net:0", o);
  constexpr int kThreads = 4, kPerThread = 500, kTotal = kThreads * kPerThread;
  std::vector<std::vector<float>> xs(kTotal, std::vector<float>(4)), ys(kTotal, std::vector<float>(4));
  std::vector<std::atomic<int>> calls(kTotal);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t * kPerThread; i < (t + 1) * kPerThread; ++i) {
        xs[i] = {float(i), 0, 0, 0};
        Status st = m->ExecuteAsync({{xs[i].data(), 16}}, {{ys[i].data(), 16}}, [&, i](const Status& s) {
          calls[i]++;
          ok += s.ok();
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_TRUE(m->Unload().ok());  // cancels nothing here unless queued; every callback has run on return
  for (int i = 0; i < kTotal; ++i) ASSERT_EQ(calls[i].load(), 1) << i;
  // Requests still queued at Unload were cancelled; every one that ran computed x + 1.
  int ran = 0;
  for (int i = 0; i < kTotal; ++i) {
    if (ys[i][1] == 1.f) {
      ++ran;
      EXPECT_EQ(ys[i][0], float(i) + 1.f);
    }
  }
  EXPECT_EQ(ran, ok.load());
}

TEST(OfflineModel, AsyncTimeoutAbortsTheRun) {
  auto m = LoadFake("net:0");
  std::vector<float> x = {FakeModel::kHang, 0, 0, 0}, y(4), x2 = {1, 1, 1, 1}, y2(4);
  std::atomic<int> first{-1}, second{-1};
  AsyncRunOptions short_run;
  short_run.timeout = 10ms;
  ASSERT_TRUE(
      m->ExecuteAsync(
           {{x.data(), 16}}, {{y.data(), 16}}, [&](const Status& s) { first = static_cast<int>(s.code()); }, short_run)
          .ok());
  ASSERT_TRUE(m->ExecuteAsync({{x2.data(), 16}}, {{y2.data(), 16}}, [&](const Status& s) {
                 second = static_cast<int>(s.code());
               }).ok());
  while (second.load() < 0) std::this_thread::yield();
  EXPECT_EQ(first.load(), static_cast<int>(StatusCode::kTimeout));
  EXPECT_EQ(second.load(), static_cast<int>(StatusCode::kOk));
  EXPECT_EQ(y2, (std::vector<float>{2, 2, 2, 2}));
}

TEST(OfflineModel, UnloadCancelsQueuedRequestsAndRefusesLaterRuns) {
  auto m = LoadFake("net:0");
  FakeModel& fake = Fake(*m);
  std::vector<std::vector<float>> xs(4, std::vector<float>(4)), ys(4, std::vector<float>(4));
  xs[0][0] = FakeModel::kGate;
  std::vector<std::atomic<int>> codes(4);
  for (auto& c : codes) c = -1;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(m->ExecuteAsync({{xs[i].data(), 16}}, {{ys[i].data(), 16}}, [&codes, i](const Status& s) {
                   codes[i] = static_cast<int>(s.code());
                 }).ok());
    if (i == 0) fake.WaitUntilBlocked();
  }
  Status unloaded;
  std::thread unloader([&] { unloaded = m->Unload(); });
  auto& mm = OfflineModelAccess::context(*m).models();
  const ModelId id = OfflineModelAccess::model_id(*m);
  while (mm.Info(id)->run_loop_running) std::this_thread::yield();  // the queue is closed
  fake.OpenGate();
  unloader.join();
  EXPECT_TRUE(unloaded.ok()) << unloaded.ToString();
  EXPECT_EQ(codes[0].load(), static_cast<int>(StatusCode::kOk));
  for (int i = 1; i < 4; ++i) EXPECT_EQ(codes[i].load(), static_cast<int>(StatusCode::kAborted)) << i;
  EXPECT_FALSE(m->loaded());
  EXPECT_TRUE(m->Unload().ok());  // idempotent
  std::vector<float> x(4), y(4);
  Status after = m->Execute({{x.data(), 16}}, {{y.data(), 16}});
  EXPECT_EQ(after.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(after.message(), "model 'net' is unloaded");
  EXPECT_EQ(m->ExecuteAsync({{x.data(), 16}}, {{y.data(), 16}}, nullptr).code(), StatusCode::kFailedPrecondition);
}

TEST(OfflineModel, ValidatesOptionsAndSources) {
  OfflineModelOptions o;
  o.feature_map_size = 1024;  // without memory
  EXPECT_EQ(OfflineModelAccess::Load(ModelSource::File("a:1"), o, testing::FakeLoader()).status().code(),
            StatusCode::kInvalidArgument);
  OfflineModelOptions neg;
  neg.intra_op_threads = -1;
  EXPECT_EQ(OfflineModelAccess::Load(ModelSource::File("a:1"), neg, testing::FakeLoader()).status().code(),
            StatusCode::kInvalidArgument);
  auto missing = OfflineModelAccess::Load(ModelSource::File("missing:1"), {}, testing::FakeLoader());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(OfflineModelAccess::MemorySource(nullptr, 10, {}).status().code(), StatusCode::kInvalidArgument);
}

TEST(OfflineModel, MemorySourcesCopyUnlessBorrowed) {
  std::string spec = "mem:64";
  auto copied = OfflineModelAccess::MemorySource(spec.data(), spec.size(), {});
  ASSERT_TRUE(copied.ok());
  EXPECT_NE(copied->data, spec.data());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copied->data) % 4096, 0u);
  EXPECT_EQ(std::memcmp(copied->data, spec.data(), spec.size()), 0);
  EXPECT_NE(copied->keep_alive, nullptr);
  auto m = OfflineModelAccess::Load(*copied, {}, testing::FakeLoader());
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)->name(), "mem");

  OfflineModelOptions borrow;
  borrow.borrow_model_data = true;
  auto borrowed = OfflineModelAccess::MemorySource(spec.data(), spec.size(), borrow);
  ASSERT_TRUE(borrowed.ok());
  EXPECT_EQ(borrowed->data, spec.data());
  EXPECT_EQ(borrowed->keep_alive, nullptr);
}

}  // namespace
}  // namespace ge::runtime
