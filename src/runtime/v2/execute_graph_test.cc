// ExecuteGraph and the sequential executor: chains flow from producers to consumers without copies, nodes run in
// order, the first failure stops the run with its node's name.
#include "runtime/v2/execute_graph.h"

#include <gtest/gtest.h>

#include "runtime/v2/executor.h"

namespace ge::runtime::v2 {
namespace {

KernelStatus AddOne(KernelContext* c) {
  c->output(0).SetValue<int64_t>(c->input(0).GetValue<int64_t>() + 1);
  return kStatusSuccess;
}
KernelStatus Sum(KernelContext* c) {
  int64_t s = 0;
  for (uint32_t i = 0; i < c->num_inputs; ++i) s += c->input(i).GetValue<int64_t>();
  c->output(0).SetValue<int64_t>(s);
  return kStatusSuccess;
}
KernelStatus FailIfNegative(KernelContext* c) {
  if (c->input(0).GetValue<int64_t>() < 0) return c->exec->SetError(InvalidArgument("negative"));
  return kStatusSuccess;
}

TEST(ExecuteGraph, SequentialRunsInOrderAndStopsAtTheFirstFailure) {
  ExecuteGraph g;
  const uint32_t in = g.AddGraphInput();
  const uint32_t a = g.AddNode(AddOne, "a", {{ChainRef::kGraphInput, in}}, 1);
  const uint32_t b = g.AddNode(AddOne, "b", {{a, 0}}, 1);
  const uint32_t s = g.AddNode(Sum, "sum", {{a, 0}, {b, 0}}, 1);
  g.AddNode(FailIfNegative, "check", {{ChainRef::kGraphInput, in}}, 0);
  g.AddGraphOutput({s, 0});
  EXPECT_EQ(g.node(a).consumers, (std::vector<uint32_t>{b, s}));
  EXPECT_EQ(g.node(s).in_degree, 2u);
  ExecutionState exec;
  auto ex = CreateExecutor(ExecutorKind::kSequential, &g, &exec);
  ASSERT_TRUE(ex.ok());
  g.graph_input(in).SetValue<int64_t>(10);
  ASSERT_TRUE((*ex)->Run().ok());
  EXPECT_EQ(g.graph_output(0).GetValue<int64_t>(), 11 + 12);
  g.graph_input(in).SetValue<int64_t>(-5);
  Status st = (*ex)->Run();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.ToString().find("check"), std::string::npos) << st.ToString();
  g.graph_input(in).SetValue<int64_t>(1);  // the error was taken: the next run succeeds
  EXPECT_TRUE((*ex)->Run().ok());
}

TEST(Chain, OwnsPointersItIsGiven) {
  static int deleted;
  deleted = 0;
  struct Counted {
    ~Counted() { ++deleted; }
  };
  {
    Chain c;
    c.SetOwned(new Counted);
    c.SetOwned(new Counted);  // the first goes
    EXPECT_EQ(deleted, 1);
    c.SetValue<int32_t>(7);  // the second goes
    EXPECT_EQ(deleted, 2);
    EXPECT_EQ(c.GetValue<int32_t>(), 7);
    c.SetOwned(new Counted);
  }
  EXPECT_EQ(deleted, 3);
}

}  // namespace
}  // namespace ge::runtime::v2
