#include "runtime/model_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "runtime/fake_model.h"
#include "runtime/graph_executor.h"
#include "runtime/graph_loader.h"
#include "runtime/runtime_context.h"

namespace ge::runtime {
namespace {
using namespace std::chrono_literals;
using testing::Buffers;
using testing::FakeModel;

std::unique_ptr<RuntimeContext> MakeContext(std::shared_ptr<testing::FakeLoaderState> state = nullptr) {
  RuntimeContextOptions o;
  o.device.intra_op_threads = 1;
  o.loader = testing::FakeLoader(std::move(state));
  auto ctx = RuntimeContext::Create(std::move(o));
  EXPECT_TRUE(ctx.ok()) << ctx.status().ToString();
  return std::move(ctx).value();
}

FakeModel& Fake(ModelManager& mm, ModelId id) {
  auto lease = mm.Acquire(id);
  EXPECT_TRUE(lease.ok());
  return static_cast<FakeModel&>(lease->model());  // the entry outlives the lease while loaded
}

TEST(ModelManager, LoadGetUnloadWithIncreasingIds) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  auto a = mm.LoadFromFile("a:100");
  const char spec[] = "b:200";
  auto b = mm.LoadFromMemory(spec, std::strlen(spec));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, 1u);
  EXPECT_EQ(*b, 2u);
  {
    auto lease = mm.Acquire(*a);
    ASSERT_TRUE(lease.ok());
    EXPECT_EQ(lease->model().name(), "a");
    EXPECT_EQ(lease->id(), *a);
  }
  ResourceUsage u = mm.usage();
  EXPECT_EQ(u.models, 2u);
  EXPECT_EQ(u.feature_map_bytes, 300u);
  EXPECT_EQ(u.weights_bytes, 128u);

  ASSERT_TRUE(mm.Unload(*a).ok());
  EXPECT_EQ(mm.Acquire(*a).status().code(), StatusCode::kNotFound);
  Status again = mm.Unload(*a);
  EXPECT_EQ(again.code(), StatusCode::kNotFound);
  EXPECT_EQ(again.message(), "model 1 is not loaded");
  auto c = mm.LoadFromFile("c:50");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, 3u);  // ids are never reused
  EXPECT_EQ(mm.ids(), (std::vector<ModelId>{2, 3}));
  EXPECT_EQ(mm.usage().feature_map_bytes, 250u);
  auto info = mm.Info(*c);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->name, "c");
  EXPECT_EQ(info->feature_map_bytes, 50u);
  EXPECT_EQ(mm.Info(99).status().code(), StatusCode::kNotFound);
}

TEST(ModelManager, LoadErrorsNameTheSource) {
  auto state = std::make_shared<testing::FakeLoaderState>();
  auto ctx = MakeContext(state);
  auto bad = ctx->models().LoadFromFile("missing:1");
  ASSERT_EQ(bad.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(bad.status().message(), "loading model from missing:1: no such model 'missing:1'");
  EXPECT_EQ(ctx->models().Load(ModelSource{}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(state->failures.load(), 1);
  EXPECT_TRUE(ctx->models().ids().empty());

  RuntimeContextOptions no_loader;
  EXPECT_EQ(RuntimeContext::Create(std::move(no_loader)).status().code(), StatusCode::kInvalidArgument);
}

TEST(ModelManager, UnloadRefusesWhileInUse) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *mm.LoadFromFile("a:10");
  auto lease = mm.Acquire(id);
  ASSERT_TRUE(lease.ok());
  Status st = mm.Unload(id);
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(st.message(), "model 1 'a' is in use (1 run(s) in flight); not unloaded");
  EXPECT_EQ(mm.Info(id)->uses, 1u);
  EXPECT_TRUE(mm.Acquire(id).ok());  // still usable after the refusal
  lease->Reset();
  EXPECT_TRUE(mm.Unload(id).ok());
}

TEST(ModelManager, UnloadWaitsForRunsInFlight) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *mm.LoadFromFile("a:10");
  auto lease = mm.Acquire(id);
  ASSERT_TRUE(lease.ok());
  Status unloaded;
  std::thread unloader([&] { unloaded = mm.Unload(id, rt::kWaitForever); });
  // Once the unload has begun, new uses are refused.
  while (mm.Acquire(id).status().code() != StatusCode::kFailedPrecondition) std::this_thread::yield();
  EXPECT_EQ(mm.Acquire(id).status().message(), "model 1 'a' is being unloaded");
  lease->Reset();
  unloader.join();
  EXPECT_TRUE(unloaded.ok()) << unloaded.ToString();
  EXPECT_TRUE(mm.ids().empty());
}

TEST(ModelManager, AsyncRequestsPinTheModelUntilTheirCallback) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *mm.LoadFromFile("a:10");
  FakeModel& model = Fake(mm, id);
  std::vector<float> gate_x = {FakeModel::kGate, 0, 0, 0}, gate_y(4), x = {1, 2, 3, 4}, y(4);
  std::atomic<int> ok{0};
  auto cb = [&](uint64_t, const Status& st, const std::vector<DataBuffer>&) { ok += st.ok(); };
  RunRequest g{0, Buffers(gate_x), Buffers(gate_y), rt::kWaitForever, cb};
  RunRequest r{0, Buffers(x), Buffers(y), rt::kWaitForever, cb};
  ASSERT_TRUE(GraphExecutor::ExecuteGraphAsync(mm, id, std::move(g)).ok());
  ASSERT_TRUE(GraphExecutor::ExecuteGraphAsync(mm, id, std::move(r)).ok());
  model.WaitUntilBlocked();
  EXPECT_EQ(mm.Info(id)->uses, 2u);
  EXPECT_TRUE(mm.Info(id)->run_loop_running);
  EXPECT_EQ(mm.Unload(id).code(), StatusCode::kFailedPrecondition);
  model.OpenGate();
  ASSERT_TRUE(mm.Unload(id, rt::kWaitForever).ok());  // returns once both callbacks have run
  EXPECT_EQ(ok.load(), 2);
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5}));
}

TEST(ModelManager, StopRunLoopCancelsQueuedRequests) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *mm.LoadFromFile("a:10");
  ASSERT_TRUE(mm.StartRunLoop(id, RunLoopOptions{4}).ok());
  FakeModel& model = Fake(mm, id);
  std::vector<std::vector<float>> xs(4, std::vector<float>(4)), ys(4, std::vector<float>(4));
  xs[0][0] = FakeModel::kHang;
  std::vector<std::atomic<int>> codes(4);
  for (int i = 0; i < 4; ++i) {
    RunRequest r{0, Buffers(xs[i]), Buffers(ys[i]), rt::kWaitForever,
                 [&codes, i](uint64_t, const Status& st, const std::vector<DataBuffer>&) {
                   codes[i] = static_cast<int>(st.code()) + 100;
                 }};
    ASSERT_TRUE(mm.Submit(id, std::move(r)).ok());
    if (i == 0) model.WaitUntilBlocked();
  }
  ASSERT_TRUE(mm.StopRunLoop(id, StopMode::kAbortRunning).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(codes[i].load(), static_cast<int>(StatusCode::kAborted) + 100) << i;
  EXPECT_FALSE(mm.Info(id)->run_loop_running);
  RunRequest late{0, Buffers(xs[1]), Buffers(ys[1]), rt::kWaitForever, nullptr};
  EXPECT_EQ(mm.Submit(id, std::move(late)).status().code(), StatusCode::kFailedPrecondition);
  ASSERT_TRUE(mm.StartRunLoop(id).ok());  // restartable
  RunRequest again{0, Buffers(xs[1]), Buffers(ys[1]), rt::kWaitForever, nullptr};
  EXPECT_TRUE(mm.Submit(id, std::move(again)).ok());
  EXPECT_TRUE(mm.Unload(id, rt::kWaitForever).ok());
}

TEST(ModelManager, SyncAndStreamExecution) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *GraphLoader::LoadModelFromFile(mm, "m:10");
  auto io = GraphLoader::GetModelIo(mm, id);
  ASSERT_TRUE(io.ok());
  EXPECT_EQ(io->name, "m");
  ASSERT_EQ(io->inputs.size(), 1u);
  EXPECT_EQ(io->inputs[0].name, "x");
  EXPECT_EQ(io->outputs[0].size_bytes, 16u);

  std::vector<float> x = {1, 2, 3, 4}, y(4), y2(4);
  ASSERT_TRUE(GraphExecutor::ExecuteGraph(mm, id, Buffers(x), Buffers(y)).ok());
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5}));
  std::vector<float> bad(2);
  EXPECT_EQ(GraphExecutor::ExecuteGraph(mm, id, Buffers(bad), Buffers(y)).code(), StatusCode::kInvalidArgument);

  auto stream = ctx->device().CreateStream();
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE(GraphExecutor::ExecuteGraphWithStream(mm, id, Buffers(x), Buffers(y2), **stream).ok());
  ASSERT_TRUE((*stream)->Synchronize().ok());
  EXPECT_EQ(y2, (std::vector<float>{2, 3, 4, 5}));
  EXPECT_TRUE(GraphLoader::UnloadModel(mm, id).ok());
  EXPECT_EQ(GraphExecutor::ExecuteGraph(mm, id, Buffers(x), Buffers(y)).code(), StatusCode::kNotFound);
}

TEST(ModelManager, StreamRunsPinTheModelUntilTheStreamPassesThem) {
  auto ctx = MakeContext();
  ModelManager& mm = ctx->models();
  ModelId id = *mm.LoadFromFile("m:10");
  FakeModel& model = Fake(mm, id);
  auto stream = ctx->device().CreateStream();
  ASSERT_TRUE(stream.ok());
  std::vector<float> x = {FakeModel::kGate, 0, 0, 0}, y(4);
  ASSERT_TRUE(mm.ExecuteWithStream(id, Buffers(x), Buffers(y), **stream).ok());
  model.WaitUntilBlocked();
  EXPECT_EQ(mm.Info(id)->uses, 1u);
  EXPECT_EQ(mm.Unload(id).code(), StatusCode::kFailedPrecondition);
  model.OpenGate();
  EXPECT_TRUE(mm.Unload(id, rt::kWaitForever).ok());
  EXPECT_TRUE((*stream)->Synchronize().ok());
}

TEST(ModelManager, DestructionCancelsQueuedRequests) {
  auto ctx = MakeContext();
  ModelId id = *ctx->models().LoadFromFile("m:10");
  std::vector<float> x(4), y(4);
  std::atomic<int> calls{0};
  // Requests may or may not have run when the context goes; each callback runs exactly once either way.
  for (int i = 0; i < 20; ++i) {
    RunRequest r{0, Buffers(x), Buffers(y), rt::kWaitForever,
                 [&](uint64_t, const Status& st, const std::vector<DataBuffer>&) {
                   EXPECT_TRUE(st.ok() || st.code() == StatusCode::kAborted) << st.ToString();
                   calls++;
                 }};
    ASSERT_TRUE(ctx->models().Submit(id, std::move(r)).ok());
  }
  ctx.reset();
  EXPECT_EQ(calls.load(), 20);
}

}  // namespace
}  // namespace ge::runtime
