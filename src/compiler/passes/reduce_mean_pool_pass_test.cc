#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunOnePass;

// ShuffleNet's head (mean over H and W, no keepdims) at opset 13 (axes attribute) and opset 18 (axes input), and
// the keepdims form with negative axes.
TEST(ReduceMeanPoolPass, SpatialMeansBecomeGlobalAveragePool) {
  for (const char* net : {
           R"(opset "" 13
graph net(%x: float32[2,6,5,7]) {
  m: %y = ReduceMean(%x) {axes=[2,3], keepdims=0}
  k: %z = ReduceMean(%x) {axes=[-1,-2]}
  return %y, %z
})",
           R"(opset "" 18
graph net(%x: float32[2,6,5,7]) {
  const %a: int64[2] = [3, 2]
  m: %y = ReduceMean(%x, %a) {keepdims=0}
  k: %z = ReduceMean(%x, %a)
  return %y, %z
})"}) {
    SCOPED_TRACE(net);
    auto before = Parse(net);
    auto after = Parse(net);
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateReduceMeanPoolPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    const ir::Node* flatten = g.FindValue("y")->producer();
    ASSERT_TRUE(ops::IsOp(flatten, ops::OpId::kFlatten));
    EXPECT_EQ(flatten->attrs().GetInt("axis", 0), 1);
    EXPECT_TRUE(ops::IsOp(flatten->input(0)->producer(), ops::OpId::kGlobalAveragePool));
    EXPECT_TRUE(ops::IsOp(g.FindValue("z")->producer(), ops::OpId::kGlobalAveragePool));
    EXPECT_TRUE(ModelsAgree(*before, *after, 1e-6));
  }
}

TEST(ReduceMeanPoolPass, LeavesOtherReductions) {
  for (const char* body : {
           "m: %y = ReduceMean(%x) {axes=[1,2,3]}",           // channels too
           "m: %y = ReduceMean(%x) {axes=[3]}",               // one spatial dim of two
           "m: %y = ReduceMean(%x)",                          // every axis
           "m: %y = ReduceMean(%x) {axes=[2,3], noop_with_empty_axes=1}",
           "m: %y = ReduceSum(%x) {axes=[2,3]}",              // not a mean
       }) {
    SCOPED_TRACE(body);
    auto m = Parse(std::string("opset \"\" 13\ngraph net(%x: float32[2,6,5,7]) {\n  ") + body + "\n  return %y\n}");
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateReduceMeanPoolPass(), *m);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed);
  }
  // A rank-3 mean over its last axis stays a ReduceMean (exec.reduce runs it).
  auto r3 =
      Parse("opset \"\" 13\ngraph net(%x: float32[2,6,7]) {\n  m: %y = ReduceMean(%x) {axes=[2]}\n  return %y\n}");
  ASSERT_NE(r3, nullptr);
  EXPECT_FALSE(RunOnePass(CreateReduceMeanPoolPass(), *r3).changed);
  // Integer means keep ReduceMean's integer rounding.
  auto m = Parse("opset \"\" 13\ngraph net(%x: int32[2,6,5,7]) {\n  m: %y = ReduceMean(%x) {axes=[2,3]}\n  return %y\n}");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(RunOnePass(CreateReduceMeanPoolPass(), *m).changed);
}

}  // namespace
}  // namespace ge::compiler
