// `--input_shape` with ranges: parsed, the ranged dims stay symbolic and their ranges reach the IR .om; bad syntax
// and ranges contradicting the model are clear errors.
#include "compiler/input_shape_spec.h"

#include <gtest/gtest.h>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/ir_om.h"

namespace ge::compiler {
namespace {

TEST(InputShapeSpec, SizesAndRanges) {
  auto spec = ParseInputShapeSpec("ids:1,1~512;mask:2,3;pos:4~4");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->shapes.at("ids"), (Dims{1, kUnknownDim}));
  EXPECT_EQ(spec->shapes.at("mask"), (Dims{2, 3}));
  EXPECT_EQ(spec->shapes.at("pos"), (Dims{4}));
  ASSERT_EQ(spec->ranges.size(), 1u);
  EXPECT_EQ(spec->ranges.at("ids"), (std::vector<DimRange>{DimRange{}, DimRange{1, 512}}));
}

TEST(InputShapeSpec, BadSyntaxIsAClearError) {
  for (const char* bad : {"ids:1,1~", "ids:1,~5", "ids:5~2", "ids:a~b", "ids:-1", "ids:1,-2~4", "ids:1,,2",
                          "ids:1,", "1,2", "ids:1~2~3", "ids:1;ids:2"}) {
    auto spec = ParseInputShapeSpec(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(spec.status().message().find("--input_shape"), std::string::npos) << spec.status().ToString();
  }
}

constexpr const char* kModel = R"(
opset "" 17
graph g(%x: float32[?,?,8]) {
  r: %y = Relu(%x)
  return %y
})";

StatusOr<std::unique_ptr<ir::Model>> CompileAndReadBack(const std::string& input_shape) {
  GE_ASSIGN_OR_RETURN(auto model, ir::ParseModelText(kModel));
  GE_ASSIGN_OR_RETURN(InputShapeSpec spec, ParseInputShapeSpec(input_shape));
  CompileOptions co;
  co.input_shapes = spec.shapes;
  co.input_ranges = spec.ranges;
  CompileReport report;
  GE_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, CompileToOm(*model, co, &report));
  if (report.static_model) return FailedPrecondition("compiled static");
  GE_ASSIGN_OR_RETURN(auto reader, om::OmReader::FromMemory(bytes.data(), bytes.size()));
  GE_ASSIGN_OR_RETURN(auto back, om::ReadIrOm(*reader));
  return back;
}

TEST(InputShapeSpec, RangesReachTheIrOm) {
  auto back = CompileAndReadBack("x:2,1~512,8");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const ir::Value* x = (*back)->graph->inputs()[0];
  EXPECT_EQ(x->desc().shape.dims(), (Dims{2, kUnknownDim, 8}));
  ASSERT_EQ((*back)->input_ranges.count("x"), 1u);
  EXPECT_EQ((*back)->input_ranges.at("x")[1], (DimRange{1, 512}));
}

TEST(InputShapeSpec, RangeContradictingTheModelIsAClearError) {
  auto back = CompileAndReadBack("x:2,1~512,9~16");
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(back.status().message().find("contradicts"), std::string::npos) << back.status().ToString();
  back = CompileAndReadBack("x:2,1~512,4~16");  // the declared 8 lies in the range: kept
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->graph->inputs()[0]->desc().shape.dims(), (Dims{2, kUnknownDim, 8}));
}

}  // namespace
}  // namespace ge::compiler
