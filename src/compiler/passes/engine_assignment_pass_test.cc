#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::RunAndDump;

const char* kModel = R"(opset "" 17
graph g(%x: float32[1,2,3,3], %w: float32[2,2,1,1]) {
  k: %k = Constant() {value=int64[1] [-1]}
  conv: %c = Conv(%x, %w)
  shp: %s = Shape(%c)
  r: %r = Reshape(%c, %k)
  return %r, %s
})";

TEST(EngineAssignmentPass, HostForShapeOpsRefForTheRest) {
  bool changed = false;
  std::string out = RunAndDump(CreateEngineAssignmentPass(), kModel, &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out, R"(graph g(%x: float32[1,2,3,3], %w: float32[2,2,1,1]) {
  k: %k = Constant() {value=int64[1] [-1]} @host
  conv: %c = Conv(%x, %w) @ref
  shp: %s = Shape(%c) @host
  r: %r = Reshape(%c, %k) @ref
  return %r, %s
}
)");
}

TEST(EngineAssignmentPass, AnEngineCanClaimOpsAheadOfRef) {
  std::vector<EngineRule> rules = DefaultEngineRules();
  rules.insert(rules.begin(), {"dnnl", [](const ir::Node& n) { return n.op_type() == "Conv"; }});
  std::string out = RunAndDump(CreateEngineAssignmentPass(rules), kModel);
  EXPECT_NE(out.find("conv: %c = Conv(%x, %w) @dnnl"), std::string::npos) << out;
  EXPECT_NE(out.find("r: %r = Reshape(%c, %k) @ref"), std::string::npos) << out;

  std::vector<EngineRule> none = {{"dnnl", [](const ir::Node& n) { return n.op_type() == "Conv"; }}};
  auto m = testing::Parse(kModel);
  ASSERT_TRUE(m);
  auto r = testing::RunOnePass(CreateEngineAssignmentPass(none), *m);
  EXPECT_EQ(r.status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status.message().find("node 'k' (Constant): no engine claims it"), std::string::npos);
}

}  // namespace
}  // namespace ge::compiler
