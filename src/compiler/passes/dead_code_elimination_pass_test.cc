#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::RunAndDump;

TEST(DeadCodeEliminationPass, RemovesNodesAndValuesNoOutputNeeds) {
  bool changed = false;
  std::string out = RunAndDump(CreateDeadCodeEliminationPass(), R"(opset "" 17
graph g(%x: float32[2], %unused: float32[2]) {
  const %w: float32[2] = [1, 2]
  const %dead_w: float32[2] = [3, 4]
  order: %o = Neg(%x)
  a: %a = Add(%x, %w)
  b: %b = Relu(%a) ^order
  d1: %d1 = Mul(%a, %dead_w)
  d2: %d2 = Exp(%d1)
  return %b
})", &changed);
  EXPECT_TRUE(changed);
  // Graph inputs stay (they are the interface); `order` stays because `b` waits for it.
  EXPECT_EQ(out, R"(graph g(%x: float32[2], %unused: float32[2]) {
  const %w: float32[2] = [1, 2]
  order: %o = Neg(%x)
  a: %a = Add(%x, %w)
  b: %b = Relu(%a) ^order
  return %b
}
)");
}

TEST(DeadCodeEliminationPass, ValuesReadBySubgraphsStayAlive) {
  const std::string text = R"(opset "" 17
graph g(%c: bool[], %x: float32[2]) {
  const %k: float32[2] = [1, 2]
  q: %q = Neg(%x)
  if: %y = If(%c)
    then_branch = graph then_g() {
      capture %q
      t: %t = Relu(%q)
      return %t
    }
    else_branch = graph else_g() {
      capture %k
      return %k
    }
  return %y
}
)";
  bool changed = true;
  std::string out = RunAndDump(CreateDeadCodeEliminationPass(), text, &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(out, text.substr(text.find("graph")));
}

TEST(DeadCodeEliminationPass, CleansSubgraphsToo) {
  std::string out = RunAndDump(CreateDeadCodeEliminationPass(), R"(opset "" 17
graph g(%c: bool[], %x: float32[2]) {
  if: %y = If(%c)
    then_branch = graph then_g() {
      t: %t = Relu(%x)
      waste: %w = Exp(%x)
      return %t
    }
    else_branch = graph else_g() {
      e: %e = Neg(%x)
      return %e
    }
  return %y
})");
  EXPECT_EQ(out.find("waste"), std::string::npos) << out;
  EXPECT_NE(out.find("t: %t = Relu(%x)"), std::string::npos) << out;
}

}  // namespace
}  // namespace ge::compiler
