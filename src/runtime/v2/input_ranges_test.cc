// Dim ranges recorded in an IR .om (ir::Model::input_ranges, what `ge compile --input_shape="x:1~16,4"` writes)
// are loaded by ModelV2: sizes at and inside the range run, one outside is refused naming input, dim, value and
// range; ranges given at load override the recorded ones.
#include <gtest/gtest.h>

#include "ir/text_parser.h"
#include "om/ir_om.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

StatusOr<std::unique_ptr<ModelV2>> LoadWithRecordedRange(const ModelV2Options& options = {}) {
  GE_ASSIGN_OR_RETURN(auto model, ir::ParseModelText(R"(opset "" 17
graph g(%x: float32[?,4]) {
  r: %r = Relu(%x)
  return %r
})"));
  model->input_ranges["x"] = {DimRange{2, 16}, DimRange{}};
  om::OmWriteOptions wo;
  wo.model_name = "ranged";
  wo.dynamic = true;
  GE_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, om::WriteIrOm(*model, wo));
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader,
                      om::OmReader::FromMemory(image->data(), image->size(), image));
  return ModelV2::Load(std::shared_ptr<const om::OmReader>(std::move(reader)), options);
}

Status RunRows(ModelV2& m, int64_t rows) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, {rows, 4})).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i % 7) - 3.f;
  std::vector<Value> out;
  GE_RETURN_IF_ERROR(m.Execute({Value(std::move(t))}, &out));
  if (out.size() != 1 || out[0].tensor.dims() != Dims{rows, 4}) return Internal("wrong output shape");
  return Status::Ok();
}

TEST(InputRanges, RecordedRangeIsEnforced) {
  auto m = LoadWithRecordedRange();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  for (int64_t rows : {2, 9, 16}) EXPECT_TRUE(RunRows(**m, rows).ok()) << rows;
  for (int64_t rows : {1, 17}) {
    Status s = RunRows(**m, rows);
    EXPECT_EQ(s.code(), StatusCode::kOutOfRange) << s.ToString();
    EXPECT_NE(s.message().find("'x'"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("dim 0 is " + std::to_string(rows)), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("2~16"), std::string::npos) << s.message();
  }
  EXPECT_TRUE(RunRows(**m, 5).ok());  // still runs after refusing
}

TEST(InputRanges, LoadOptionsOverrideTheRecordedRange) {
  ModelV2Options o;
  o.input_ranges["x"] = {DimRange{1, 32}};
  auto m = LoadWithRecordedRange(o);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(RunRows(**m, 1).ok());
  EXPECT_TRUE(RunRows(**m, 32).ok());
  EXPECT_EQ(RunRows(**m, 33).code(), StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace ge::runtime::v2
