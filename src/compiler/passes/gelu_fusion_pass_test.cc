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
