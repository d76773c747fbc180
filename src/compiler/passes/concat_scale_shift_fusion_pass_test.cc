#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::PatternValues;
using testing::RunOnePass;

// Concat(a [1,4,3,3], b [1,2,3,3]) -> `norm` (the node text after "= ", reading %k) -> y; `extra` adds lines.
std::string Layer(const std::string& norm, const std::string& extra = "") {
  return R"(opset "" 17
opset "ge" 1
graph net(%a: float32[1,4,3,3], %b: float32[1,2,3,3]) {
  const %scale: float32[6] = )" +
         PatternValues(6, 0.2) + R"(
  const %bias: float32[6] = )" +
         PatternValues(6, 0.1) + R"(
  const %mean: float32[6] = )" +
         PatternValues(6, 0.05) + R"(
  const %var: float32[6] = [0.5, 1, 1.5, 2, 0.25, 3]
  cat: %k = Concat(%a, %b) {axis=1}
  norm: %y = )" +
         norm + R"(
)" + extra +
         R"(  return %y
})";
}

TEST(ConcatScaleShiftFusionPass, DenseNetConcatNormReluBecomesOneNode) {
  for (const char* norm : {R"(ge::FusedBatchNormalization(%k, %scale, %bias, %mean, %var) {activation="Relu"})",
                           R"(BatchNormalization(%k, %scale, %bias, %mean, %var) {epsilon=0.001})"}) {
    SCOPED_TRACE(norm);
    const std::string text = Layer(norm);
    auto before = Parse(text);
    auto after = Parse(text);
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateConcatScaleShiftFusionPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    ASSERT_EQ(g.num_nodes(), 1);
    const ir::Node* n = g.FindValue("y")->producer();
    EXPECT_EQ(n->op_type(), "ConcatScaleShift");
    ASSERT_EQ(n->num_inputs(), 4);
    EXPECT_EQ(n->input(2), g.FindValue("a"));
    EXPECT_EQ(n->input(3), g.FindValue("b"));
    EXPECT_TRUE(ModelsAgree(*before, *after, 1e-5));
  }
}

TEST(ConcatScaleShiftFusionPass, LeavesOtherShapesAlone) {
  const char* relu = R"(ge::FusedBatchNormalization(%k, %scale, %bias, %mean, %var) {activation="Relu"})";
  struct Case {
    const char* why;
    std::string text;
  };
  const Case cases[] = {
      {"the concat has another reader", Layer(relu, "  side: %z = Relu(%k)\n")},
      {"an activation the kernel does not have",
       Layer(R"(ge::FusedBatchNormalization(%k, %scale, %bias, %mean, %var) {activation="Sigmoid"})")},
      {"training mode", Layer(R"(BatchNormalization(%k, %scale, %bias, %mean, %var) {training_mode=1})")},
      {"statistics that are not constants", Layer(R"(BatchNormalization(%k, %scale, %bias, %a, %var))")},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    auto m = Parse(c.text);
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateConcatScaleShiftFusionPass(), *m);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace ge::compiler
