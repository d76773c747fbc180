// A session under ge.exec.sessionMemoryLimit (seed 002 §3.5.1, GE's ModelExecutor::CheckAndReleaseMemory): more
// static graphs than the limit holds at once all run, idle ones are evicted least recently used first and
// reloaded by their next run, with outputs unchanged; a graph larger than the limit is refused naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ge/session.h"

namespace ge {
namespace {

class SessionEvictionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

// y = relu(x * k + k) over a vector of n floats: a feature map of a few n-float buffers.
Graph Scaled(float k, int64_t n) {
  Graph g("scaled");
  auto x = g.Input("x", DataType::kFloat, {n});
  auto c = g.Constant("k", Tensor::Scalar<float>(k));
  g.AddOutput(g.Op1("Relu", {g.Op1("Add", {g.Op1("Mul", {x, c}), c})}));
  return g;
}

std::vector<float> RunOnce(Session& s, uint32_t id, const Tensor& x) {
  std::vector<Tensor> out;
  Status st = s.RunGraph(id, {x}, out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (out.empty()) return {};
  const float* p = out[0].data<float>();
  return std::vector<float>(p, p + out[0].numel());
}

size_t FeatureBytes(int64_t n) {
  Session probe;
  EXPECT_TRUE(probe.AddGraph(1, Scaled(1.0f, n)).ok());
  EXPECT_TRUE(probe.CompileGraph(1).ok());
  CompiledGraphSummary summary;
  EXPECT_TRUE(probe.GetCompiledGraphSummary(1, &summary).ok());
  return summary.feature_memory_size;
}

TEST_F(SessionEvictionTest, MoreGraphsThanTheLimitAllRunEvictingTheIdleOnes) {
  constexpr int64_t n = 4096;
  const size_t bytes = FeatureBytes(n);
  ASSERT_GT(bytes, 0u);
  // Room for two graphs' feature maps, not three.
  Session s(Options{{"ge.exec.sessionMemoryLimit", std::to_string(2 * bytes + bytes / 2)}});
  ASSERT_TRUE(s.status().ok()) << s.status().ToString();
  std::vector<float> xs(n);
  for (int64_t i = 0; i < n; ++i) xs[i] = static_cast<float>(i % 7) - 3.0f;
  const Tensor x = Tensor::FromVector<float>(xs, {n});
  auto expect = [&](float k) {
    std::vector<float> y(n);
    for (int64_t i = 0; i < n; ++i) y[i] = std::max(0.0f, xs[i] * k + k);
    return y;
  };
  for (uint32_t id = 1; id <= 4; ++id) ASSERT_TRUE(s.AddGraph(id, Scaled(static_cast<float>(id), n)).ok());
  // Round robin over four graphs: every run needs a graph the limit evicted.
  for (int round = 0; round < 3; ++round) {
    for (uint32_t id = 1; id <= 4; ++id) EXPECT_EQ(RunOnce(s, id, x), expect(static_cast<float>(id))) << id;
  }
  size_t loaded = 0, held = 0;
  for (uint32_t id = 1; id <= 4; ++id) {
    GraphLoadState state;
    ASSERT_TRUE(s.GetGraphLoadState(id, &state).ok());
    EXPECT_GE(state.evictions, 2u) << "graph " << id;
    EXPECT_EQ(state.loads, state.evictions + (state.loaded ? 1 : 0)) << "graph " << id;
    loaded += state.loaded ? 1 : 0;
    held += state.feature_memory_bytes;
  }
  EXPECT_EQ(loaded, 2u);  // the two most recently used
  EXPECT_LE(held, 2 * bytes + bytes / 2);
  // The most recently used graph stays: running it again loads nothing.
  GraphLoadState before, after;
  ASSERT_TRUE(s.GetGraphLoadState(4, &before).ok());
  EXPECT_EQ(RunOnce(s, 4, x), expect(4.0f));
  ASSERT_TRUE(s.GetGraphLoadState(4, &after).ok());
  EXPECT_EQ(after.loads, before.loads);
  EXPECT_TRUE(after.loaded);
}

TEST_F(SessionEvictionTest, AGraphLargerThanTheLimitIsRefusedNamingIt) {
  const size_t bytes = FeatureBytes(4096);
  Session s(Options{{"ge.exec.sessionMemoryLimit", std::to_string(bytes / 2)}});
  ASSERT_TRUE(s.AddGraph(7, Scaled(1.0f, 4096)).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraph(7, {Tensor::FromVector<float>(std::vector<float>(4096, 1.0f), {4096})}, out);
  ASSERT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("graph 7"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("budget"), std::string::npos) << st.ToString();
}

TEST_F(SessionEvictionTest, LoadStateBeforeBuildIsRefusedAndTheLimitIsChecked) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Scaled(1.0f, 8)).ok());
  GraphLoadState state;
  EXPECT_EQ(s.GetGraphLoadState(1, &state).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.GetGraphLoadState(9, &state).code(), StatusCode::kNotFound);
  EXPECT_EQ(s.GetGraphLoadState(1, nullptr).code(), StatusCode::kInvalidArgument);
  Session bad(Options{{"ge.exec.sessionMemoryLimit", "lots"}});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ge
