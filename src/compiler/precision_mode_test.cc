// ge.exec.precision_mode (`ge compile --precision_mode`) reaches the .om's MODEL_DEF; bad values are rejected.
#include <gtest/gtest.h>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"

namespace ge::compiler {
namespace {

constexpr const char* kModel = R"(
opset "" 17
graph mm(%x: float32[4,8]) {
  const %w: float32[8,8] = <elided 64 elements>
  n0: %y = MatMul(%x, %w)
  return %y
})";

StatusOr<proto::ModelDefProto> CompiledDef(std::map<std::string, std::string> options) {
  GE_ASSIGN_OR_RETURN(auto model, ir::ParseModelText(kModel));
  CompileOptions co;
  co.ge_options = std::move(options);
  GE_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, CompileToOm(*model, co));
  GE_ASSIGN_OR_RETURN(auto reader, om::OmReader::FromMemory(bytes.data(), bytes.size()));
  const om::ByteSpan d = reader->partition(om::PartitionType::kModelDef);
  proto::ModelDefProto def;
  if (!def.ParseFromArray(d.data, static_cast<int>(d.size))) return DataLoss("MODEL_DEF does not parse");
  return def;
}

TEST(PrecisionModeTest, RecordedInModelDef) {
  auto def = CompiledDef({});
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->precision_mode(), "fp32");
  def = CompiledDef({{"ge.exec.precision_mode", "allow_bf16"}});
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->precision_mode(), "allow_bf16");
}

TEST(PrecisionModeTest, RejectsUnknownMode) {
  auto def = CompiledDef({{"ge.exec.precision_mode", "allow_fp16"}});
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("ge.exec.precision_mode"), std::string::npos) << def.status().ToString();
}

}  // namespace
}  // namespace ge::compiler
