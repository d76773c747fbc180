// Session timelines (issue 30): with ge.exec.profilingMode=1 a session records its graphs' loads and kernel runs;
// WriteTrace writes them as trace-event JSON. Without the option it is a clear error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ge/session.h"

namespace ge {
namespace {

Graph Scaled() {
  Graph g("scaled");
  auto x = g.Input("x", DataType::kFloat, {4});
  auto two = g.Constant("two", Tensor::Scalar<float>(2.0f));
  g.AddOutput(g.Op1("Relu", {g.Op1("Mul", {x, two})}));
  return g;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SessionTrace, ProfilingModeRecordsLoadsAndEveryKernelRun) {
  ASSERT_TRUE(GEInitialize().ok());
  Session s(Options{{"ge.exec.profilingMode", "1"}});
  ASSERT_TRUE(s.status().ok()) << s.status().ToString();
  ASSERT_TRUE(s.AddGraph(1, Scaled()).ok());
  std::vector<Tensor> out;
  const Tensor x = Tensor::FromVector<float>({-1, 0, 1, 2}, {4});
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(s.RunGraph(1, {x}, out).ok());
  const std::string path = ::testing::TempDir() + "/session_trace.json";
  Status st = s.WriteTrace(path);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  EXPECT_EQ(json.rfind("{\"traceEvents\":[", 0), 0u) << json.substr(0, 80);
  EXPECT_NE(json.find("SinkModel::Load"), std::string::npos);
  // The graph's kernels (one fused Mul + Relu, or two) ran three times each: a multiple of 3 kernel slices.
  const size_t kernels = Count(json, "\"cat\":\"kernel\"");
  EXPECT_GT(kernels, 0u);
  EXPECT_EQ(kernels % 3, 0u) << kernels;
  std::remove(path.c_str());
}

TEST(SessionTrace, WithoutProfilingModeWriteTraceIsAnError) {
  ASSERT_TRUE(GEInitialize().ok());
  Session s;
  ASSERT_TRUE(s.status().ok());
  Status st = s.WriteTrace(::testing::TempDir() + "/none.json");
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("ge.exec.profilingMode"), std::string::npos) << st.ToString();
  Session bad(Options{{"ge.exec.profilingMode", "yes"}});
  EXPECT_FALSE(bad.status().ok());
}

}  // namespace
}  // namespace ge
