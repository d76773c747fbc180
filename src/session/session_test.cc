// The session API end to end: variables shared by a session's graphs, GE's call-order contract, options,
// forks, GetVariables, checkpoints, VarIsInitializedOp.
#include "ge/session.h"
#include "session/packed_matmul_check.h"

#include <gtest/gtest.h>

#include "session/ge_runtime.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <string>
#include <vector>

namespace ge {
namespace {

class SessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

Tensor Floats(std::vector<float> v) { return Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())}); }

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.numel());
}

// Graph A: v += x (through Assign(v, Add(v, x))), output the new v. Graph B: output 2 * v.
Graph Accumulate(const Tensor& init) {
  Graph g("accumulate");
  auto v = g.Variable("v", DataType::kFloat, {4}, &init);
  auto x = g.Input("x", DataType::kFloat, {4});
  g.AddOutput(g.Assign(v, g.Op1("Add", {v, x})));
  return g;
}

Graph Doubled() {
  Graph g("doubled");
  auto v = g.Variable("v", DataType::kFloat, {4});
  auto two = g.Constant("two", Tensor::Scalar<float>(2.0f));
  g.AddOutput(g.Op1("Mul", {v, two}));
  return g;
}

TEST_F(SessionTest, GraphsShareVariables) {
  Session s;
  ASSERT_TRUE(s.status().ok()) << s.status().ToString();
  ASSERT_TRUE(s.AddGraph(1, Accumulate(Floats({1, 2, 3, 4}))).ok());
  ASSERT_TRUE(s.AddGraph(2, Doubled()).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraph(1, {Floats({1, 1, 1, 1})}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Values(out[0]), (std::vector<float>{2, 3, 4, 5}));
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{4, 6, 8, 10}));
  ASSERT_TRUE(s.RunGraph(1, {Floats({10, 10, 10, 10})}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{12, 13, 14, 15}));
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{24, 26, 28, 30}));

  std::vector<std::string> names;
  std::vector<Tensor> values(2, Floats({7}));  // what the caller's vector held before is replaced, not kept
  ASSERT_TRUE(s.GetVariables(names, values).ok());
  ASSERT_EQ(names, (std::vector<std::string>{"v"}));
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(Values(values[0]), (std::vector<float>{12, 13, 14, 15}));
  names = {"nope"};
  EXPECT_EQ(s.GetVariables(names, values).code(), StatusCode::kNotFound);
}

// A handle names a value of the graph that made it: one from a graph with more values is refused, with the graph's
// name, when the next handle past the last one is used, not only further ones.
TEST_F(SessionTest, AHandleFromAnotherGraphIsRefused) {
  Graph big("big");
  Graph::Value a = big.Input("a", DataType::kFloat, {2});
  Graph::Value b = big.Op1("Neg", {a});
  Graph small("small");
  Graph::Value x = small.Input("x", DataType::kFloat, {2});
  ASSERT_EQ(b.id, x.id + 1);  // the first id small does not have
  small.AddOutput(small.Op1("Add", {x, b}));
  Status st = small.status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("graph 'small'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("is not a value of this graph"), std::string::npos) << st.ToString();
}

TEST_F(SessionTest, ReadersSeeTheValueBeforeTheWrite) {
  Session s;
  Graph g("before_after");
  Tensor init = Floats({1, 2});
  auto v = g.Variable("w", DataType::kFloat, {2}, &init);
  auto one = g.Constant("one", Floats({1, 1}));
  auto before = g.Op1("Neg", {v});
  auto after = g.AssignAdd(v, one);
  g.AddOutput(before);
  g.AddOutput(v);
  g.AddOutput(after);
  ASSERT_TRUE(s.AddGraph(7, g).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraph(7, {}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Values(out[0]), (std::vector<float>{-1, -2}));
  EXPECT_EQ(Values(out[1]), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values(out[2]), (std::vector<float>{2, 3}));
  ASSERT_TRUE(s.RunGraph(7, {}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{-2, -3}));
  EXPECT_EQ(Values(out[2]), (std::vector<float>{3, 4}));
}

TEST_F(SessionTest, CallOrderContract) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Accumulate(Floats({0, 0, 0, 0}))).ok());
  std::vector<Tensor> out;
  CompiledGraphSummary summary;
  EXPECT_EQ(s.LoadGraph(1).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.GetCompiledGraphSummary(1, &summary).code(), StatusCode::kFailedPrecondition);
  char buf[64];
  EXPECT_EQ(s.SetGraphFixedFeatureMemoryBase(1, buf, sizeof buf).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.RunGraph(99, {}, out).code(), StatusCode::kNotFound);
  EXPECT_EQ(s.CompileGraph(99).code(), StatusCode::kNotFound);
  EXPECT_EQ(s.RemoveGraph(99).code(), StatusCode::kNotFound);
  EXPECT_EQ(s.AddGraph(1, Doubled()).code(), StatusCode::kInvalidArgument);  // id taken

  ASSERT_TRUE(s.CompileGraph(1).ok());
  Status st = s.RunGraph(1, {Floats({1, 1, 1, 1})}, out);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_NE(st.message().find("LoadGraph"), std::string::npos) << st.message();
  EXPECT_EQ(s.BuildGraph(1).code(), StatusCode::kUnimplemented);
  EXPECT_EQ(s.RunGraphAsync(1, {}, [](Status, std::vector<Tensor>&) {}).code(), StatusCode::kUnimplemented);
  EXPECT_EQ(s.RunGraphWithStreamAsync(1, nullptr, {Floats({1, 1, 1, 1})}, out).code(),
            StatusCode::kFailedPrecondition);  // not loaded
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  EXPECT_TRUE(summary.is_static);
  EXPECT_EQ(summary.variables, (std::vector<std::string>{"v"}));
  ASSERT_EQ(summary.inputs.size(), 1u);  // compiled, not loaded: from the compiled model
  EXPECT_EQ(summary.inputs[0].name, "x");
  EXPECT_EQ(summary.inputs[0].dims, (std::vector<int64_t>{4}));
  ASSERT_EQ(summary.outputs.size(), 1u);
  ASSERT_TRUE(s.LoadGraph(1).ok());
  st = s.RunGraphWithStreamAsync(1, nullptr, {Floats({1, 1, 1, 1})}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 1, 1, 1}));
  // Wrong input dtype and shape: named in the error.
  st = s.RunGraphWithStreamAsync(1, nullptr, {Tensor::FromVector<float>({1, 2}, {2})}, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'x'"), std::string::npos) << st.message();
  ASSERT_TRUE(s.RemoveGraph(1).ok());
}

TEST_F(SessionTest, OptionsAreChecked) {
  Session bad(Options{{"ge.noSuchOption", "1"}});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("ge.noSuchOption"), std::string::npos);
  std::vector<Tensor> out;
  EXPECT_EQ(bad.RunGraph(1, {}, out).code(), StatusCode::kInvalidArgument);
  Session bad_value(Options{{"ge.exec.variable_acc", "maybe"}});
  EXPECT_EQ(bad_value.status().code(), StatusCode::kInvalidArgument);
  Session s(Options{{"ge.graphRunMode", "1"}});
  ASSERT_TRUE(s.status().ok());
  EXPECT_EQ(s.AddGraph(1, Doubled(), {{"ge.externalWeight", "7"}}).code(), StatusCode::kInvalidArgument);
  // A misspelled key names the one meant; runtime v2's keys reach the session's dynamic graphs; GEInitialize's do not.
  Session typo(Options{{"ge.exec.disableReuseMemry", "1"}});
  EXPECT_NE(typo.status().message().find("did you mean 'ge.exec.disableReuseMemory'?"), std::string::npos)
      << typo.status().message();
  EXPECT_TRUE(Session(Options{{"ge.exec.v2Executor", "priority"}}).status().ok());
  Session init_only(Options{{"ge.intraOpThreads", "2"}});
  EXPECT_NE(init_only.status().message().find("read by GEInitialize"), std::string::npos)
      << init_only.status().message();
  EXPECT_EQ(GEFinalize().code(), StatusCode::kFailedPrecondition);  // sessions are open
}

TEST_F(SessionTest, MemoryBudgetIsAByteCountOfAtMost15Digits) {
  Session padded(Options{{"ge.sessionMemoryBudget", "000000000032768"}});  // 15 digits: 32 KiB, 5 KiB of variables
  ASSERT_TRUE(padded.status().ok()) << padded.status().ToString();
  const Tensor big = Tensor::FromVector<float>(std::vector<float>(2048, 0.0f), {2048});
  Graph g("big");
  g.AddOutput(g.Variable("v", DataType::kFloat, {2048}, &big));
  ASSERT_TRUE(padded.AddGraph(1, g).ok());
  std::vector<Tensor> out;
  EXPECT_EQ(padded.RunGraph(1, {}, out).code(), StatusCode::kResourceExhausted);
  for (const char* bad : {"0000000000032768", "", "32k", "-1"}) {
    Session s(Options{{"ge.sessionMemoryBudget", bad}});
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.status().message().find("ge.sessionMemoryBudget"), std::string::npos) << s.status().message();
  }
}

TEST_F(SessionTest, BuilderErrorsReachAddGraph) {
  Session s;
  Graph g("bad");
  auto x = g.Input("x", DataType::kFloat, {2});
  g.AddOutput(g.Op1("NoSuchOp", {x}));
  EXPECT_EQ(s.AddGraph(1, g).code(), StatusCode::kNotFound);
  Graph g2("bad_init");
  Tensor wrong = Floats({1, 2, 3});
  g2.AddOutput(g2.Variable("v", DataType::kFloat, {4}, &wrong));
  ASSERT_TRUE(s.AddGraph(2, g2).ok());
  std::vector<Tensor> out;
  Status st = s.RunGraph(2, {}, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("_init_value"), std::string::npos) << st.message();
}

TEST_F(SessionTest, ForkSharesTheModelWithItsOwnFeatureMap) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Accumulate(Floats({0, 0, 0, 0}))).ok());
  ASSERT_TRUE(s.BuildGraph(1).ok());
  EXPECT_FALSE(s.IsGraphNeedRebuild(1));
  ASSERT_TRUE(s.ForkGraph(1, 2).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(1, {Floats({1, 1, 1, 1})}, out).ok());
  ASSERT_TRUE(s.RunGraph(2, {Floats({1, 1, 1, 1})}, out).ok());
  EXPECT_EQ(Values(out[0]), (std::vector<float>{2, 2, 2, 2}));  // the fork shares the variable
  EXPECT_EQ(s.ForkGraph(1, 2).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.ForkGraph(5, 6).code(), StatusCode::kNotFound);
  EXPECT_TRUE(s.IsGraphNeedRebuild(5));
}

TEST_F(SessionTest, CheckpointRoundTripIsBitExact) {
  const std::string path = ::testing::TempDir() + "/session_test_" + std::to_string(getpid()) + ".ckpt";
  std::vector<Tensor> out;
  {
    Session s;
    ASSERT_TRUE(s.AddGraph(1, Accumulate(Floats({0.1f, -0.0f, 1e-30f, 3}))).ok());
    ASSERT_TRUE(s.RunGraph(1, {Floats({0.2f, 0, 0, 1})}, out).ok());
    ASSERT_TRUE(s.SaveCheckpoint(path).ok());
  }
  Session s2;
  Status st = s2.RestoreCheckpoint(path);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::vector<std::string> names{"v"};
  std::vector<Tensor> values;
  ASSERT_TRUE(s2.GetVariables(names, values).ok());
  ASSERT_EQ(values[0].nbytes(), out[0].nbytes());
  EXPECT_EQ(std::memcmp(values[0].raw_data(), out[0].raw_data(), out[0].nbytes()), 0);
  // A graph of the new session continues from the restored value.
  ASSERT_TRUE(s2.AddGraph(1, Accumulate(Floats({0, 0, 0, 0}))).ok());
  ASSERT_TRUE(s2.RunGraph(1, {Floats({0, 0, 0, 0})}, out).ok());
  EXPECT_EQ(std::memcmp(values[0].raw_data(), out[0].raw_data(), out[0].nbytes()), 0);
  EXPECT_EQ(s2.RestoreCheckpoint(path + ".missing").code(), StatusCode::kNotFound);
  std::remove(path.c_str());
}

TEST_F(SessionTest, VarIsInitializedFoldsFromTheSession) {
  Session s;
  auto probe = [](const std::string& name) {
    Graph g("probe_" + name);
    g.AddOutput(g.VarIsInitialized(g.Variable(name, DataType::kFloat, {2})));
    return g;
  };
  ASSERT_TRUE(s.AddGraph(1, probe("u")).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  EXPECT_FALSE(out[0].data<bool>()[0]);
  Graph init("init_u");
  auto u = init.Variable("u", DataType::kFloat, {2});
  init.AddOutput(init.Assign(u, init.Constant("ones", Floats({1, 1}))));
  ASSERT_TRUE(s.AddGraph(2, init).ok());
  ASSERT_TRUE(s.BuildGraph(2).ok());
  ASSERT_TRUE(s.AddGraph(3, probe("u")).ok());
  ASSERT_TRUE(s.RunGraph(3, {}, out).ok());
  EXPECT_TRUE(out[0].data<bool>()[0]);
}

TEST_F(SessionTest, RunGraphAsyncRunsInOrderAndCallsBack) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::vector<float>> results;
  {
    Session s;
    ASSERT_TRUE(s.AddGraph(1, Accumulate(Floats({0, 0, 0, 0}))).ok());
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(s.RunGraphAsync(1, {Floats({1, 1, 1, 1})}, [&](Status st, std::vector<Tensor>& out) {
                     std::lock_guard<std::mutex> lk(mu);
                     results.push_back(st.ok() ? Values(out[0]) : std::vector<float>{});
                     cv.notify_all();
                   }).ok());
    }
    EXPECT_EQ(s.RunGraphAsync(9, {}, [](Status, std::vector<Tensor>&) {}).code(), StatusCode::kNotFound);
    // The session closes here with jobs perhaps still queued: they run before it is gone.
  }
  ASSERT_EQ(results.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(results[i], std::vector<float>(4, static_cast<float>(i + 1)));
}

TEST_F(SessionTest, CallerFeatureMemory) {
  Session s(Options{{"ge.featureBaseRefreshable", "1"}});
  Graph g("feature");
  auto x = g.Input("x", DataType::kFloat, {64});
  g.AddOutput(g.Op1("Relu", {g.Op1("Neg", {g.Op1("Exp", {x})})}));
  ASSERT_TRUE(s.AddGraph(1, g).ok());
  ASSERT_TRUE(s.AddGraph(2, g).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  ASSERT_TRUE(s.CompileGraph(2).ok());
  CompiledGraphSummary summary;
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  ASSERT_GT(summary.feature_memory_size, 0u);
  std::vector<float> in(64, 1.0f);
  Tensor input = Tensor::FromVector<float>(in, {64});
  std::vector<Tensor> out;
  // Fixed base: before LoadGraph, at least the summary's size, 64-byte aligned.
  alignas(64) static char fixed[1 << 16];
  ASSERT_LE(summary.feature_memory_size, sizeof fixed);
  EXPECT_EQ(s.SetGraphFixedFeatureMemoryBase(1, fixed, summary.feature_memory_size - 1).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(s.SetGraphFixedFeatureMemoryBase(1, fixed + 1, sizeof fixed - 64).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(s.SetGraphFixedFeatureMemoryBase(1, fixed, summary.feature_memory_size).ok());  // exactly enough
  ASSERT_TRUE(s.SetGraphFixedFeatureMemoryBase(1, fixed, sizeof fixed).ok());
  ASSERT_TRUE(s.LoadGraph(1).ok());
  EXPECT_EQ(s.SetGraphFixedFeatureMemoryBase(1, fixed, sizeof fixed).code(), StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.RunGraphWithStreamAsync(1, nullptr, {input}, out).ok());
  EXPECT_EQ(Values(out[0]), std::vector<float>(64, 0.0f));
  // Refreshable base: a new one before a run.
  alignas(64) static char refreshed[1 << 16];
  ASSERT_TRUE(s.LoadGraph(2).ok());
  const size_t need = summary.feature_memory_size;
  EXPECT_EQ(s.UpdateGraphFeatureMemoryBase(2, refreshed, need - 1).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(s.UpdateGraphFeatureMemoryBase(2, refreshed, need).ok());  // exactly the size needed is enough
  ASSERT_TRUE(s.UpdateGraphFeatureMemoryBase(2, refreshed, sizeof refreshed).ok());
  ASSERT_TRUE(s.RunGraphWithStreamAsync(2, nullptr, {input}, out).ok());
  EXPECT_EQ(Values(out[0]), std::vector<float>(64, 0.0f));
  EXPECT_EQ(s.SetGraphConstMemoryBase(2, fixed, sizeof fixed).code(), StatusCode::kFailedPrecondition);  // loaded
  Session plain;
  ASSERT_TRUE(plain.AddGraph(1, g).ok());
  ASSERT_TRUE(plain.CompileGraph(1).ok());
  EXPECT_EQ(plain.UpdateGraphFeatureMemoryBase(1, refreshed, sizeof refreshed).code(),
            StatusCode::kFailedPrecondition);  // needs ge.featureBaseRefreshable=1
}

// GE's memory bases on one static graph: constants in caller memory (set before LoadGraph; the model reads them
// there), the feature map moved to another caller buffer between runs; outputs equal a plain session's.
TEST_F(SessionTest, ConstAndFeatureBasesMovedBetweenRunsGiveTheSameOutputs) {
  constexpr int64_t n = 1024;
  std::vector<float> cv(n), dv(n), xv(n);
  for (int64_t i = 0; i < n; ++i) {
    cv[i] = 0.5f + static_cast<float>(i % 5);
    dv[i] = static_cast<float>(i % 3) - 1.0f;
    xv[i] = std::sin(0.01f * static_cast<float>(i));
  }
  Graph g("bases");
  auto x = g.Input("x", DataType::kFloat, {n});
  auto c = g.Constant("c", Tensor::FromVector<float>(cv, {n}));
  auto d = g.Constant("d", Tensor::FromVector<float>(dv, {n}));
  g.AddOutput(g.Op1("Tanh", {g.Op1("Add", {g.Op1("Mul", {x, c}), d})}));
  const Tensor input = Tensor::FromVector<float>(xv, {n});
  Session plain;
  ASSERT_TRUE(plain.AddGraph(1, g).ok());
  std::vector<Tensor> want;
  ASSERT_TRUE(plain.RunGraph(1, {input}, want).ok());

  Session s(Options{{"ge.featureBaseRefreshable", "1"}});
  ASSERT_TRUE(s.AddGraph(1, g).ok());
  ASSERT_TRUE(s.CompileGraph(1).ok());
  CompiledGraphSummary summary;
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  ASSERT_GE(summary.const_memory_size, static_cast<size_t>(2 * n * sizeof(float)));
  struct alignas(64) Block {
    char bytes[64];
  };
  std::vector<Block> consts((summary.const_memory_size + 63) / 64);
  EXPECT_EQ(s.SetGraphConstMemoryBase(1, consts.data(), summary.const_memory_size - 1).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(s.SetGraphConstMemoryBase(1, consts[0].bytes + 4, summary.const_memory_size).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(s.SetGraphConstMemoryBase(1, consts.data(), consts.size() * 64).ok());
  ASSERT_TRUE(s.LoadGraph(1).ok());
  std::vector<Block> f1((summary.feature_memory_size + 63) / 64 + 1), f2(f1.size());
  for (int run = 0; run < 4; ++run) {
    std::vector<Block>& base = run % 2 == 0 ? f1 : f2;
    ASSERT_TRUE(s.UpdateGraphFeatureMemoryBase(1, base.data(), base.size() * 64).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(s.RunGraphWithStreamAsync(1, nullptr, {input}, out).ok());
    ASSERT_EQ(Values(out[0]), Values(want[0])) << "run " << run;
  }
  // The constants are the caller's memory: zeroed, the graph computes tanh(x * 0 + 0).
  std::fill(consts.begin(), consts.end(), Block{});
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraphWithStreamAsync(1, nullptr, {input}, out).ok());
  EXPECT_EQ(Values(out[0]), std::vector<float>(n, 0.0f));
}

TEST_F(SessionTest, OnnxGraphRunsAndMatchesTheSample) {
  auto g = Graph::FromOnnxFile(std::string(GE_SOURCE_DIR) + "/samples/tiny_cnn.onnx");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  Session s;
  ASSERT_TRUE(s.AddGraph(1, *g).ok());
  // The sample's input and PyTorch's output for it (samples/make_sample.py).
  auto read_npy = [](const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    std::vector<char> bytes;
    if (f != nullptr) {
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
      std::fclose(f);
    }
    return bytes;
  };
  std::vector<char> in = read_npy(std::string(GE_SOURCE_DIR) + "/samples/tiny_cnn.in.npy");
  std::vector<char> ref = read_npy(std::string(GE_SOURCE_DIR) + "/samples/tiny_cnn.ref.npy");
  ASSERT_GT(in.size(), 128u);
  ASSERT_GT(ref.size(), 128u);
  // Float32 .npy files: the data follows the header, whose length is at bytes 8-9 (version 1).
  auto payload = [](const std::vector<char>& npy) {
    const size_t header = 10 + static_cast<unsigned char>(npy[8]) + 256 * static_cast<unsigned char>(npy[9]);
    return std::vector<float>(reinterpret_cast<const float*>(npy.data() + header),
                              reinterpret_cast<const float*>(npy.data() + npy.size()));
  };
  CompiledGraphSummary summary;
  ASSERT_TRUE(s.BuildGraph(1).ok());
  ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
  ASSERT_EQ(summary.inputs.size(), 1u);
  std::vector<float> x = payload(in);
  Tensor input = Tensor::FromVector<float>(x, summary.inputs[0].dims);
  std::vector<Tensor> out;
  Status st = s.RunGraph(1, {input}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::vector<float> want = payload(ref);
  ASSERT_EQ(static_cast<size_t>(out[0].numel()), want.size());
  double err = 0, norm = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double d = static_cast<double>(out[0].data<float>()[i]) - want[i];
    err += d * d;
    norm += static_cast<double>(want[i]) * want[i];
  }
  EXPECT_LE(std::sqrt(err / norm), 1e-4);
}

// Variable acceleration: a conv reads its variable weight in its own layout, converted once per write. Writes by
// another graph and a checkpoint restore must both reach the next run; ge.exec.variable_acc=0 reads it as is.
class VariableConvTest : public SessionTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(VariableConvTest, FollowsWrites) {
  // Per process: ctest runs the parameterized cases in parallel.
  const std::string path = ::testing::TempDir() + "/session_conv_" + std::to_string(getpid()) + ".ckpt";
  Session s(Options{{"ge.exec.variable_acc", GetParam()}});
  Tensor w0 = Tensor::FromVector<float>(std::vector<float>(16 * 16 * 9, 0.1f), {16, 16, 3, 3});
  Graph conv("conv");
  auto x = conv.Input("x", DataType::kFloat, {1, 16, 8, 8});
  auto w = conv.Variable("w", DataType::kFloat, {16, 16, 3, 3}, &w0);
  conv.AddOutput(conv.Op1("Conv", {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}));
  Graph grow("grow");
  auto wg = grow.Variable("w", DataType::kFloat, {16, 16, 3, 3});
  grow.AddOutput(grow.AssignAdd(wg, grow.Constant("step", w0)));
  ASSERT_TRUE(s.AddGraph(1, conv).ok());
  ASSERT_TRUE(s.AddGraph(2, grow).ok());
  const Tensor ones = Tensor::FromVector<float>(std::vector<float>(16 * 64, 1.0f), {1, 16, 8, 8});
  auto center = [&]() {
    std::vector<Tensor> out;
    Status st = s.RunGraph(1, {ones}, out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return st.ok() ? out[0].data<float>()[3 * 8 + 3] : -1.0f;  // channel 0, an interior pixel: 16 * 9 * w
  };
  EXPECT_NEAR(center(), 14.4f, 1e-3);
  EXPECT_NEAR(center(), 14.4f, 1e-3);
  ASSERT_TRUE(s.SaveCheckpoint(path).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());  // w = 0.2
  EXPECT_NEAR(center(), 28.8f, 1e-3);
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());  // w = 0.3
  EXPECT_NEAR(center(), 43.2f, 1e-3);
  ASSERT_TRUE(s.RestoreCheckpoint(path).ok());  // w = 0.1 again
  EXPECT_NEAR(center(), 14.4f, 1e-3);
  std::remove(path.c_str());
}
INSTANTIATE_TEST_SUITE_P(VariableAcc, VariableConvTest, ::testing::Values("1", "0"));

// The same for a MatMul whose right operand is a variable (packed into the matmul's layout once per write).
class VariableMatMulTest : public SessionTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(VariableMatMulTest, FollowsWrites) {
  const std::string path = ::testing::TempDir() + "/session_matmul_" + std::to_string(getpid()) + ".ckpt";
  Session s(Options{{"ge.exec.variable_acc", GetParam()}});
  std::vector<float> w_values(64 * 48);
  for (size_t i = 0; i < w_values.size(); ++i) w_values[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
  const Tensor w0 = Tensor::FromVector<float>(w_values, {64, 48});
  Graph mm("mm");
  auto x = mm.Input("x", DataType::kFloat, {4, 64});
  mm.AddOutput(mm.Op1("MatMul", {x, mm.Variable("w", DataType::kFloat, {64, 48}, &w0)}));
  Graph grow("grow");
  grow.AddOutput(grow.AssignAdd(grow.Variable("w", DataType::kFloat, {64, 48}), grow.Constant("step", w0)));
  ASSERT_TRUE(s.AddGraph(1, mm).ok());
  ASSERT_TRUE(s.AddGraph(2, grow).ok());
  auto check = [&](float scale) { testing::ExpectPackedMatMulScaled(s, w_values, scale); };
  check(1);
  check(1);
  ASSERT_TRUE(s.SaveCheckpoint(path).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  check(2);
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  check(3);
  ASSERT_TRUE(s.RestoreCheckpoint(path).ok());
  check(1);
  std::remove(path.c_str());
}
INSTANTIATE_TEST_SUITE_P(VariableAcc, VariableMatMulTest, ::testing::Values("1", "0"));

// VarMatchInfo: a built graph whose variable changed its desc (variable acceleration in another graph) is rebuilt
// before it runs, not run on a layout it was not compiled for.
TEST_F(SessionTest, ModelWhoseVariableDescChangedIsRebuilt) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, Doubled()).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  EXPECT_FALSE(s.IsGraphNeedRebuild(1));
  std::shared_ptr<var::VarManager> vars =
      session::ProcessRuntime().context->variables().Instance(s.GetSessionId());
  TensorDesc renewed = vars->GetCurVarDesc("v").value();
  renewed.shape = Shape(Dims{2, 2});  // same bytes, another desc
  ASSERT_TRUE(vars->RenewCurVarDesc("v", renewed).ok());
  EXPECT_TRUE(s.IsGraphNeedRebuild(1));
  ASSERT_TRUE(s.CompileGraph(1).code() == StatusCode::kFailedPrecondition);  // built graphs stay on RunGraph
  Status st = s.RunGraph(1, {}, out);  // rebuilds first
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out[0].dims(), (Dims{4}));
}

// VarMatchInfo on every entry point that runs a graph. Graph 2 reads w as declared (float32); graph 1's compile then
// stores w as float16 (variable acceleration of a Cast chain). Graph 2, compiled before that, never runs its stale
// model on the float16 bytes: RunGraph and RunGraphAsync (also on a fork of it) rebuild it first,
// RunGraphWithStreamAsync refuses it until CompileGraph and LoadGraph are called again.
enum class RunEntry { kRunGraph, kRunGraphAsync, kRunGraphOfAFork, kRunGraphWithStreamAsync };

std::string EntryName(RunEntry e) {
  switch (e) {
    case RunEntry::kRunGraph:
      return "RunGraph";
    case RunEntry::kRunGraphAsync:
      return "RunGraphAsync";
    case RunEntry::kRunGraphOfAFork:
      return "RunGraphOfAFork";
    case RunEntry::kRunGraphWithStreamAsync:
      return "RunGraphWithStreamAsync";
  }
  return "?";
}
void PrintTo(RunEntry e, std::ostream* os) { *os << EntryName(e); }

class StaleVariableDescTest : public SessionTest, public ::testing::WithParamInterface<RunEntry> {
 protected:
  // Compiles, loads and runs graph 2 once through the entry point under test.
  Status FirstRun(Session& s, std::vector<Tensor>* out) {
    switch (GetParam()) {
      case RunEntry::kRunGraph:
      case RunEntry::kRunGraphAsync:
        return Run(s, out);
      case RunEntry::kRunGraphOfAFork:
        GE_RETURN_IF_ERROR(s.RunGraph(2, {}, *out));
        return s.ForkGraph(2, 3);
      case RunEntry::kRunGraphWithStreamAsync:
        GE_RETURN_IF_ERROR(s.CompileGraph(2));
        GE_RETURN_IF_ERROR(s.LoadGraph(2));
        return Run(s, out);
    }
    return Status::Ok();
  }
  Status Run(Session& s, std::vector<Tensor>* out) {
    switch (GetParam()) {
      case RunEntry::kRunGraph:
        return s.RunGraph(2, {}, *out);
      case RunEntry::kRunGraphAsync: {
        std::promise<Status> done;
        GE_RETURN_IF_ERROR(s.RunGraphAsync(2, {}, [&](Status st, std::vector<Tensor>& outputs) {
          *out = outputs;
          done.set_value(st);
        }));
        return done.get_future().get();
      }
      case RunEntry::kRunGraphOfAFork:
        return s.RunGraph(3, {}, *out);
      case RunEntry::kRunGraphWithStreamAsync:
        return s.RunGraphWithStreamAsync(2, nullptr, {}, *out);
    }
    return Status::Ok();
  }
};

TEST_P(StaleVariableDescTest, GraphCompiledBeforeASharedVariableChangedDescIsRebuiltOrRefused) {
  const Tensor init = Tensor::FromVector<float>({0.5f, -1.25f, 3, 1024}, {4});
  Graph reader("reader");
  reader.AddOutput(reader.Op1("Neg", {reader.Variable("w", DataType::kFloat, {4}, &init)}));
  Graph to_half("to_half");  // w = 2 * w through float16 both ways
  auto w = to_half.Variable("w", DataType::kFloat, {4});
  auto h = to_half.Op1("Cast", {w}, {{"to", static_cast<int64_t>(DataType::kFloat16)}});
  to_half.AddOutput(to_half.Op1("Cast", {h}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));
  to_half.Assign(w,
                 to_half.Op1("Cast", {to_half.Op1("Add", {h, h})}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));

  Session s;
  ASSERT_TRUE(s.AddGraph(2, reader).ok());
  std::vector<Tensor> out;
  Status st = FirstRun(s, &out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Values(out.at(0)), (std::vector<float>{-0.5f, 1.25f, -3, -1024}));
  ASSERT_TRUE(s.AddGraph(1, to_half).ok());
  st = s.RunGraph(1, {}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::shared_ptr<var::VarManager> vars = session::ProcessRuntime().context->variables().Instance(s.GetSessionId());
  ASSERT_EQ(vars->GetCurVarDesc("w")->dtype, DataType::kFloat16);  // the change the rule is about
  EXPECT_TRUE(s.IsGraphNeedRebuild(2));

  out.clear();
  st = Run(s, &out);
  if (GetParam() == RunEntry::kRunGraphWithStreamAsync) {
    EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition) << st.ToString();
    EXPECT_NE(st.message().find("CompileGraph"), std::string::npos) << st.ToString();
    ASSERT_TRUE(s.CompileGraph(2).ok());
    ASSERT_TRUE(s.LoadGraph(2).ok());
    st = Run(s, &out);
  }
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Values(out.at(0)), (std::vector<float>{-1, 2.5f, -6, -2048}));
}
INSTANTIATE_TEST_SUITE_P(EveryRunEntry, StaleVariableDescTest,
                         ::testing::Values(RunEntry::kRunGraph, RunEntry::kRunGraphAsync, RunEntry::kRunGraphOfAFork,
                                           RunEntry::kRunGraphWithStreamAsync),
                         [](const ::testing::TestParamInfo<RunEntry>& info) { return EntryName(info.param); });

}  // namespace
}  // namespace ge
