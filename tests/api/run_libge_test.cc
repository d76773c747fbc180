// What `ge run` and `ge options` need from the public API, through libge.so alone: a model source run uncompiled on
// the reference interpreter (LoadOnInterpreter), a pipelined runtime v2 model's ExecuteBatch, the option table and
// its check, a graph's input and output names, the usable CPU count.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "ge/compile.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/options.h"

namespace {

const std::string kTinyCnn = std::string(GE_SOURCE_DIR) + "/samples/tiny_cnn.onnx";

// A chain long enough to cut into stages; x has a symbolic batch dim.
constexpr const char* kChainIr = R"(opset "" 17
graph chain(%x: float32[batch,8], %w: float32[8,8]) {
  a: %a = MatMul(%x, %w)
  b: %b = Relu(%a)
  c: %c = MatMul(%b, %w)
  d: %d = Tanh(%c)
  e: %e = MatMul(%d, %w)
  f: %y = Sigmoid(%e)
  return %y
})";

ge::Tensor Filled(const std::vector<int64_t>& dims, float scale) {
  auto t = ge::Tensor::Create(ge::DataType::kFloat, ge::Dims(dims.begin(), dims.end()));
  EXPECT_TRUE(t.ok());
  float* p = t->data<float>();
  for (int64_t i = 0; i < t->numel(); ++i) p[i] = scale * std::sin(0.37f * static_cast<float>(i) + scale);
  return *t;
}

void ExpectNear(const ge::Tensor& a, const ge::Tensor& b, float tol) {
  ASSERT_EQ(a.dims(), b.dims());
  for (int64_t i = 0; i < a.numel(); ++i) ASSERT_NEAR(a.data<float>()[i], b.data<float>()[i], tol) << i;
}

TEST(RunLibge, InterpreterRunsTheSourceAsTheCompiledModelDoes) {
  auto interpreted = ge::LoadOnInterpreter(ge::CompileSource::FromFile(kTinyCnn));
  ASSERT_TRUE(interpreted.ok()) << interpreted.status().ToString();
  EXPECT_EQ((*interpreted)->runtime(), "interpreter");
  ge::CompileOptions options;
  options.threads = 1;
  auto compiled = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  ge::OfflineModelOptions load;
  load.intra_op_threads = 1;
  auto model = ge::OfflineModel::LoadFromMemory(compiled->om.data(), compiled->om.size(), load);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ((*interpreted)->inputs().size(), (*model)->inputs().size());
  std::vector<ge::Tensor> in;
  for (const ge::ModelTensorDesc& d : (*model)->inputs()) in.push_back(Filled(d.dims, 0.5f));
  std::vector<ge::Tensor> want, got;
  ASSERT_TRUE((*model)->Execute(in, &want).ok());
  ge::Status s = (*interpreted)->Execute(in, &got);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ExpectNear(got[i], want[i], 1e-4f);
}

TEST(RunLibge, InterpreterRefusesTraceAndBadSources) {
  ge::OfflineModelOptions traced;
  traced.trace = true;
  auto m = ge::LoadOnInterpreter(ge::CompileSource::FromFile(kTinyCnn), traced);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("timeline"), std::string::npos) << m.status().ToString();
  m = ge::LoadOnInterpreter(ge::CompileSource::FromFile("/no/such/model.onnx"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("/no/such/model.onnx"), std::string::npos) << m.status().ToString();
  const std::string text = "graph broken(";
  m = ge::LoadOnInterpreter(ge::CompileSource::FromBytes(text.data(), text.size()));
  EXPECT_FALSE(m.ok());
}

TEST(RunLibge, PipelinedModelBatchEqualsOneAtATime) {
  const std::string ir = kChainIr;
  ge::CompileOptions options;
  options.threads = 1;
  options.runtime = "v2";
  auto compiled = ge::Compile(ge::CompileSource::FromBytes(ir.data(), ir.size()), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  ge::OfflineModelOptions single_options;
  single_options.intra_op_threads = 1;
  auto single = ge::OfflineModel::LoadFromMemory(compiled->om.data(), compiled->om.size(), single_options);
  ASSERT_TRUE(single.ok()) << single.status().ToString();
  EXPECT_EQ((*single)->pipeline_stages(), 0u);
  ge::OfflineModelOptions piped_options = single_options;
  piped_options.pipeline_stages = 3;
  auto piped = ge::OfflineModel::LoadFromMemory(compiled->om.data(), compiled->om.size(), piped_options);
  ASSERT_TRUE(piped.ok()) << piped.status().ToString();
  EXPECT_EQ((*piped)->pipeline_stages(), 3u);
  EXPECT_EQ((*piped)->runtime(), "v2");

  std::vector<std::vector<ge::Tensor>> requests;
  for (int k = 0; k < 5; ++k) requests.push_back({Filled({k + 1, 8}, 0.1f * (k + 1)), Filled({8, 8}, 0.3f)});
  std::vector<std::vector<ge::Tensor>> batch;
  ge::Status s = (*piped)->ExecuteBatch(requests, &batch);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(batch.size(), requests.size());
  for (size_t k = 0; k < requests.size(); ++k) {
    std::vector<ge::Tensor> want;
    ASSERT_TRUE((*single)->Execute(requests[k], &want).ok());
    ASSERT_EQ(batch[k].size(), 1u);
    ExpectNear(batch[k][0], want[0], 1e-6f);
    std::vector<ge::Tensor> one;
    ASSERT_TRUE((*piped)->Execute(requests[k], &one).ok());
    ExpectNear(one[0], want[0], 1e-6f);
  }
  // A bad request names the input; a sink model refuses a pipeline.
  requests[2][0] = Filled({1, 7}, 1.0f);
  s = (*piped)->ExecuteBatch(requests, &batch);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'x'"), std::string::npos) << s.ToString();
  ge::CompileOptions sink_options;
  sink_options.threads = 1;
  auto sink = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), sink_options);
  ASSERT_TRUE(sink.ok());
  auto refused = ge::OfflineModel::LoadFromMemory(sink->om.data(), sink->om.size(), piped_options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("pipeline"), std::string::npos) << refused.status().ToString();
}

TEST(RunLibge, OptionTableIsListedAndChecked) {
  const std::vector<ge::OptionDescription> all = ge::ListOptions();
  bool found = false;
  for (const ge::OptionDescription& o : all) {
    EXPECT_FALSE(o.name.empty());
    EXPECT_FALSE(o.read_by.empty()) << o.name;
    if (o.name == "ge.exec.v2Executor") {
      found = true;
      EXPECT_EQ(o.type, "enum");
      EXPECT_EQ(o.read_by, std::vector<std::string>{"runtime_v2"});
    }
  }
  EXPECT_TRUE(found);
  EXPECT_NE(ge::FormatOptions(true).find("\"ge.exec.v2Executor\""), std::string::npos);
  EXPECT_NE(ge::FormatOptions(false).find("ge.exec.v2Executor"), std::string::npos);
  EXPECT_TRUE(ge::CheckOptions({{"ge.exec.v2Executor", "priority"}}, ge::OptionScope::kModelLoad).ok());
  ge::Status s = ge::CheckOptions({{"ge.exec.v2Exectuor", "priority"}}, ge::OptionScope::kModelLoad, "--option");
  EXPECT_NE(s.message().find("did you mean 'ge.exec.v2Executor'"), std::string::npos) << s.ToString();
  EXPECT_EQ(s.message().rfind("--option: ", 0), 0u) << s.ToString();
  s = ge::CheckOptions({{"ge.fusion", "0"}}, ge::OptionScope::kModelLoad);
  EXPECT_NE(s.message().find("not here"), std::string::npos) << s.ToString();
  EXPECT_TRUE(ge::CheckOptions({{"ge.fusion", "0"}}, ge::OptionScope::kCompile).ok());
  EXPECT_TRUE(ge::CheckOptions({{"ge.fusion", "0"}}, ge::OptionScope::kSession).ok());
  EXPECT_FALSE(ge::CheckOptions({{"ge.exec.v2Executor", "fastest"}}, ge::OptionScope::kModelLoad).ok());
}

TEST(RunLibge, GraphNamesItsInputsAndOutputs) {
  auto g = ge::Graph::FromOnnxFile(kTinyCnn);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_FALSE(g->input_names().empty());
  EXPECT_FALSE(g->output_names().empty());
  EXPECT_FALSE(g->has_training_info());
  ge::Graph built("built");
  ge::Graph::Value x = built.Input("x", ge::DataType::kFloat, {2});
  ge::Graph::Value y = built.Input("y", ge::DataType::kFloat, {2});
  built.AddOutput(built.Op1("Add", {x, y}));
  EXPECT_EQ(built.input_names(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(built.output_names().size(), 1u);
}

TEST(RunLibge, UsableCpuCountIsAtLeastOne) { EXPECT_GE(ge::UsableCpuCount(), 1); }

}  // namespace
