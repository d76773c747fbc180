#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunOnePass;

const char kConsts[] = R"(  const %sqrt2: float32[] = [1.4142135]
  const %rsqrt2: float32[] = [0.70710677]
  const %two: float32[] = [2]
  const %one: float32[] = [1]
  const %half: float32[] = [0.5]
)";

// A GELU after a LayerNormalization (nothing to fold it into) in the forms exporters write.
std::string NormThen(const std::string& gelu) {
  return std::string(R"(opset "" 17
graph net(%x: float32[2,3,16]) {
  const %g: float32[16] = [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]
)") + kConsts +
         "  ln: %m: float32[2,3,16] = LayerNormalization(%x, %g) {axis=-1}\n" + gelu + "  return %y\n}";
}

int Count(const ir::Graph& g, ops::OpId op) {
  int n = 0;
  for (const ir::Node* node : g.nodes()) n += ops::IsOp(node, op) ? 1 : 0;
  return n;
}

TEST(GeluFusionPass, AStandaloneErfGeluBecomesOneNode) {
  const char* forms[] = {
      // torch.onnx, nn.GELU()
      "  d: %d = Div(%m, %sqrt2)\n  e: %e = Erf(%d)\n  a: %e1 = Add(%e, %one)\n  p: %p = Mul(%m, %e1)\n"
      "  y: %y = Mul(%p, %half)\n",
      // BERT
      "  h: %h = Mul(%m, %half)\n  d: %d = Div(%m, %sqrt2)\n  e: %e = Erf(%d)\n  a: %e1 = Add(%one, %e)\n"
      "  y: %y = Mul(%h, %e1)\n",
  };
  for (const char* form : forms) {
    SCOPED_TRACE(form);
    auto before = Parse(NormThen(form));
    auto after = Parse(NormThen(form));
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateGeluFusionPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    EXPECT_EQ(Count(g, ops::OpId::kGeGelu), 1);
    EXPECT_EQ(Count(g, ops::OpId::kErf), 0);
    EXPECT_EQ(Count(g, ops::OpId::kMul), 0);
    EXPECT_TRUE(ops::IsOp(g.FindValue("y")->producer(), ops::OpId::kGeGelu));
    // The reference ge::Gelu follows torch.onnx's rounding: bit for bit in that form, within rounding in the other.
    EXPECT_TRUE(ModelsAgree(*before, *after, form == forms[0] ? 0.0 : 1e-6));
  }
}

const char kTorchGelu[] =
    "  d: %d = Div(%m, %sqrt2)\n  e: %e = Erf(%d)\n  a: %e1 = Add(%e, %one)\n  p: %p = Mul(%m, %e1)\n"
    "  y: %y = Mul(%p, %half)\n";

// A GELU of the sum `add` (which defines %m from %x and %r or %b).
std::string SumThen(const std::string& add, const std::string& extra_use = "") {
  return std::string(R"(opset "" 17
graph net(%x: float32[2,3,16], %r: float32[2,3,16]) {
  const %b: float32[3,1] = [0.5, -1, 2]
)") + kConsts +
         add + kTorchGelu + extra_use + "  return %y\n}";
}

TEST(GeluFusionPass, TheAddBeforeTheGeluJoinsIt) {
  const char* adds[] = {
      "  s: %m: float32[2,3,16] = Add(%x, %r)\n",  // a residual sum
      "  s: %m: float32[2,3,16] = Add(%b, %x)\n",  // a broadcast bias, first
  };
  for (const char* add : adds) {
    SCOPED_TRACE(add);
    auto before = Parse(SumThen(add));
    auto after = Parse(SumThen(add));
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateGeluFusionPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    EXPECT_EQ(g.nodes().size(), 1u);
    const ir::Node* gelu = g.FindValue("y")->producer();
    ASSERT_TRUE(ops::IsOp(gelu, ops::OpId::kGeGelu));
    ASSERT_EQ(gelu->num_inputs(), 2);
    EXPECT_EQ(gelu->input(0)->name(), "x");  // X: the operand of the sum's shape
    // The reference ge::Gelu adds as the Add did, then follows torch.onnx's rounding: bit for bit.
    EXPECT_TRUE(ModelsAgree(*before, *after, 0.0));
  }
}

TEST(GeluFusionPass, AnAddOfTwoBroadcastOperandsStaysOutside) {
  // Neither operand has the sum's shape: the GELU fuses alone.
  const std::string text = std::string(R"(opset "" 17
graph net(%x: float32[2,1,16], %r: float32[3,1]) {
)") + kConsts + "  s: %m: float32[2,3,16] = Add(%x, %r)\n" +
                           kTorchGelu + "  return %y\n}";
  auto before = Parse(text);
  auto after = Parse(text);
  ASSERT_TRUE(before && after);
  auto r = RunOnePass(CreateGeluFusionPass(), *after);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(Count(*after->graph, ops::OpId::kAdd), 1);
  EXPECT_EQ(after->graph->FindValue("y")->producer()->num_inputs(), 1);
  EXPECT_TRUE(ModelsAgree(*before, *after, 0.0));
}

TEST(GeluFusionPass, LeavesWhatIsNotAGelu) {
  const char* cases[] = {
      // Divided by 2, not sqrt(2).
      "  d: %d = Div(%m, %two)\n  e: %e = Erf(%d)\n  a: %e1 = Add(%e, %one)\n  p: %p = Mul(%m, %e1)\n"
      "  y: %y = Mul(%p, %half)\n",
      // The Erf's result is read elsewhere too.
      "  d: %d = Div(%m, %sqrt2)\n  e: %e = Erf(%d)\n  a: %e1 = Add(%e, %one)\n  p: %p = Mul(%m, %e1)\n"
      "  y: %y0 = Mul(%p, %half)\n  s: %y = Add(%y0, %e)\n",
  };
  for (const char* c : cases) {
    SCOPED_TRACE(c);
    auto m = Parse(NormThen(c));
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateGeluFusionPass(), *m);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace ge::compiler
