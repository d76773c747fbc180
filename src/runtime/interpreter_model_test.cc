// IR .om models (what the compiler emits for graphs the sink cannot run) load through the runtime's loader on the
// interpreter and run through the public API like compiled ones; IO that is not a fixed-shape tensor is refused.
#include "runtime/interpreter_model.h"

#include <gtest/gtest.h>

#include <vector>

#include "ge/model.h"
#include "ir/text_parser.h"
#include "om/ir_om.h"

namespace ge::runtime {
namespace {

std::vector<uint8_t> IrOm(const std::string& text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  om::OmWriteOptions wo;
  wo.model_name = "ir_model";
  wo.dynamic = true;
  auto image = om::WriteIrOm(**m, wo);
  EXPECT_TRUE(image.ok()) << image.status().ToString();
  return image.ok() ? *image : std::vector<uint8_t>();
}

TEST(InterpreterModel, RunsThroughThePublicApi) {
  const std::vector<uint8_t> image = IrOm(R"(opset "" 17
graph g(%x: float32[2,3]) {
  a: %y: float32[2,3] = Add(%x, %x)
  m: %z: float32[2,3] = Mul(%y, %x)
  return %z
})");
  auto model = OfflineModel::LoadFromMemory(image.data(), image.size());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  OfflineModel& m = **model;
  EXPECT_EQ(m.runtime(), "v2");  // IR models run on runtime v2 (the interpreter is the test oracle)
  EXPECT_TRUE(m.kernel_impls().empty());
  ASSERT_EQ(m.inputs().size(), 1u);
  EXPECT_EQ(m.inputs()[0].bytes, 6 * sizeof(float));
  std::vector<float> x = {1, -2, 3, 0.5f, -0.25f, 8}, z(6, -1.f);
  ASSERT_TRUE(m.Execute({{x.data(), 24}}, {{z.data(), 24}}).ok());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(z[i], (x[i] + x[i]) * x[i]) << i;
  // Wrong buffer sizes are named, as for compiled models.
  Status bad = m.Execute({{x.data(), 20}}, {{z.data(), 24}});
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
}

TEST(InterpreterModel, UnknownDimsLoadAndSequencesAreRefused) {
  // Unknown dims: the model loads (the tensor form of Execute runs it; offline_model_dynamic_test.cc).
  const std::vector<uint8_t> image = IrOm(R"(opset "" 17
graph g(%x: float32[?,3]) {
  r: %y: float32[?,3] = Relu(%x)
  return %y
})");
  auto model = OfflineModel::LoadFromMemory(image.data(), image.size());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_TRUE((*model)->dynamic());
  // A sequence output has no place in the API: refused with a reason.
  const std::vector<uint8_t> seq = IrOm(R"(opset "" 17
graph g(%x: float32[2,3]) {
  s: %s: seq(float32[*]) = SequenceConstruct(%x)
  return %s
})");
  auto refused = OfflineModel::LoadFromMemory(seq.data(), seq.size());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("output 's' is"), std::string::npos) << refused.status().message();
  EXPECT_NE(refused.status().message().find("not a numeric tensor of known rank"), std::string::npos)
      << refused.status().message();
}

// Asked for the interpreter (`ge run --interpreter`), a model with unknown dims runs through the tensor form at any
// accepted size; fixed-size buffers are refused with the reason, a wrong rank or dtype is named.
TEST(InterpreterModel, TheInterpreterRunsUnknownDimsThroughTensors) {
  const std::vector<uint8_t> image = IrOm(R"(opset "" 17
graph g(%x: float32[?,3]) {
  r: %y: float32[?,3] = Relu(%x)
  return %y
})");
  OfflineModelOptions options;
  options.interpreter = true;
  auto model = OfflineModel::LoadFromMemory(image.data(), image.size(), options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  OfflineModel& m = **model;
  EXPECT_EQ(m.runtime(), "interpreter");
  for (int64_t rows : {1, 4}) {
    std::vector<float> x(static_cast<size_t>(rows * 3));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 2.5f;
    std::vector<Tensor> out;
    Status st = m.Execute({Tensor::FromVector<float>(x, {rows, 3})}, &out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].dims(), (Dims{rows, 3}));
    for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[0].data<float>()[i], x[i] > 0 ? x[i] : 0.f) << i;
  }
  std::vector<float> buf(6);
  EXPECT_EQ(m.Execute({{buf.data(), 24}}, {{buf.data(), 24}}).code(), StatusCode::kFailedPrecondition);
  std::vector<Tensor> out;
  Status wrong = m.Execute({Tensor::FromVector<float>({1, 2}, {2})}, &out);
  EXPECT_EQ(wrong.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.message().find("input 'x'"), std::string::npos) << wrong.ToString();
}

}  // namespace
}  // namespace ge::runtime
