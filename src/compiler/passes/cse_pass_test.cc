#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::RunAndDump;

TEST(CsePass, MergesIdenticalNodesAndConstants) {
  bool changed = false;
  std::string out = RunAndDump(CreateCommonSubexpressionEliminationPass(), R"(opset "" 17
graph g(%x: float32[2,3]) {
  const %w1: float32[3] = [1, 2, 3]
  const %w2: float32[3] = [1, 2, 3]
  a1: %a1 = Add(%x, %w1)
  a2: %a2 = Add(%x, %w2)
  r1: %r1 = Relu(%a1)
  r2: %r2 = Relu(%a2)
  s: %s = Add(%r1, %r2)
  return %s
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out, R"(graph g(%x: float32[2,3]) {
  const %w1: float32[3] = [1, 2, 3]
  a1: %a1 = Add(%x, %w1)
  r1: %r1 = Relu(%a1)
  s: %s = Add(%r1, %r1)
  return %s
}
)");
}

TEST(CsePass, KeepsNodesThatDifferOrAreRandom) {
  const std::string text = R"(opset "" 17
graph g(%x: float32[2,3]) {
  const %w1: float32[3] = [1, 2, 3]
  const %w2: float32[3] = [1, 2, 4]
  const %w3: float64[3] = [1, 2, 3]
  s0: %s0 = Softmax(%x) {axis=0}
  s1: %s1 = Softmax(%x) {axis=1}
  a1: %a1 = Add(%x, %w1)
  a2: %a2 = Add(%x, %w2)
  r1: %r1 = RandomUniformLike(%x)
  r2: %r2 = RandomUniformLike(%x)
  c: %c = Cast(%w3) {to=1}
  return %s0, %s1, %a1, %a2, %r1, %r2, %c
}
)";
  bool changed = true;
  EXPECT_EQ(RunAndDump(CreateCommonSubexpressionEliminationPass(), text, &changed), text.substr(text.find("graph")));
  EXPECT_FALSE(changed);
}

TEST(CsePass, GraphOutputsKeepTheirNames) {
  // n2 produces the graph output, so n2 survives and n1's consumer moves to it.
  std::string out = RunAndDump(CreateCommonSubexpressionEliminationPass(), R"(opset "" 17
graph g(%x: float32[2]) {
  n1: %a = Neg(%x)
  e: %e = Exp(%a)
  n2: %b = Neg(%x)
  return %e, %b
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[2]) {
  n2: %b = Neg(%x)
  e: %e = Exp(%b)
  return %e, %b
}
)");
  // Both produce graph outputs: both stay.
  const std::string both = R"(opset "" 17
graph g(%x: float32[2]) {
  n1: %a = Neg(%x)
  n2: %b = Neg(%x)
  return %a, %b
}
)";
  EXPECT_EQ(RunAndDump(CreateCommonSubexpressionEliminationPass(), both), both.substr(both.find("graph")));
}

}  // namespace
}  // namespace ge::compiler
