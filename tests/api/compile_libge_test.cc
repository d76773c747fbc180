// The public compile API (include/ge/compile.h) and model metadata (include/ge/model.h) through libge.so alone:
// ONNX and IR text, from a file and from bytes, into memory and onto disk; the report; options checked; symbolic
// dims named in the loaded model's metadata; bad input refused with a clear message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ge/compile.h"
#include "ge/model.h"

namespace {

const std::string kTinyCnn = std::string(GE_SOURCE_DIR) + "/samples/tiny_cnn.onnx";

// y = relu(x * s); x has a symbolic batch dim.
constexpr const char* kDynamicIr = R"(# a comment first
opset "" 17
graph g(%x: float32[batch,4], %s: float32[1,4]) {
  m: %m = Mul(%x, %s)
  r: %y = Relu(%m)
  return %y
})";

std::string TempPath(const std::string& tag) {
  return ::testing::TempDir() + "compile_libge_" + tag + "_" + std::to_string(::getpid());
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<float> RunStatic(ge::OfflineModel& model, const std::vector<float>& x) {
  std::vector<float> y(model.outputs()[0].bytes / sizeof(float));
  ge::Status s = model.Execute({{x.data(), x.size() * sizeof(float)}}, {{y.data(), y.size() * sizeof(float)}});
  EXPECT_TRUE(s.ok()) << s.ToString();
  return y;
}

TEST(CompileLibge, DetectsFormats) {
  const std::vector<uint8_t> onnx = ReadBytes(kTinyCnn);
  EXPECT_EQ(ge::DetectModelFormat(onnx.data(), onnx.size()), ge::ModelFormat::kOnnx);
  const std::string ir = kDynamicIr;
  EXPECT_EQ(ge::DetectModelFormat(ir.data(), ir.size()), ge::ModelFormat::kGeir);
  EXPECT_EQ(ge::DetectModelFormat("GEOM\0\0\0\0", 8), ge::ModelFormat::kOm);
  EXPECT_EQ(ge::DetectModelFormat("hello world", 11), ge::ModelFormat::kUnknown);
  EXPECT_EQ(ge::DetectModelFormat(nullptr, 0), ge::ModelFormat::kUnknown);
  EXPECT_STREQ(ge::ModelFormatName(ge::ModelFormat::kGeir), "geir");
}

TEST(CompileLibge, OnnxFileToMemoryAndDiskGiveTheSameModel) {
  ge::CompileOptions options;
  options.threads = 1;
  auto compiled = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  const ge::CompileReport& r = compiled->report;
  EXPECT_TRUE(r.static_model);
  EXPECT_EQ(r.runtime, "sink");
  EXPECT_FALSE(r.target.empty());
  EXPECT_GT(r.nodes_before, 0u);
  EXPECT_GT(r.nodes_after, 0u);
  EXPECT_GT(r.weights_bytes, 0u);
  EXPECT_GT(r.feature_map_bytes, 0u);
  EXPECT_GT(r.tasks, 0u);
  EXPECT_FALSE(r.impls.empty());
  EXPECT_EQ(ge::DetectModelFormat(compiled->om.data(), compiled->om.size()), ge::ModelFormat::kOm);

  const std::string path = TempPath("tiny.om");
  auto report = ge::CompileToFile(ge::CompileSource::FromFile(kTinyCnn), path, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->nodes_after, r.nodes_after);
  EXPECT_EQ(report->weights_bytes, r.weights_bytes);

  ge::OfflineModelOptions load;
  load.intra_op_threads = 1;
  auto from_memory = ge::OfflineModel::LoadFromMemory(compiled->om.data(), compiled->om.size(), load);
  ASSERT_TRUE(from_memory.ok()) << from_memory.status().ToString();
  auto from_file = ge::OfflineModel::LoadFromFile(path, load);
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  std::remove(path.c_str());

  ge::OfflineModel& m = **from_memory;
  ASSERT_EQ(m.inputs().size(), 1u);
  EXPECT_EQ(m.runtime(), "sink");
  EXPECT_EQ(m.target(), r.target);
  EXPECT_FALSE(m.dynamic());
  EXPECT_EQ(m.inputs()[0].dim_names, std::vector<std::string>(m.inputs()[0].dims.size()));
  std::vector<float> x(m.inputs()[0].bytes / sizeof(float));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.25f - 2.f;
  EXPECT_EQ(RunStatic(m, x), RunStatic(**from_file, x));
}

TEST(CompileLibge, OnnxBytesCompileLikeTheFile) {
  const std::vector<uint8_t> onnx = ReadBytes(kTinyCnn);
  ge::CompileOptions options;
  options.threads = 1;
  auto from_bytes = ge::Compile(ge::CompileSource::FromBytes(onnx.data(), onnx.size()), options);
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status().ToString();
  auto from_file = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  EXPECT_EQ(from_bytes->report.nodes_after, from_file->report.nodes_after);
  EXPECT_EQ(from_bytes->om.size(), from_file->om.size());
}

TEST(CompileLibge, SymbolicDimsAreNamedInTheMetadata) {
  const std::string ir = kDynamicIr;
  ge::CompileOptions options;
  options.threads = 1;
  auto compiled = ge::Compile(ge::CompileSource::FromBytes(ir.data(), ir.size()), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  EXPECT_FALSE(compiled->report.static_model);
  EXPECT_EQ(compiled->report.runtime, "v2");
  EXPECT_FALSE(compiled->report.dynamic_reason.empty());

  auto m = ge::OfflineModel::LoadFromMemory(compiled->om.data(), compiled->om.size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ((*m)->inputs().size(), 2u);
  const ge::ModelTensorDesc& x = (*m)->inputs()[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.dtype, ge::DataType::kFloat);
  EXPECT_EQ(x.dims, (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(x.dim_names, (std::vector<std::string>{"batch", ""}));
  EXPECT_TRUE((*m)->dynamic());
  EXPECT_EQ((*m)->outputs()[0].dims.size(), 2u);

  // The same graph with the batch fixed compiles static.
  options.input_shapes["x"] = {3, 4};
  auto fixed = ge::Compile(ge::CompileSource::FromBytes(ir.data(), ir.size()), options);
  ASSERT_TRUE(fixed.ok()) << fixed.status().ToString();
  EXPECT_TRUE(fixed->report.static_model);
  options.input_shapes.clear();
  options.input_shape_spec = "x:1~8,4";
  auto ranged = ge::Compile(ge::CompileSource::FromBytes(ir.data(), ir.size()), options);
  ASSERT_TRUE(ranged.ok()) << ranged.status().ToString();
  EXPECT_FALSE(ranged->report.static_model);
}

TEST(CompileLibge, RuntimeChoice) {
  const std::string ir = kDynamicIr;
  ge::CompileOptions options;
  options.threads = 1;
  options.runtime = "v1";
  auto v1 = ge::Compile(ge::CompileSource::FromBytes(ir.data(), ir.size()), options);
  ASSERT_FALSE(v1.ok());
  EXPECT_EQ(v1.status().code(), ge::StatusCode::kFailedPrecondition);
  const std::string path = TempPath("v1.om");
  auto v1_file = ge::CompileToFile(ge::CompileSource::FromBytes(ir.data(), ir.size()), path, options);
  EXPECT_FALSE(v1_file.ok());
  EXPECT_FALSE(std::ifstream(path).good()) << "a refused compile leaves no file";

  options.runtime = "v2";
  auto v2 = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_FALSE(v2->report.static_model);
  options.runtime = "v3";
  auto bad = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("auto, v1 or v2"), std::string::npos) << bad.status().ToString();
}

TEST(CompileLibge, OptionsAreChecked) {
  ge::CompileOptions options;
  options.threads = 1;
  options.options["ge.exec.disableReuseMemory"] = "1";
  options.options["ge.exec.precision_mode"] = "fp32";
  auto ok = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();

  options.options = {{"ge.exec.disableReuseMemry", "1"}};
  auto misspelled = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_FALSE(misspelled.ok());
  EXPECT_EQ(misspelled.status().code(), ge::StatusCode::kInvalidArgument);
  EXPECT_NE(misspelled.status().message().find("ge.exec.disableReuseMemry"), std::string::npos);

  options.options = {{"ge.exec.precision_mode", "fp8"}};
  EXPECT_FALSE(ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options).ok());
  options.options.clear();
  options.threads = -1;
  EXPECT_FALSE(ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options).ok());
  options.threads = 1;
  options.target = "x86-64-v9";
  EXPECT_FALSE(ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options).ok());
  options.target = "native";
  options.input_shapes["x"] = {-5, 4};
  EXPECT_FALSE(ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options).ok());
  options.input_shapes.clear();
  options.input_shape_spec = "x:1,2;;";
  EXPECT_FALSE(ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options).ok());
}

TEST(CompileLibge, BadSourcesAreRefusedWithAMessage) {
  auto missing = ge::Compile(ge::CompileSource::FromFile("/nonexistent/m.onnx"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ge::StatusCode::kNotFound);

  auto empty = ge::Compile(ge::CompileSource::FromBytes(nullptr, 0));
  EXPECT_FALSE(empty.ok());
  auto text = ge::Compile(ge::CompileSource::FromBytes("not a model", 11));
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("neither an ONNX model"), std::string::npos) << text.status().ToString();

  std::vector<uint8_t> onnx = ReadBytes(kTinyCnn);
  onnx.resize(onnx.size() / 2);
  auto truncated = ge::Compile(ge::CompileSource::FromBytes(onnx.data(), onnx.size()));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), ge::StatusCode::kDataLoss) << truncated.status().ToString();

  ge::CompileOptions options;
  options.threads = 1;
  auto om = ge::Compile(ge::CompileSource::FromFile(kTinyCnn), options);
  ASSERT_TRUE(om.ok());
  auto recompile = ge::Compile(ge::CompileSource::FromBytes(om->om.data(), om->om.size()));
  ASSERT_FALSE(recompile.ok());
  EXPECT_NE(recompile.status().message().find("already compiled"), std::string::npos);

  const std::string bad_ir = "graph g(%x: float32[2]) { r: %y = Relu(%nope) return %y }";
  auto ir = ge::Compile(ge::CompileSource::FromBytes(bad_ir.data(), bad_ir.size()));
  EXPECT_FALSE(ir.ok());

  ge::CompileSource both = ge::CompileSource::FromFile(kTinyCnn);
  both.data = om->om.data();
  both.size = om->om.size();
  EXPECT_FALSE(ge::Compile(both).ok());
  EXPECT_FALSE(ge::CompileToFile(ge::CompileSource::FromFile(kTinyCnn), "").ok());
  EXPECT_FALSE(ge::CompileToFile(ge::CompileSource::FromFile(kTinyCnn), "/nonexistent/dir/m.om", options).ok());
}

}  // namespace
