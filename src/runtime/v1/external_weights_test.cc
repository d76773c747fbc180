// External weights end to end (ge.externalWeight=1|2): a small CNN compiled with its weights embedded, in a file
// per weight and in one combined file; every build loaded by SinkModel gives bit-identical outputs; the files are
// mapped once per process; a missing, truncated or changed file and a FileConstant whose length disagrees fail the
// load with a Status naming the file or node.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"
#include "om/om_writer.h"
#include "om/weight_file.h"
#include "om/weight_file_cache.h"
#include "runtime/v1/sink_model.h"

namespace ge::runtime {
namespace {

namespace fs = std::filesystem;

std::string RandomList(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(dist(rng));
  return s + "]";
}

// Convolutions (prepacked for oneDNN by default), a residual sum, a matmul, a small bias that stays inline and a
// constant graph output (copied from a FileConstant's value).
std::string Cnn() {
  return R"(
opset "" 17
graph cnn(%x: float32[1,3,10,10]) {
  const %w0: float32[8,3,3,3] = )" + RandomList(216, 1) + R"(
  const %b0: float32[8] = )" + RandomList(8, 2) + R"(
  const %w1: float32[8,8,3,3] = )" + RandomList(576, 3) + R"(
  const %wf: float32[8,4] = )" + RandomList(32, 4) + R"(
  const %k: float32[4,8] = )" + RandomList(32, 5) + R"(
  c0: %a0 = Conv(%x, %w0, %b0) {pads=[1,1,1,1]}
  r0: %r0 = Relu(%a0)
  c1: %a1 = Conv(%r0, %w1) {pads=[1,1,1,1]}
  add: %s = Add(%a1, %r0)
  gap: %g = GlobalAveragePool(%s)
  flat: %f = Flatten(%g)
  fc: %y = MatMul(%f, %wf)
  return %y, %k
})";
}

class ExternalWeightsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "ge_external_weights_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    device_ = rt::CreateDefaultDevice().value();
  }
  void TearDown() override { fs::remove_all(dir_); }

  Status CompileFile(const std::string& om, std::map<std::string, std::string> options,
                     compiler::CompileReport* report = nullptr) {
    auto m = ir::ParseModelText(Cnn());
    if (!m.ok()) return m.status();
    compiler::CompileOptions co;
    co.ge_options = std::move(options);
    return compiler::CompileToOmFile(**m, co, dir_ + "/" + om, report);
  }

  StatusOr<std::unique_ptr<SinkModel>> LoadFile(const std::string& path, const SinkModelOptions& options = {}) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader, om::OmReader::Open(path));
    return SinkModel::Load(std::move(reader), device_.get(), options);
  }

  // Outputs for one fixed input.
  std::vector<Tensor> Run(SinkModel& model) {
    Tensor x = Tensor::Create(DataType::kFloat, {1, 3, 10, 10}).value();
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-2.f, 2.f);
    for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = dist(rng);
    std::vector<Tensor> out;
    std::vector<DataBuffer> ob;
    for (const IoDesc& d : model.outputs()) {
      out.push_back(Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value());
      ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
    }
    Status s = model.Execute({DataBuffer{x.raw_data(), x.nbytes()}}, ob);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }

  static void ExpectBitIdentical(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].nbytes(), b[i].nbytes());
      EXPECT_EQ(std::memcmp(a[i].raw_data(), b[i].raw_data(), a[i].nbytes()), 0) << "output " << i;
    }
  }

  std::vector<Tensor> Embedded() {
    EXPECT_TRUE(CompileFile("m0.om", {}).ok());
    auto m = LoadFile(dir_ + "/m0.om");
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? Run(**m) : std::vector<Tensor>();
  }

  std::string dir_;
  std::unique_ptr<rt::Device> device_;
};

TEST_F(ExternalWeightsTest, BothModesMatchTheEmbeddedBuildBitForBit) {
  const std::vector<Tensor> want = Embedded();
  const uint64_t embedded_size = fs::file_size(dir_ + "/m0.om");
  for (const char* mode : {"1", "2"}) {
    SCOPED_TRACE(std::string("mode ") + mode);
    const std::string om = std::string("m") + mode + ".om";
    compiler::CompileReport report;
    Status s = CompileFile(om, {{"ge.externalWeight", mode}}, &report);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(report.external_weight_tensors, 4);  // w0, w1, wf, k; the 32-byte bias stays inline
    EXPECT_EQ(report.weights_bytes, 0u);
    // At least the four tensors' logical bytes (864 + 2304 + 128 + 128); prepacked layouts pad channels to the
    // vector width, so more on AVX-512 than on AVX2.
    EXPECT_GE(report.external_weights_bytes, 3424u);
    ASSERT_FALSE(report.external_weight_files.empty());
    EXPECT_EQ(report.external_weight_files.size(), mode[0] == '1' ? 4u : 1u);
    const std::string weights_dir = dir_ + "/m" + mode + ".weights";
    for (const std::string& f : report.external_weight_files) {
      EXPECT_EQ(f.rfind(fs::canonical(weights_dir).string() + "/", 0), 0u) << f;
      EXPECT_TRUE(fs::exists(f)) << f;
    }
    if (mode[0] == '2') {
      EXPECT_TRUE(fs::exists(weights_dir + "/m2_weight_combined"));
    }
    EXPECT_LT(fs::file_size(dir_ + "/" + om) + report.external_weights_bytes / 2, embedded_size);

    auto reader = om::OmReader::Open(dir_ + "/" + om).value();
    EXPECT_FALSE(reader->has(om::PartitionType::kWeightsData));
    auto model = LoadFile(dir_ + "/" + om);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    EXPECT_EQ((*model)->stats().num_file_constants, 4u);
    EXPECT_EQ((*model)->stats().external_weights_bytes, report.external_weights_bytes);
    ExpectBitIdentical(Run(**model), want);
  }
}

TEST_F(ExternalWeightsTest, ModelAndWeightsMoveTogether) {
  const std::vector<Tensor> want = Embedded();
  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  const std::string moved = dir_ + "/moved";
  fs::create_directories(moved);
  fs::rename(dir_ + "/m.om", moved + "/m.om");
  fs::rename(dir_ + "/m.weights", moved + "/m.weights");
  auto model = LoadFile(moved + "/m.om");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ExpectBitIdentical(Run(**model), want);
}

TEST_F(ExternalWeightsTest, TwoLoadsShareOneMappingAndVerifyOnce) {
  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  om::WeightFileCache& cache = om::WeightFileCache::Global();
  const size_t before = cache.live_files();
  auto first = LoadFile(dir_ + "/m.om");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(cache.live_files(), before + 1);
  auto second = LoadFile(dir_ + "/m.om");
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(cache.live_files(), before + 1);  // the same mapping
  const std::string file = (*first)->stats().external_weight_files.at(0);
  auto mapped = cache.Open(file).value();
  EXPECT_EQ(mapped->verified_ranges(), 4u);  // each tensor's checksum once, not once per load
  ExpectBitIdentical(Run(**first), Run(**second));
  mapped.reset();
  first->reset();
  second->reset();
  EXPECT_EQ(cache.live_files(), before);  // unmapped with the last model
}

TEST_F(ExternalWeightsTest, MissingTruncatedOrChangedFilesFailWithTheFileNamed) {
  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  const std::string file = dir_ + "/m.weights/m_weight_combined";
  const std::string saved = dir_ + "/saved";
  fs::copy_file(file, saved);

  fs::remove(file);
  auto missing = LoadFile(dir_ + "/m.om");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("m_weight_combined"), std::string::npos) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("FileConstant"), std::string::npos);

  fs::copy_file(saved, file);
  fs::resize_file(file, fs::file_size(file) / 2);
  auto truncated = LoadFile(dir_ + "/m.om");
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(truncated.status().message().find("m_weight_combined"), std::string::npos);
  EXPECT_NE(truncated.status().message().find("truncated"), std::string::npos) << truncated.status().ToString();

  fs::remove(file);
  fs::copy_file(saved, file);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(600);
    f.put('\x7f');
  }
  auto changed = LoadFile(dir_ + "/m.om");
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(changed.status().message().find("checksum"), std::string::npos) << changed.status().ToString();
}

// Rewrites the .om at |path| with |edit| applied to its MODEL_DEF.
void EditModelDef(const std::string& path, const std::function<void(proto::ModelDefProto*)>& edit) {
  auto reader = om::OmReader::Open(path).value();
  proto::ModelDefProto def;
  om::ByteSpan d = reader->partition(om::PartitionType::kModelDef);
  ASSERT_TRUE(def.ParseFromArray(d.data, static_cast<int>(d.size)));
  edit(&def);
  om::OmWriteOptions o;
  o.model_name = reader->header().name;
  o.model_type = reader->header().model_type;
  o.isa_features = reader->header().isa.features;
  om::OmWriter w(o);
  for (const om::PartitionInfo& p : reader->header().partitions) {
    if (p.type == om::PartitionType::kModelDef) {
      ASSERT_TRUE(w.AddPartition(p.type, def.SerializeAsString()).ok());
    } else {
      om::ByteSpan s = reader->partition(p.type);
      ASSERT_TRUE(w.AddPartition(p.type, std::string(reinterpret_cast<const char*>(s.data), s.size)).ok());
    }
  }
  const std::string edited = path + ".edited";
  ASSERT_TRUE(w.WriteToFile(edited).ok());
  reader.reset();
  fs::rename(edited, path);
}

// The FileConstant node of |def| that reads the most bytes; its name goes to |name|.
proto::NodeProto* LargestFileConstant(proto::ModelDefProto* def, std::string* name) {
  proto::NodeProto* best = nullptr;
  int64_t best_length = -1;
  for (proto::NodeProto& n : *def->mutable_ir()->mutable_graph()->mutable_nodes()) {
    if (n.op_type() != "FileConstant") continue;
    for (const proto::AttrProto& a : n.attrs()) {
      if (a.name() == om::kFileConstantLengthAttr && a.i() > best_length) {
        best = &n;
        best_length = a.i();
      }
    }
  }
  if (best != nullptr) *name = best->name();
  return best;
}

// Adds |delta| to integer attribute |attr| of the largest FileConstant of the .om at |path|; returns its name.
std::string EditLargestFileConstant(const std::string& path, const char* attr, int64_t delta) {
  std::string name;
  EditModelDef(path, [&](proto::ModelDefProto* def) {
    proto::NodeProto* n = LargestFileConstant(def, &name);
    ASSERT_NE(n, nullptr);
    for (proto::AttrProto& a : *n->mutable_attrs()) {
      if (a.name() == attr) a.set_i(a.i() + delta);
    }
  });
  return name;
}

TEST_F(ExternalWeightsTest, WrongLengthOrOffsetFailsNamingTheNode) {
  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  const std::string shortened = EditLargestFileConstant(dir_ + "/m.om", om::kFileConstantLengthAttr, -4);
  ASSERT_FALSE(shortened.empty());
  auto wrong_length = LoadFile(dir_ + "/m.om");
  ASSERT_FALSE(wrong_length.ok());
  EXPECT_EQ(wrong_length.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(wrong_length.status().message().find("'" + shortened + "'"), std::string::npos)
      << wrong_length.status().ToString();
  EXPECT_NE(wrong_length.status().message().find("length"), std::string::npos);

  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  const std::string moved = EditLargestFileConstant(dir_ + "/m.om", om::kFileConstantOffsetAttr, 1 << 20);
  auto past_end = LoadFile(dir_ + "/m.om");
  ASSERT_FALSE(past_end.ok());
  EXPECT_NE(past_end.status().message().find("m_weight_combined"), std::string::npos) << past_end.status().ToString();
  EXPECT_NE(past_end.status().message().find("'" + moved + "'"), std::string::npos);
}

TEST_F(ExternalWeightsTest, InMemoryModels) {
  const std::vector<Tensor> want = Embedded();
  auto m = ir::ParseModelText(Cnn()).value();
  compiler::CompileOptions co;
  co.ge_options["ge.externalWeight"] = "1";
  auto no_dir = compiler::CompileToOm(*m, co);
  ASSERT_FALSE(no_dir.ok());
  EXPECT_EQ(no_dir.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(no_dir.status().message().find("ge.externalWeightDir"), std::string::npos);

  // With a directory the paths are absolute: the image loads from memory.
  co.ge_options["ge.externalWeightDir"] = dir_ + "/mem_weights";
  m = ir::ParseModelText(Cnn()).value();
  auto bytes = compiler::CompileToOm(*m, co);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
  auto model = SinkModel::Load(om::OmReader::FromMemory(image->data(), image->size(), image).value(), device_.get());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ExpectBitIdentical(Run(**model), want);

  // A file's .om read into memory has relative paths: they need the directory.
  ASSERT_TRUE(CompileFile("m.om", {{"ge.externalWeight", "2"}}).ok());
  std::ifstream f(dir_ + "/m.om", std::ios::binary);
  auto copy = std::make_shared<std::vector<uint8_t>>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  auto relative = SinkModel::Load(om::OmReader::FromMemory(copy->data(), copy->size(), copy).value(), device_.get());
  ASSERT_FALSE(relative.ok());
  EXPECT_EQ(relative.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(relative.status().message().find("external_weight_dir"), std::string::npos);
  SinkModelOptions so;
  so.external_weight_dir = dir_;
  auto resolved = SinkModel::Load(om::OmReader::FromMemory(copy->data(), copy->size(), copy).value(), device_.get(), so);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  ExpectBitIdentical(Run(**resolved), want);
}

TEST_F(ExternalWeightsTest, OptionsAreChecked) {
  EXPECT_EQ(CompileFile("m.om", {{"ge.externalWeight", "3"}}).code(), StatusCode::kInvalidArgument);
  std::ofstream(dir_ + "/blocker") << "x";
  Status s = CompileFile("m.om", {{"ge.externalWeight", "1"}, {"ge.externalWeightDir", dir_ + "/blocker"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("blocker"), std::string::npos) << s.ToString();
  // A directory outside the .om's is recorded absolute; the model still loads from anywhere.
  const std::string elsewhere = dir_ + "/elsewhere";
  fs::create_directories(dir_ + "/models");
  auto m = ir::ParseModelText(Cnn()).value();
  compiler::CompileOptions co;
  co.ge_options = {{"ge.externalWeight", "2"}, {"ge.externalWeightDir", elsewhere}};
  ASSERT_TRUE(compiler::CompileToOmFile(*m, co, dir_ + "/models/x.om").ok());
  EXPECT_TRUE(fs::exists(elsewhere + "/x_weight_combined"));
  auto model = LoadFile(dir_ + "/models/x.om");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->stats().external_weight_files.at(0).front(), '/');
}

}  // namespace
}  // namespace ge::runtime
