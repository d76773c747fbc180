#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::PatternValues;
using testing::RunOnePass;

// x [1,8,5,5] -> GlobalAveragePool -> fc1 (2 outputs) -> fc2 (8 outputs) -> Mul; `fc1`/`fc2` are the node texts
// after the "= " of each convolution, `mul` the Mul's operands.
std::string Block(const std::string& fc1, const std::string& fc2, const std::string& mul,
                  const std::string& extra = "") {
  return R"(opset "" 17
opset "ge" 1
graph net(%x: float32[1,8,5,5]) {
  const %w1: float32[2,8,1,1] = )" +
         PatternValues(16, 0.1) + R"(
  const %b1: float32[2] = )" +
         PatternValues(2, 0.05) + R"(
  const %w2: float32[8,2,1,1] = )" +
         PatternValues(16, 0.2) + R"(
  const %b2: float32[8] = )" +
         PatternValues(8, 0.05) + R"(
  gap: %g = GlobalAveragePool(%x)
  fc1: %h = )" +
         fc1 + R"(
  fc2: %s = )" +
         fc2 + R"(
  mul: %y = Mul()" +
         mul + R"()
)" + extra +
         R"(  return %y
})";
}

const char* kFc1Silu = R"(ge::FusedConv(%g, %w1, %b1) {activation="Silu"})";
const char* kFc2Sigmoid = R"(ge::FusedConv(%h, %w2, %b2) {activation="Sigmoid"})";

TEST(SqueezeExciteFusionPass, EfficientNetBlockBecomesOneNode) {
  for (const char* mul : {"%s, %x", "%x, %s"}) {
    SCOPED_TRACE(mul);
    const std::string text = Block(kFc1Silu, kFc2Sigmoid, mul);
    auto before = Parse(text);
    auto after = Parse(text);
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateSqueezeExciteFusionPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    ASSERT_EQ(g.num_nodes(), 1);
    const ir::Node* se = g.FindValue("y")->producer();
    EXPECT_EQ(se->op_type(), "SqueezeExcite");
    EXPECT_EQ(se->domain(), "ge");
    EXPECT_EQ(se->input(0), g.FindValue("x"));
    EXPECT_EQ(se->input(1), g.FindValue("w1"));
    EXPECT_EQ(se->input(4), g.FindValue("b2"));
    EXPECT_EQ(se->attrs().GetString("activation", ""), "Silu");
    EXPECT_EQ(se->attrs().GetString("gate_activation", ""), "Sigmoid");
    EXPECT_TRUE(ModelsAgree(*before, *after, 1e-6));
  }
}

// MobileNetV3's block: Relu, and a HardSigmoid gate with its parameters; a plain Conv (no activation) works too.
TEST(SqueezeExciteFusionPass, MobileNetV3BlockKeepsTheGateParameters) {
  const std::string text =
      Block(R"(Conv(%g, %w1, %b1))",
            R"(ge::FusedConv(%h, %w2, %b2) {activation="HardSigmoid", activation_params=[0.16666667, 0.5]})", "%s, %x");
  auto before = Parse(text);
  auto after = Parse(text);
  ASSERT_TRUE(before && after);
  auto r = RunOnePass(CreateSqueezeExciteFusionPass(), *after);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_TRUE(r.changed);
  const ir::Node* se = after->graph->FindValue("y")->producer();
  EXPECT_FALSE(se->attrs().Has("activation"));
  EXPECT_EQ(se->attrs().GetString("gate_activation", ""), "HardSigmoid");
  EXPECT_EQ(se->attrs().GetFloats("gate_activation_params"), (std::vector<float>{0.16666667f, 0.5f}));
  EXPECT_TRUE(ModelsAgree(*before, *after, 1e-6));
}

TEST(SqueezeExciteFusionPass, LeavesOtherShapesAlone) {
  struct Case {
    const char* why;
    std::string text;
  };
  const Case cases[] = {
      {"the gate has another reader", Block(kFc1Silu, kFc2Sigmoid, "%s, %x", "  side: %z = Relu(%s)\n")},
      {"the pooled value has another reader", Block(kFc1Silu, kFc2Sigmoid, "%s, %x", "  side: %z = Relu(%g)\n")},
      {"a strided convolution",
       Block(R"(ge::FusedConv(%g, %w1, %b1) {activation="Silu", strides=[2,2]})", kFc2Sigmoid, "%s, %x")},
      {"the gate multiplies something else", Block(kFc1Silu, kFc2Sigmoid, "%s, %s")},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    auto m = Parse(c.text);
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateSqueezeExciteFusionPass(), *m);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace ge::compiler
