// Session graphs with symbolic dims run on runtime v2: RunGraph / RunGraphAsync at any size with outputs at their
// run-time shapes; what needs a static memory plan (LoadGraph, feature memory bases, RunGraphWithStreamAsync) is a
// clear Unimplemented error. Variables in dynamic graphs: dynamic_variables_test.cc.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "ge/session.h"

namespace ge {
namespace {

class DynamicGraphTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

// y = Relu(x) + 1 on x: float[?, 4].
Graph ReluPlusOne() {
  Graph g("relu_plus_one");
  auto x = g.Input("x", DataType::kFloat, {-1, 4});
  auto one = g.Constant("one", Tensor::Scalar<float>(1.0f));
  g.AddOutput(g.Op1("Add", {g.Op1("Relu", {x}), one}));
  return g;
}

Tensor Rows(int64_t rows) {
  std::vector<float> v(static_cast<size_t>(rows * 4));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 5) - 2.f;
  return Tensor::FromVector<float>(v, {rows, 4});
}

void ExpectReluPlusOne(const Tensor& in, const Tensor& out) {
  ASSERT_EQ(out.dims(), in.dims());
  for (int64_t i = 0; i < in.numel(); ++i) {
    const float x = in.data<float>()[i];
    EXPECT_EQ(out.data<float>()[i], (x > 0 ? x : 0.f) + 1.f) << i;
  }
}

TEST_F(DynamicGraphTest, RunGraphAtAnySize) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, ReluPlusOne()).ok());
  for (int64_t rows : {1, 7, 3, 64, 7}) {
    std::vector<Tensor> out;
    Tensor in = Rows(rows);
    Status st = s.RunGraph(1, {in}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_EQ(out.size(), 1u);
    ExpectReluPlusOne(in, out[0]);
  }
  std::vector<Tensor> out;
  Status st = s.RunGraph(1, {Tensor::FromVector<float>({1, 2, 3}, {1, 3})}, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("graph 1"), std::string::npos) << st.ToString();
}

TEST_F(DynamicGraphTest, RunGraphAsync) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, ReluPlusOne()).ok());
  std::mutex mu;
  std::condition_variable cv;
  int done = 0;
  Tensor a = Rows(2), b = Rows(9);
  for (const Tensor* in : {&a, &b}) {
    ASSERT_TRUE(s.RunGraphAsync(1, {*in}, [&, in](Status st, std::vector<Tensor>& out) {
                   EXPECT_TRUE(st.ok()) << st.ToString();
                   if (st.ok()) ExpectReluPlusOne(*in, out.at(0));
                   std::lock_guard<std::mutex> lk(mu);
                   ++done;
                   cv.notify_all();
                 }).ok());
  }
  std::unique_lock<std::mutex> lk(mu);
  cv.wait(lk, [&] { return done == 2; });
}

TEST_F(DynamicGraphTest, CompiledSummaryAndStaticOnlyCalls) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, ReluPlusOne()).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  CompiledGraphSummary summary;
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  EXPECT_FALSE(summary.is_static);
  ASSERT_EQ(summary.inputs.size(), 1u);
  EXPECT_EQ(summary.inputs[0].dims, (std::vector<int64_t>{-1, 4}));
  alignas(64) static char memory[4096];
  for (Status st : {s.LoadGraph(1, {}, nullptr), s.SetGraphFixedFeatureMemoryBase(1, memory, sizeof memory)}) {
    EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();
    EXPECT_NE(st.message().find("dynamic shapes"), std::string::npos) << st.ToString();
  }
  std::vector<Tensor> out;
  Status st = s.RunGraphWithStreamAsync(1, nullptr, {Rows(3)}, out);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();
  // RunGraph runs a dynamic graph compiled by CompileGraph.
  Tensor in = Rows(5);
  st = s.RunGraph(1, {in}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ExpectReluPlusOne(in, out.at(0));
}

}  // namespace
}  // namespace ge
