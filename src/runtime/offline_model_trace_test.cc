// OfflineModelOptions::trace through the public API: a compiled model traced from load, executed three times,
// WriteTrace gives every kernel (the nodes Profile() reports) exactly three slices and the load phases; a model
// loaded without trace, or unloaded, refuses WriteTrace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "compiler/model_compiler.h"
#include "ge/model.h"
#include "ir/text_parser.h"

namespace ge {
namespace {

const char* kModel = R"(
opset "" 17
graph traced(%x: float32[4,16]) {
  n0: %r = Relu(%x)
  n1: %s = Add(%r, %x)
  n2: %t = Mul(%s, %r)
  return %t
})";

std::vector<uint8_t> Compile() {
  auto m = ir::ParseModelText(kModel);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  auto bytes = compiler::CompileToOm(**m, compiler::CompileOptions());
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST(OfflineModelTrace, EveryKernelOncePerRunAndTheLoadPhases) {
  const std::vector<uint8_t> om = Compile();
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  options.trace = true;
  auto m = OfflineModel::LoadFromMemory(om.data(), om.size(), options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::vector<float> x(64, 1.5f), y(64);
  for (int run = 0; run < 3; ++run) ASSERT_TRUE((*m)->Execute({{x.data(), 256}}, {{y.data(), 256}}).ok());
  const std::string path = ::testing::TempDir() + "/offline_model_trace_" + std::to_string(::getpid()) + ".json";
  ASSERT_TRUE((*m)->WriteTrace(path).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  const std::string json = text.str();
  const std::vector<KernelProfile> kernels = (*m)->Profile();
  ASSERT_FALSE(kernels.empty());
  for (const KernelProfile& k : kernels) {
    EXPECT_EQ(k.runs, 3u) << k.node;
    EXPECT_EQ(Count(json, "{\"name\":\"" + k.node + "\",\"cat\":\"kernel\""), 3u) << k.node << "\n" << json;
    EXPECT_NE(json.find("\"impl\":\"" + k.impl + "\""), std::string::npos) << k.impl;
  }
  EXPECT_EQ(Count(json, "\"cat\":\"kernel\""), 3 * kernels.size());
  for (const char* phase : {"\"OfflineModel load\"", "\"SinkModel::Load traced\"", "\"InitNodes: prepare kernels\"",
                            "\"args\":{\"name\":\"stream 0\"}"}) {
    EXPECT_NE(json.find(phase), std::string::npos) << phase;
  }
  ASSERT_TRUE((*m)->Unload().ok());
  EXPECT_EQ((*m)->WriteTrace(path).code(), StatusCode::kFailedPrecondition);
}

TEST(OfflineModelTrace, WithoutTraceWriteTraceIsRefused) {
  const std::vector<uint8_t> om = Compile();
  auto m = OfflineModel::LoadFromMemory(om.data(), om.size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  Status s = (*m)->WriteTrace(::testing::TempDir() + "/never.json");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("OfflineModelOptions::trace"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ge
