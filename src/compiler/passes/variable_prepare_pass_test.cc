#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

TEST(VariablePreparePass, WritesWaitForTheOtherReaders) {
  bool changed = false;
  std::string out = RunAndDump(CreateVariablePreparePass(), R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  r: %r = Neg(%v)
  w1: %w1 = ge::Assign(%v, %x)
  w2: %w2 = ge::AssignAdd(%v, %x)
  return %r, %w2
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_NE(out.find("w1: %w1 = ge::Assign(%v, %x) ^r"), std::string::npos) << out;
  EXPECT_NE(out.find("w2: %w2 = ge::AssignAdd(%v, %x) ^r ^w1"), std::string::npos) << out;
}

TEST(VariablePreparePass, NoControlEdgeWhereDataAlreadyOrders) {
  // A training step: the new value is computed from the read, so the write needs no control edge from it; the
  // other reader (s) still gets one. An edge made useless by an earlier rewrite goes too (^t).
  bool changed = false;
  std::string out = RunAndDump(CreateVariablePreparePass(), R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  r: %r = Neg(%v)
  s: %s = Abs(%v)
  t: %t = Mul(%r, %x)
  w: %w = ge::Assign(%v, %t) ^t
  return %s, %w
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_NE(out.find("w: %w = ge::Assign(%v, %t) ^s\n"), std::string::npos) << out;
}

TEST(VariablePreparePass, OutputOfTheOldValueBecomesACopy) {
  std::string out = RunAndDump(CreateVariablePreparePass(), R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  w: %w = ge::Assign(%v, %x)
  return %v, %w
})");
  EXPECT_NE(out.find("Identity(%v)"), std::string::npos) << out;
  EXPECT_NE(out.find("return %v_snapshot, %w"), std::string::npos) << out;
}

TEST(VariablePreparePass, RejectsWritesToNonVariables) {
  auto m = Parse(R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  n: %n = Neg(%x)
  w: %w = ge::Assign(%n, %x)
  return %w
})");
  ASSERT_NE(m, nullptr);
  auto r = RunOnePass(CreateVariablePreparePass(), *m);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status.message().find("not a variable"), std::string::npos) << r.status.message();
}

TEST(VariablePreparePass, RejectsReadingBothBeforeAndAfterAWrite) {
  auto m = Parse(R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  w: %w = ge::Assign(%v, %x)
  s: %s = Add(%v, %w)
  return %s
})");
  ASSERT_NE(m, nullptr);
  auto r = RunOnePass(CreateVariablePreparePass(), *m);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status.message().find("before and after"), std::string::npos) << r.status.message();
}

TEST(VarIsInitializedFoldingPass, AsksTheSession) {
  const std::string text = R"(opset "" 17
opset "ge" 1
graph g() {
  u: %u = ge::Variable() {dtype=1, shape=[2]}
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  iu: %iu = ge::VarIsInitializedOp(%u)
  iv: %iv = ge::VarIsInitializedOp(%v)
  return %iu, %iv
})";
  auto m = Parse(text);
  ASSERT_NE(m, nullptr);
  PassContext ctx;
  ctx.variable_initialized = [](const std::string& name) { return name == "v"; };
  auto r = RunOnePass(CreateVarIsInitializedFoldingPass(), *m, ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const auto& outs = m->graph->outputs();
  ASSERT_EQ(outs.size(), 2u);
  ASSERT_TRUE(outs[0]->is_constant() && outs[1]->is_constant());
  EXPECT_FALSE(outs[0]->const_value()->data<bool>()[0]);
  EXPECT_TRUE(outs[1]->const_value()->data<bool>()[0]);
}

TEST(DeadCodeEliminationPass, KeepsVariableWrites) {
  std::string out = RunAndDump(CreateDeadCodeEliminationPass(), R"(opset "" 17
opset "ge" 1
graph g(%x: float32[2]) {
  v: %v = ge::Variable() {dtype=1, shape=[2]}
  w: %w = ge::AssignAdd(%v, %x)
  n: %n = Neg(%x)
  return %n
})");
  EXPECT_NE(out.find("ge::AssignAdd"), std::string::npos) << out;
}

}  // namespace
}  // namespace ge::compiler
