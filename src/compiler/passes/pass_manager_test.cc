#include "compiler/passes/pass_manager.h"

#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"

namespace ge::compiler {
namespace {

using testing::Parse;

// Changes something on its first `budget` runs; records every graph it visits.
class CountingPass : public GraphLevelPass {
 public:
  explicit CountingPass(int budget, std::vector<std::string>* visited) : budget_(budget), visited_(visited) {}
  const char* name() const override { return "Counting"; }
  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    visited_->push_back(g.name());
    if (g.parent_node()) return false;
    return budget_-- > 0;
  }

 private:
  int budget_;
  std::vector<std::string>* visited_;
};

class FailingPass : public GraphPass {
 public:
  const char* name() const override { return "Failing"; }
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override { return InvalidArgument("boom"); }
};

// Removes the first node even when its output is still used: leaves an invalid graph.
class BreakingPass : public GraphPass {
 public:
  const char* name() const override { return "Breaking"; }
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    model.graph->RemoveNode(model.graph->nodes()[0]);
    return true;
  }
};

class OpsetProbe : public GraphPass {
 public:
  const char* name() const override { return "OpsetProbe"; }
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    seen = ctx.OpsetFor("");
    option = ctx.Option("ge.exec.disableReuseMemory", "unset");
    return false;
  }
  int64_t seen = 0;
  std::string option;
};

const char* kModel = R"(opset "" 13
graph g(%c: bool[], %x: float32[2]) {
  n: %a = Neg(%x)
  if: %y = If(%c)
    then_branch = graph then_g() {
      t: %t = Relu(%a)
      return %t
    }
    else_branch = graph else_g() {
      return %a
    }
  return %y
})";

TEST(PassManager, RunsInOrderRecursesAndCounts) {
  auto m = Parse(kModel);
  ASSERT_TRUE(m);
  std::vector<std::string> visited;
  PassManager pm;
  pm.Add(std::make_unique<CountingPass>(1, &visited));
  auto probe = std::make_unique<OpsetProbe>();
  OpsetProbe* p = probe.get();
  pm.Add(std::move(probe));
  PassContext ctx;
  ctx.options["ge.exec.disableReuseMemory"] = "1";
  ASSERT_TRUE(pm.Run(*m, ctx).ok());
  EXPECT_EQ(visited, (std::vector<std::string>{"g", "then_g", "else_g"}));
  EXPECT_EQ(p->seen, 13);  // from the model when the context names no opsets
  EXPECT_EQ(p->option, "1");
  ASSERT_EQ(pm.stats().size(), 2u);
  EXPECT_EQ(pm.stats()[0].name, "Counting");
  EXPECT_EQ(pm.stats()[0].runs, 1);
  EXPECT_EQ(pm.stats()[0].changes, 1);
  EXPECT_NE(pm.StatsText().find("Counting: runs=1 changed=1"), std::string::npos) << pm.StatsText();
}

TEST(PassManager, FixedPointIsBounded) {
  auto m = Parse(kModel);
  ASSERT_TRUE(m);
  std::vector<std::string> visited;
  PassManager pm;
  pm.Add(std::make_unique<CountingPass>(3, &visited));
  ASSERT_TRUE(pm.RunToFixedPoint(*m, {}).ok());
  EXPECT_EQ(pm.stats()[0].runs, 4);  // three changing rounds and one quiet one
  PassManager never;
  never.Add(std::make_unique<CountingPass>(100, &visited));
  Status s = never.RunToFixedPoint(*m, {}, 5);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(never.stats()[0].runs, 5);
}

TEST(PassManager, ErrorsNameThePass) {
  auto m = Parse(kModel);
  ASSERT_TRUE(m);
  PassManager pm;
  pm.Add(std::make_unique<FailingPass>());
  Status s = pm.Run(*m, {});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "pass Failing: boom");

  m = Parse(R"(opset "" 13
graph g(%x: float32[2]) {
  n: %a = Neg(%x)
  e: %y = Exp(%a)
  return %y
})");
  ASSERT_TRUE(m);
  PassManager broken;
  broken.Add(std::make_unique<BreakingPass>());
  PassContext ctx;
  ctx.validate = true;
  s = broken.Run(*m, ctx);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("pass Breaking left an invalid graph"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ge::compiler
