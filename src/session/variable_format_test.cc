// Variable acceleration in GE's form (compiler/passes/variable_format_pass.cc) through a session: a variable read
// only through a uniform Reshape or Cast chain, and written through its inverse, is stored in the chain's output
// desc; results, GetVariables and other graphs of the session are as without acceleration.
#include <gtest/gtest.h>

#include <vector>

#include "ge/session.h"
#include "session/ge_runtime.h"

namespace ge {
namespace {

class VariableFormatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

Tensor Shape64(std::vector<int64_t> dims) {
  return Tensor::FromVector<int64_t>(dims, {static_cast<int64_t>(dims.size())});
}

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.numel());
}

// y = x[1,3] @ reshape(w, [3,2]); then w = reshape(2 * reshape(w, [3,2]) + x^T-ish constant, [2,3]).
Graph ReshapeStep(const Tensor& init) {
  Graph g("reshape_step");
  auto w = g.Variable("w", DataType::kFloat, {2, 3}, &init);
  auto x = g.Input("x", DataType::kFloat, {1, 3});
  auto r = g.Op1("Reshape", {w, g.Constant("to32", Shape64({3, 2}))});
  g.AddOutput(g.Op1("MatMul", {x, r}));
  auto next = g.Op1("Add", {g.Op1("Mul", {r, g.Constant("two", Tensor::Scalar<float>(2.0f))}),
                            g.Constant("one", Tensor::Scalar<float>(1.0f))});
  g.Assign(w, g.Op1("Reshape", {next, g.Constant("to23", Shape64({2, 3}))}));
  return g;
}

// out = -w, in w's declared desc.
Graph Negated() {
  Graph g("negated");
  auto w = g.Variable("w", DataType::kFloat, {2, 3});
  g.AddOutput(g.Op1("Neg", {w}));
  return g;
}

std::shared_ptr<var::VarManager> Vars(Session& s) {
  return session::ProcessRuntime().context->variables().Instance(s.GetSessionId());
}

// Runs graph 1 three times, then graph 2; returns every output and the final GetVariables value.
std::vector<std::vector<float>> RunSteps(Session& s) {
  std::vector<std::vector<float>> got;
  std::vector<Tensor> out;
  for (int step = 0; step < 3; ++step) {
    Status st = s.RunGraph(1, {Tensor::FromVector<float>({1, -2, 0.5f}, {1, 3})}, out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) return got;
    got.push_back(Values(out[0]));
  }
  Status st = s.RunGraph(2, {}, out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (st.ok()) got.push_back(Values(out[0]));
  std::vector<std::string> names{"w"};
  std::vector<Tensor> values;
  st = s.GetVariables(names, values);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (st.ok()) {
    EXPECT_EQ(values[0].dims(), (Dims{2, 3}));
    got.push_back(Values(values[0]));
  }
  return got;
}

TEST_F(VariableFormatTest, ReshapeChainFoldsIntoTheVariable) {
  const Tensor init = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  std::vector<std::vector<float>> want, got;
  {
    Session plain(Options{{std::string("ge.exec.variable_acc"), std::string("0")}});
    ASSERT_TRUE(plain.AddGraph(1, ReshapeStep(init)).ok());
    ASSERT_TRUE(plain.AddGraph(2, Negated()).ok());
    want = RunSteps(plain);
    EXPECT_EQ(Vars(plain)->GetCurVarDesc("w")->shape.dims(), (Dims{2, 3}));
    EXPECT_TRUE(Vars(plain)->GetTransRoad("w").empty());
  }
  Session acc;
  ASSERT_TRUE(acc.AddGraph(1, ReshapeStep(init)).ok());
  ASSERT_TRUE(acc.AddGraph(2, Negated()).ok());
  got = RunSteps(acc);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got, want);
  // Stored as the readers want it; the road leads from the declared desc.
  EXPECT_EQ(Vars(acc)->GetCurVarDesc("w")->shape.dims(), (Dims{3, 2}));
  const std::vector<var::TransStep> road = Vars(acc)->GetTransRoad("w");
  ASSERT_EQ(road.size(), 1u);
  EXPECT_EQ(road[0].node_type, "Reshape");
  EXPECT_EQ(road[0].input.shape.dims(), (Dims{2, 3}));
  // -w through the inverse road, after three updates w = 2w + 1 of [1..6]: 8w + 7.
  EXPECT_EQ(got[3], (std::vector<float>{-15, -23, -31, -39, -47, -55}));
  EXPECT_FALSE(acc.IsGraphNeedRebuild(1));
  EXPECT_FALSE(acc.IsGraphNeedRebuild(2));
}

TEST_F(VariableFormatTest, MemoryWrittenBeforeTheChangeIsConverted) {
  // Graph 2 first allocates and reads w in its declared desc; graph 1's compile then changes the stored desc:
  // the bytes already there are converted, and graph 2 is rebuilt to read through the road.
  const Tensor init = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Session s;
  Graph first("first");
  first.AddOutput(first.Op1("Neg", {first.Variable("w", DataType::kFloat, {2, 3}, &init)}));
  ASSERT_TRUE(s.AddGraph(2, std::move(first)).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{-1, -2, -3, -4, -5, -6}));
  ASSERT_TRUE(s.AddGraph(1, ReshapeStep(init)).ok());
  Status st = s.RunGraph(1, {Tensor::FromVector<float>({1, 0, 0}, {1, 3})}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // x @ reshape(w,[3,2]) with x = e0: the first row of [[1,2],[3,4],[5,6]].
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(Vars(s)->GetCurVarDesc("w")->shape.dims(), (Dims{3, 2}));
  EXPECT_TRUE(s.IsGraphNeedRebuild(2));
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());  // rebuilt: reads through the inverse road
  EXPECT_EQ(Values(out[0]), (std::vector<float>{-3, -5, -7, -9, -11, -13}));
}

// A float32 variable every reader casts to float16, written through a Cast back: stored as float16.
Graph CastStep(const Tensor& init) {
  Graph g("cast_step");
  auto w = g.Variable("w", DataType::kFloat, {4}, &init);
  auto h = g.Op1("Cast", {w}, {{"to", static_cast<int64_t>(DataType::kFloat16)}});
  g.AddOutput(g.Op1("Cast", {h}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));
  auto twice = g.Op1("Add", {h, h});
  g.Assign(w, g.Op1("Cast", {twice}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));
  return g;
}

TEST_F(VariableFormatTest, CastChainStoresTheVariableInTheCastType) {
  const Tensor init = Tensor::FromVector<float>({0.5f, -1.25f, 3, 1024}, {4});
  Session s;
  ASSERT_TRUE(s.AddGraph(1, CastStep(init)).ok());
  std::vector<Tensor> out;
  for (float scale : {1.0f, 2.0f, 4.0f}) {
    Status st = s.RunGraph(1, {}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(Values(out[0]), (std::vector<float>{0.5f * scale, -1.25f * scale, 3 * scale, 1024 * scale}));
  }
  EXPECT_EQ(Vars(s)->GetCurVarDesc("w")->dtype, DataType::kFloat16);
  std::vector<std::string> names{"w"};
  std::vector<Tensor> values;
  ASSERT_TRUE(s.GetVariables(names, values).ok());
  ASSERT_EQ(values[0].dtype(), DataType::kFloat);
  EXPECT_EQ(Values(values[0]), (std::vector<float>{4, -10, 24, 8192}));

  // A later graph that updates w in float32 by AssignAdd cannot: the sum would round in float16.
  Graph add("add");
  auto w = add.Variable("w", DataType::kFloat, {4});
  add.AddOutput(add.AssignAdd(w, add.Constant("d", Tensor::FromVector<float>({1, 1, 1, 1}, {4}))));
  ASSERT_TRUE(s.AddGraph(3, std::move(add)).ok());
  Status st = s.RunGraph(3, {}, out);
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition) << st.ToString();
  EXPECT_NE(st.message().find("AssignAdd"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// With NC1HWC0 activation chains a variable read as a convolution's input: the same results and the same
// GetVariables values with variable acceleration on and off.
TEST_F(VariableFormatTest, BlockedActivationLayoutAgreesWithAccelerationOff) {
  std::vector<float> values(1 * 16 * 6 * 6);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 13) - 6.0f;
  const Tensor init = Tensor::FromVector<float>(values, {1, 16, 6, 6});
  const Tensor weights = Tensor::FromVector<float>(std::vector<float>(16 * 16 * 9, 0.05f), {16, 16, 3, 3});
  auto build = [&]() {
    Graph g("blocked");
    auto x = g.Variable("x", DataType::kFloat, {1, 16, 6, 6}, &init);
    g.AddOutput(g.Op1("Conv", {x, g.Constant("w", weights)}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}));
    return g;
  };
  std::vector<std::vector<float>> results;
  for (const char* acc : {"0", "1"}) {
    Session s(Options{{std::string("ge.exec.variable_acc"), std::string(acc)},
                      {std::string("ge.format.activation"), std::string("NC1HWC0")}});
    ASSERT_TRUE(s.AddGraph(1, build()).ok());
    std::vector<Tensor> out;
    Status st = s.RunGraph(1, {}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    results.push_back(Values(out[0]));
    std::vector<std::string> names{"x"};
    std::vector<Tensor> got;
    st = s.GetVariables(names, got);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(got[0].dims(), (Dims{1, 16, 6, 6}));
    EXPECT_EQ(Values(got[0]), values) << "variable_acc " << acc;
  }
  EXPECT_EQ(results[0], results[1]);
}

}  // namespace
}  // namespace ge
