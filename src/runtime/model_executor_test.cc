#include "runtime/model_executor.h"

#include <gtest/gtest.h>

#include <atomic>

#include "runtime/fake_model.h"
#include "runtime/runtime_context.h"

namespace ge::runtime {
namespace {
using testing::Buffers;
using testing::FakeModel;

std::unique_ptr<RuntimeContext> MakeContext(std::shared_ptr<testing::FakeLoaderState> state = nullptr) {
  RuntimeContextOptions o;
  o.device.intra_op_threads = 1;
  o.loader = testing::FakeLoader(std::move(state));
  return std::move(RuntimeContext::Create(std::move(o))).value();
}

bool Loaded(const ModelExecutor& ex, GraphId g) { return ex.state(g)->loaded; }

Status RunOnce(ModelExecutor& ex, GraphId g) {
  std::vector<float> x = {1, 2, 3, 4}, y(4);
  Status st = ex.RunGraph(g, Buffers(x), Buffers(y));
  if (st.ok() && y != std::vector<float>{2, 3, 4, 5}) return Internal("wrong outputs");
  return st;
}

TEST(ModelExecutor, EvictsTheLeastRecentlyUsedIdleModelToFit) {
  auto state = std::make_shared<testing::FakeLoaderState>();
  auto ctx = MakeContext(state);
  ModelExecutor ex(&ctx->models(), ModelExecutorOptions{1000});
  ASSERT_TRUE(ex.AddGraph(1, ModelSource::File("a:400")).ok());
  ASSERT_TRUE(ex.AddGraph(2, ModelSource::File("b:400")).ok());
  ASSERT_TRUE(ex.AddGraph(3, ModelSource::File("c:400")).ok());
  EXPECT_EQ(ex.AddGraph(3, ModelSource::File("c:400")).code(), StatusCode::kFailedPrecondition);

  ASSERT_TRUE(RunOnce(ex, 1).ok());
  ASSERT_TRUE(RunOnce(ex, 2).ok());
  ASSERT_TRUE(RunOnce(ex, 1).ok());  // graph 2 is now the least recently used
  EXPECT_EQ(ex.loaded_bytes(), 800u);
  EXPECT_LT(ex.state(2)->last_use, ex.state(1)->last_use);

  ASSERT_TRUE(RunOnce(ex, 3).ok());  // 1200 > 1000: graph 2 goes
  EXPECT_TRUE(Loaded(ex, 1));
  EXPECT_FALSE(Loaded(ex, 2));
  EXPECT_TRUE(Loaded(ex, 3));
  EXPECT_EQ(ex.state(2)->evictions, 1u);
  EXPECT_EQ(ex.loaded_bytes(), 800u);
  EXPECT_EQ(ctx->models().usage().models, 2u);

  // Graph 2 reloads on its next run; its size is known now, so room is made first (graph 1 is the LRU).
  ASSERT_TRUE(RunOnce(ex, 2).ok());
  EXPECT_FALSE(Loaded(ex, 1));
  EXPECT_TRUE(Loaded(ex, 2));
  EXPECT_TRUE(Loaded(ex, 3));
  EXPECT_EQ(ex.state(2)->loads, 2u);
  EXPECT_EQ(state->loads.load(), 4);
  EXPECT_LE(ctx->models().usage().feature_map_bytes, 1000u);
}

TEST(ModelExecutor, NeverEvictsCollectiveOrBusyModels) {
  auto ctx = MakeContext();
  ModelExecutor ex(&ctx->models(), ModelExecutorOptions{1000});
  ASSERT_TRUE(ex.AddGraph(1, ModelSource::File("a:400:collective")).ok());
  ASSERT_TRUE(ex.AddGraph(2, ModelSource::File("b:400")).ok());
  GraphModelOptions marked;
  marked.load.holds_collective_tasks = true;
  ASSERT_TRUE(ex.AddGraph(4, ModelSource::File("d:100"), marked).ok());
  ASSERT_TRUE(ex.AddGraph(3, ModelSource::File("c:400"), GraphModelOptions{{}, 400}).ok());
  ASSERT_TRUE(RunOnce(ex, 1).ok());
  ASSERT_TRUE(RunOnce(ex, 4).ok());
  EXPECT_TRUE(ex.state(1)->holds_collective_tasks);
  EXPECT_TRUE(ex.state(4)->holds_collective_tasks);

  // Graph 2 is busy: an async request is held at the gate.
  ASSERT_TRUE(ex.LoadGraph(2).ok());
  ModelId model2 = ex.state(2)->model_id;
  std::vector<float> gx = {FakeModel::kGate, 0, 0, 0}, gy(4);
  std::atomic<int> done{0};
  RunRequest r{0, Buffers(gx), Buffers(gy), rt::kWaitForever,
               [&](uint64_t, const Status& st, const std::vector<DataBuffer>&) { done += st.ok(); }};
  ASSERT_TRUE(ex.RunGraphAsync(2, std::move(r)).ok());
  FakeModel* fake2 = nullptr;
  {
    auto lease = ctx->models().Acquire(model2);
    fake2 = static_cast<FakeModel*>(&lease->model());
  }
  fake2->WaitUntilBlocked();

  Status st = RunOnce(ex, 3);  // 900 loaded, 400 more needed, nothing evictable
  ASSERT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("graph 1 holds collective tasks"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("graph 4 holds collective tasks"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("graph 2 is in use"), std::string::npos) << st.message();
  EXPECT_FALSE(Loaded(ex, 3));
  EXPECT_TRUE(Loaded(ex, 2));

  fake2->OpenGate();
  ASSERT_TRUE(ex.RemoveGraph(2, rt::kWaitForever).ok());  // waits for the request's callback
  EXPECT_EQ(done.load(), 1);
  ASSERT_TRUE(RunOnce(ex, 3).ok());  // 500 + 400 fits
  EXPECT_EQ(ex.loaded_bytes(), 900u);
}

TEST(ModelExecutor, EvictsIdleModelOnceItsRunsFinish) {
  auto ctx = MakeContext();
  ModelExecutor ex(&ctx->models(), ModelExecutorOptions{1000});
  ASSERT_TRUE(ex.AddGraph(1, ModelSource::File("a:600")).ok());
  ASSERT_TRUE(ex.AddGraph(2, ModelSource::File("b:600")).ok());
  ASSERT_TRUE(RunOnce(ex, 1).ok());
  auto lease = ctx->models().Acquire(ex.state(1)->model_id);  // a run in flight
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ(RunOnce(ex, 2).code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ex.ReleaseMemory(600).code(), StatusCode::kResourceExhausted);
  lease->Reset();
  ASSERT_TRUE(RunOnce(ex, 2).ok());
  EXPECT_FALSE(Loaded(ex, 1));
  EXPECT_EQ(ex.loaded_bytes(), 600u);
}

TEST(ModelExecutor, RejectsAModelLargerThanTheBudget) {
  auto ctx = MakeContext();
  ModelExecutor ex(&ctx->models(), ModelExecutorOptions{1000});
  ASSERT_TRUE(ex.AddGraph(1, ModelSource::File("big:4000")).ok());
  Status st = ex.LoadGraph(1);
  ASSERT_EQ(st.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(st.message().find("loading graph 1 (4000 bytes)"), std::string::npos) << st.message();
  EXPECT_FALSE(Loaded(ex, 1));
  EXPECT_TRUE(ctx->models().ids().empty());  // the trial load was given back
  st = ex.LoadGraph(1);                      // now the size is known: refused before loading
  EXPECT_NE(st.message().find("more than the budget of 1000"), std::string::npos) << st.message();
}

TEST(ModelExecutor, RunsAllThreeWaysAndRemovesGraphs) {
  auto ctx = MakeContext();
  ModelExecutor ex(&ctx->models());
  ASSERT_TRUE(ex.AddGraph(7, ModelSource::File("g:10")).ok());
  EXPECT_EQ(ex.RunGraph(8, {}, {}).code(), StatusCode::kNotFound);
  ASSERT_TRUE(RunOnce(ex, 7).ok());

  std::vector<float> x = {5, 6, 7, 8}, y(4), y2(4);
  std::atomic<int> ok{0};
  RunRequest r{0, Buffers(x), Buffers(y), rt::kWaitForever,
               [&](uint64_t, const Status& st, const std::vector<DataBuffer>&) { ok += st.ok(); }};
  ASSERT_TRUE(ex.RunGraphAsync(7, std::move(r)).ok());
  auto stream = ctx->device().CreateStream();
  ASSERT_TRUE(ex.RunGraphWithStream(7, Buffers(x), Buffers(y2), **stream).ok());
  ASSERT_TRUE((*stream)->Synchronize().ok());
  ASSERT_TRUE(ex.RemoveGraph(7, rt::kWaitForever).ok());
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(y, (std::vector<float>{6, 7, 8, 9}));
  EXPECT_EQ(y2, (std::vector<float>{6, 7, 8, 9}));
  EXPECT_TRUE(ctx->models().ids().empty());
  EXPECT_EQ(ex.state(7).status().code(), StatusCode::kNotFound);
}

TEST(ModelExecutor, DestructionUnloadsItsModels) {
  auto ctx = MakeContext();
  {
    ModelExecutor ex(&ctx->models());
    ASSERT_TRUE(ex.AddGraph(1, ModelSource::File("a:10")).ok());
    ASSERT_TRUE(ex.AddGraph(2, ModelSource::File("b:10")).ok());
    ASSERT_TRUE(ex.LoadGraph(1).ok());
    ASSERT_TRUE(ex.LoadGraph(2).ok());
    EXPECT_EQ(ctx->models().ids().size(), 2u);
  }
  EXPECT_TRUE(ctx->models().ids().empty());
}

}  // namespace
}  // namespace ge::runtime
