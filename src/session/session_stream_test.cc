// Public streams and the run hooks of a session (include/ge/session.h): RunGraphWithStreamAsync enqueues and
// returns before the run ends, SynchronizeStream waits for it, callbacks fire once per run, GetCompiledModel's
// bytes load as an .om; stale or foreign stream handles are refused.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "ge/model.h"
#include "ge/session.h"

namespace ge {
namespace {

class SessionStreamTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

constexpr int64_t kN = 256;

// y = tanh(x * 0.5 + 1) over kN floats.
Graph Small() {
  Graph g("small");
  auto x = g.Input("x", DataType::kFloat, {kN});
  auto half = g.Constant("half", Tensor::Scalar<float>(0.5f));
  auto one = g.Constant("one", Tensor::Scalar<float>(1.0f));
  g.AddOutput(g.Op1("Tanh", {g.Op1("Add", {g.Op1("Mul", {x, half}), one})}));
  return g;
}

Tensor Input(float offset) {
  std::vector<float> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[i] = std::sin(0.1f * static_cast<float>(i)) + offset;
  return Tensor::FromVector<float>(v, {kN});
}

std::vector<float> Expected(const Tensor& x) {
  std::vector<float> y(kN);
  for (int64_t i = 0; i < kN; ++i) y[i] = std::tanh(x.data<float>()[i] * 0.5f + 1.0f);
  return y;
}

void ExpectNear(const Tensor& t, const std::vector<float>& want) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(t.data<float>()[i], want[i], 1e-5f) << i;
}

// A latch a callback blocks on until the test opens it.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  bool entered = false;
  void Wait() {
    std::unique_lock<std::mutex> lk(mu);
    entered = true;
    cv.notify_all();
    cv.wait(lk, [&] { return open; });
  }
  void WaitEntered() {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait(lk, [&] { return entered; });
  }
  void Open() {
    std::lock_guard<std::mutex> lk(mu);
    open = true;
    cv.notify_all();
  }
};

TEST_F(SessionStreamTest, RunReturnsBeforeTheRunEndsAndSynchronizeWaits) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Small()).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  void* stream = nullptr;
  ASSERT_TRUE(CreateStream(&stream).ok());
  ASSERT_TRUE(s.LoadGraph(1, {}, stream).ok());
  Gate gate;
  std::atomic<int> calls{0};
  // The callback is part of the run: while it blocks, the run has not ended.
  ASSERT_TRUE(s.RegisterCallBackFunc("Summary", [&](uint32_t id, const std::map<std::string, Tensor>& outs) {
                 EXPECT_EQ(id, 1u);
                 EXPECT_EQ(outs.size(), 1u);
                 ++calls;
                 gate.Wait();
                 return 0u;
               }).ok());
  const Tensor x = Input(0.25f);
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraphWithStreamAsync(1, stream, {x}, out).ok());  // returns while the run is held open
  ASSERT_EQ(out.size(), 1u);
  gate.WaitEntered();
  EXPECT_EQ(calls.load(), 1);
  gate.Open();
  ASSERT_TRUE(SynchronizeStream(stream).ok());
  EXPECT_EQ(calls.load(), 1);
  ExpectNear(out[0], Expected(x));
  // Several runs queue in order; each fires the callback once and writes its own outputs.
  std::vector<std::vector<Tensor>> outs(4);
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(s.RunGraphWithStreamAsync(1, stream, {Input(0.1f * k)}, outs[k]).ok());
  ASSERT_TRUE(SynchronizeStream(stream).ok());
  EXPECT_EQ(calls.load(), 5);
  for (int k = 0; k < 4; ++k) ExpectNear(outs[k][0], Expected(Input(0.1f * k)));
  ASSERT_TRUE(DestroyStream(stream).ok());
}

TEST_F(SessionStreamTest, CallbacksFireOncePerRunWithTheOutputsByName) {
  Session s;
  ASSERT_TRUE(s.AddGraph(3, Small()).ok());
  std::vector<uint32_t> ids;
  std::vector<float> first;
  ASSERT_TRUE(s.RegisterCallBackFunc("a", [&](uint32_t id, const std::map<std::string, Tensor>& outs) {
                 ids.push_back(id);
                 first.push_back(outs.begin()->second.data<float>()[0]);
                 return 0u;
               }).ok());
  int replaced_calls = 0;
  ASSERT_TRUE(s.RegisterCallBackFunc("b", [&](uint32_t, const std::map<std::string, Tensor>&) {
                 ++replaced_calls;
                 return 0u;
               }).ok());
  int b_calls = 0;
  ASSERT_TRUE(s.RegisterCallBackFunc("b", [&](uint32_t, const std::map<std::string, Tensor>&) {
                 ++b_calls;
                 return 0u;
               }).ok());
  std::vector<Tensor> out;
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(s.RunGraph(3, {Input(k)}, out).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{3, 3, 3}));
  EXPECT_EQ(b_calls, 3);
  EXPECT_EQ(replaced_calls, 0);
  EXPECT_NEAR(first[2], Expected(Input(2))[0], 1e-5f);
  // A failed run calls nothing.
  EXPECT_FALSE(s.RunGraph(3, {Tensor::FromVector<float>({1.0f}, {1})}, out).ok());
  EXPECT_EQ(b_calls, 3);
  EXPECT_EQ(s.RegisterCallBackFunc("", [](uint32_t, const std::map<std::string, Tensor>&) { return 0u; }).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(s.RegisterCallBackFunc("c", nullptr).code(), StatusCode::kInvalidArgument);
}

TEST_F(SessionStreamTest, CompiledModelBytesLoadAsAnOm) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Small()).ok());
  ModelBufferData buffer;
  EXPECT_EQ(s.GetCompiledModel(1, buffer).code(), StatusCode::kFailedPrecondition);
  std::vector<Tensor> out;
  const Tensor x = Input(-0.5f);
  ASSERT_TRUE(s.RunGraph(1, {x}, out).ok());
  ASSERT_TRUE(s.GetCompiledModel(1, buffer).ok());
  ASSERT_GT(buffer.length, 0u);
  auto model = OfflineModel::LoadFromMemory(buffer.data.get(), buffer.length);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::vector<Tensor> again;
  ASSERT_TRUE((*model)->Execute(std::vector<Tensor>{x}, &again).ok());
  ASSERT_EQ(again.size(), 1u);
  ExpectNear(again[0], std::vector<float>(out[0].data<float>(), out[0].data<float>() + kN));
  EXPECT_EQ(s.GetCompiledModel(9, buffer).code(), StatusCode::kNotFound);
}

TEST_F(SessionStreamTest, BadHandlesAndInputsAreRefusedAndRunErrorsAreTheStreams) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Small()).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  int not_a_stream = 0;
  EXPECT_EQ(SynchronizeStream(&not_a_stream).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(SynchronizeStream(nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DestroyStream(&not_a_stream).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.LoadGraph(1, {}, &not_a_stream).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateStream(nullptr).code(), StatusCode::kInvalidArgument);
  void* stream = nullptr;
  ASSERT_TRUE(CreateStream(&stream).ok());
  ASSERT_TRUE(s.LoadGraph(1, {}, stream).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraphWithStreamAsync(1, stream, {Tensor::FromVector<float>({1.0f}, {1})}, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("'x'"), std::string::npos) << st.ToString();
  // A graph removed after its run was enqueued: the stream reports it, and it is cleared once reported.
  Gate gate;
  ASSERT_TRUE(s.AddGraph(2, Small()).ok());
  ASSERT_TRUE(s.CompileGraph(2).ok());
  ASSERT_TRUE(s.LoadGraph(2, {}, stream).ok());
  ASSERT_TRUE(s.RegisterCallBackFunc("hold", [&](uint32_t id, const std::map<std::string, Tensor>&) {
                 if (id == 1) gate.Wait();
                 return 0u;
               }).ok());
  std::vector<Tensor> held, lost;
  ASSERT_TRUE(s.RunGraphWithStreamAsync(1, stream, {Input(0)}, held).ok());
  ASSERT_TRUE(s.RunGraphWithStreamAsync(2, stream, {Input(0)}, lost).ok());
  gate.WaitEntered();
  ASSERT_TRUE(s.RemoveGraph(2).ok());
  gate.Open();
  st = SynchronizeStream(stream);
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
  EXPECT_NE(st.message().find("graph 2"), std::string::npos) << st.ToString();
  EXPECT_TRUE(SynchronizeStream(stream).ok());
  ExpectNear(held[0], Expected(Input(0)));
  ASSERT_TRUE(DestroyStream(stream).ok());
  EXPECT_EQ(SynchronizeStream(stream).code(), StatusCode::kInvalidArgument);  // destroyed
  EXPECT_EQ(s.RunGraphWithStreamAsync(1, stream, {Input(0)}, out).code(), StatusCode::kInvalidArgument);
}

TEST_F(SessionStreamTest, ASessionClosedWithRunsOnAStreamWaitsForThem) {
  void* stream = nullptr;
  ASSERT_TRUE(CreateStream(&stream).ok());
  std::vector<Tensor> out;
  {
    Session s;
    ASSERT_TRUE(s.AddGraph(1, Small()).ok());
    ASSERT_TRUE(s.CompileGraph(1).ok());
    ASSERT_TRUE(s.LoadGraph(1).ok());
    for (int k = 0; k < 8; ++k) ASSERT_TRUE(s.RunGraphWithStreamAsync(1, stream, {Input(1)}, out).ok());
  }  // the destructor waits for the eight runs
  EXPECT_TRUE(SynchronizeStream(stream).ok());
  ExpectNear(out[0], Expected(Input(1)));
  ASSERT_TRUE(DestroyStream(stream).ok());
}

}  // namespace
}  // namespace ge
