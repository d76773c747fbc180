#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

TEST(ConstantFoldingPass, FoldsChainsOfConstantNodes) {
  bool changed = false;
  std::string out = RunAndDump(CreateConstantFoldingPass(), R"(opset "" 17
graph g(%x: float32[2]) {
  const %a: float32[2] = [1, 2]
  const %b: float32[2] = [3, 0.5]
  k: %k = Constant() {value=float32[2] [0.5, 2]}
  add: %s = Add(%a, %b)
  mul: %m = Mul(%s, %k)
  use: %y = Add(%x, %m)
  return %y
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out, R"(graph g(%x: float32[2]) {
  const %a: float32[2] = [1, 2]
  const %b: float32[2] = [3, 0.5]
  const %k: float32[2] = [0.5, 2]
  const %s: float32[2] = [4, 2.5]
  const %m: float32[2] = [2, 5]
  use: %y = Add(%x, %m)
  return %y
}
)");
}

TEST(ConstantFoldingPass, GraphOutputBecomesConstantUnderItsName) {
  auto m = Parse(R"(opset "" 17
graph g() {
  const %a: int64[3] = [1, 2, 3]
  neg: %y = Neg(%a)
  return %y
})");
  ASSERT_TRUE(m);
  auto r = RunOnePass(CreateConstantFoldingPass(), *m);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ir::Value* y = m->graph->outputs()[0];
  EXPECT_EQ(y->name(), "y");
  ASSERT_TRUE(y->is_constant());
  EXPECT_EQ(y->const_value()->ToInt64Vector(), (std::vector<int64_t>{-1, -2, -3}));
}

TEST(ConstantFoldingPass, NeverFoldsRandomOrTrainingDropout) {
  const std::string text = R"(opset "" 17
graph g() {
  const %a: float32[2] = [1, 2]
  const %train: bool[] = [true]
  rn: %r = RandomNormal() {dtype=1, shape=[2]}
  rl: %l = RandomUniformLike(%a)
  bern: %p = Bernoulli(%a)
  drop: %d, %mask = Dropout(%a, _, %train)
  return %r, %l, %p, %d, %mask
}
)";
  bool changed = true;
  std::string out = RunAndDump(CreateConstantFoldingPass(), text, &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(out, text.substr(text.find("graph")));
}

TEST(ConstantFoldingPass, RespectsTheSizeCap) {
  // 1024 x 1024 x 32 float32 = 128 MiB: over the default 64 MiB cap, never materialized.
  const std::string big = R"(opset "" 17
graph g() {
  const %shape: int64[3] = [1024, 1024, 32]
  fill: %y = ConstantOfShape(%shape)
  return %y
}
)";
  bool changed = true;
  EXPECT_EQ(RunAndDump(CreateConstantFoldingPass(), big, &changed), big.substr(big.find("graph")));
  EXPECT_FALSE(changed);
  // The cap is an option: 32 bytes (8 floats) fold under the default and not under a 16-byte cap.
  const std::string small = R"(opset "" 17
graph g() {
  const %a: float32[8] = [1, 1, 1, 1, 1, 1, 1, 1]
  neg: %y = Neg(%a)
  return %y
}
)";
  PassContext ctx;
  ctx.options["ge.constantFoldingMaxBytes"] = "16";
  EXPECT_EQ(RunAndDump(CreateConstantFoldingPass(), small, &changed, ctx), small.substr(small.find("graph")));
  EXPECT_FALSE(changed);
  RunAndDump(CreateConstantFoldingPass(), small, &changed);
  EXPECT_TRUE(changed);
}

TEST(ConstantFoldingPass, ShapeAndSizeOfKnownShapesFoldWithoutTheirInput) {
  std::string out = RunAndDump(CreateConstantFoldingPass(), R"(opset "" 17
graph g(%x: float32[2,3,4], %u: float32[n,3]) {
  s: %s = Shape(%x) {start=1}
  z: %z = Size(%x)
  su: %su = Shape(%u)
  return %s, %z, %su
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[2,3,4], %u: float32[n,3]) {
  const %s: int64[2] = [3, 4]
  const %z: int64[] = [24]
  su: %su = Shape(%u)
  return %s, %z, %su
}
)");
}

TEST(ConstantFoldingPass, FoldsControlFlowWhoseCapturesAreConstant) {
  auto m = Parse(R"(opset "" 17
graph g(%x: float32[2]) {
  const %c: bool[] = [false]
  const %a: float32[2] = [1, -2]
  if: %y = If(%c)
    then_branch = graph then_g() {
      t: %t = Relu(%a)
      return %t
    }
    else_branch = graph else_g() {
      e: %e = Neg(%a)
      return %e
    }
  if2: %z = If(%c)
    then_branch = graph then2() {
      t2: %t2 = Relu(%x)
      return %t2
    }
    else_branch = graph else2() {
      e2: %e2 = Neg(%x)
      return %e2
    }
  return %y, %z
})");
  ASSERT_TRUE(m);
  auto r = RunOnePass(CreateConstantFoldingPass(), *m);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ir::Value* y = m->graph->outputs()[0];
  ASSERT_TRUE(y->is_constant());
  EXPECT_EQ(y->const_value()->ToInt64Vector(), (std::vector<int64_t>{-1, 2}));
  // The second If reads a graph input: it stays.
  EXPECT_FALSE(m->graph->outputs()[1]->is_constant());
  EXPECT_EQ(m->graph->num_nodes(), 1);
}

TEST(ConstantFoldingPass, KernelErrorsAreLeftForRunTime) {
  const std::string text = R"(opset "" 17
graph g() {
  const %a: float32[2] = [1, 2]
  const %shape: int64[1] = [3]
  r: %y = Reshape(%a, %shape)
  return %y
}
)";
  bool changed = true;
  EXPECT_EQ(RunAndDump(CreateConstantFoldingPass(), text, &changed), text.substr(text.find("graph")));
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge::compiler
