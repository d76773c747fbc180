#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

TEST(InferShapesPass, SymbolicDimsAndConstantInputsFlow) {
  bool changed = false;
  std::string out = RunAndDump(CreateInferShapesPass(), R"(opset "" 17
graph g(%x: float32[batch,3,4,4]) {
  const %w: float32[2,3,1,1] = <elided 6 elements>
  const %shape: int64[2] = [0, -1]
  conv: %c = Conv(%x, %w)
  relu: %r = Relu(%c)
  flat: %f = Reshape(%r, %shape)
  shp: %s = Shape(%r)
  return %f, %s
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out, R"(graph g(%x: float32[batch,3,4,4]) {
  const %w: float32[2,3,1,1] = [0, 0, 0, 0, 0, 0]
  const %shape: int64[2] = [0, -1]
  conv: %c: float32[batch,2,4,4] = Conv(%x, %w)
  relu: %r: float32[batch,2,4,4] = Relu(%c)
  flat: %f: float32[batch,32] = Reshape(%r, %shape)
  shp: %s: int64[4] = Shape(%r)
  return %f, %s
}
)");
  // A second run finds nothing new.
  auto m = Parse(out.insert(0, "opset \"\" 17\n"));
  ASSERT_TRUE(m);
  auto again = RunOnePass(CreateInferShapesPass(), *m);
  EXPECT_TRUE(again.status.ok());
  EXPECT_FALSE(again.changed);
}

TEST(InferShapesPass, DeclaredDescsAreRefinedNotReplaced) {
  // The declared output keeps its known dim where inference cannot tell; the symbol survives where both are unknown.
  std::string out = RunAndDump(CreateInferShapesPass(), R"(opset "" 17
graph g(%x: float32[?,n], %y: float32[?,n]) {
  add: %z: float32[8,?] = Add(%x, %y)
  return %z
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[?,n], %y: float32[?,n]) {
  add: %z: float32[8,n] = Add(%x, %y)
  return %z
})"
                 "\n");
}

TEST(InferShapesPass, ContradictionIsAnErrorNamingPassAndNode) {
  auto m = Parse(R"(opset "" 17
graph g(%x: float32[2,3]) {
  neg: %y: float32[2,4] = Neg(%x)
  return %y
})");
  ASSERT_TRUE(m);
  auto r = RunOnePass(CreateInferShapesPass(), *m);
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("pass InferShapes"), std::string::npos) << r.status.message();
  EXPECT_NE(r.status.message().find("node 'neg'"), std::string::npos) << r.status.message();
  m = Parse(R"(opset "" 17
graph g(%x: float32[2,3]) {
  n: %y = NoSuchOp(%x)
  return %y
})");
  ASSERT_TRUE(m);
  r = RunOnePass(CreateInferShapesPass(), *m);
  EXPECT_EQ(r.status.code(), StatusCode::kUnimplemented);
}

TEST(InferShapesPass, SubgraphsSeeCapturedDescs) {
  std::string out = RunAndDump(CreateInferShapesPass(), R"(opset "" 17
graph g(%c: bool[], %x: float32[k,2]) {
  sq: %s = Mul(%x, %x)
  if: %y = If(%c)
    then_branch = graph then_g() {
      a: %t = Relu(%s)
      return %t
    }
    else_branch = graph else_g() {
      b: %e = Neg(%s)
      return %e
    }
  return %y
})");
  EXPECT_NE(out.find("capture %s: float32[k,2]"), std::string::npos) << out;
  EXPECT_NE(out.find("a: %t: float32[k,2] = Relu(%s)"), std::string::npos) << out;
  EXPECT_NE(out.find("if: %y: float32[k,2] = If(%c)"), std::string::npos) << out;
}

}  // namespace
}  // namespace ge::compiler
