// The single-thread topological executors and the plan they share: same values as the sequential executor, every
// data and control edge respected, FIFO and priority order observed, the first failure stops the run and the next
// run starts from fresh in-degrees; malformed graphs are rejected at creation.
#include "runtime/v2/topological_executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <random>
#include <utility>

#include "runtime/v2/exec_plan.h"
#include "runtime/v2/executor_test_graphs.h"

namespace ge::runtime::v2 {
namespace {

using testing::BuildRandomDag;
using testing::ProbeGraph;

// Node ids in the order they started.
std::vector<uint32_t> StartOrder(const ProbeGraph& g) {
  std::vector<uint32_t> ran;
  for (uint32_t i = 0; i < g.size(); ++i) {
    if (g.probe().Ran(i)) ran.push_back(i);
  }
  const std::vector<uint64_t>& start = g.probe().start;
  std::sort(ran.begin(), ran.end(), [&](uint32_t a, uint32_t b) { return start[a] < start[b]; });
  return ran;
}

std::unique_ptr<Executor> Make(ExecutorKind kind, ProbeGraph& g, ExecutionState* exec) {
  auto ex = CreateExecutor(kind, &g.graph(), exec);
  EXPECT_TRUE(ex.ok()) << ex.status().ToString();
  return ex.ok() ? std::move(*ex) : nullptr;
}

class TopologicalTest : public ::testing::TestWithParam<ExecutorKind> {};

TEST_P(TopologicalTest, DiamondGivesTheSequentialValues) {
  ProbeGraph ref, g;
  for (ProbeGraph* p : {&ref, &g}) {
    const uint32_t a = p->Add({ProbeGraph::kInput});
    const uint32_t b = p->Add({a});
    const uint32_t c = p->Add({a});
    p->Output(p->Add({b, c}));
  }
  ExecutionState se, e;
  auto seq = Make(ExecutorKind::kSequential, ref, &se);
  auto ex = Make(GetParam(), g, &e);
  ASSERT_TRUE(seq && ex);
  for (uint64_t x : {0ull, 7ull, 123456789ull}) {
    ref.SetInput(x);
    g.SetInput(x);
    ASSERT_TRUE(seq->Run().ok());
    ASSERT_TRUE(ex->Run().ok());
    EXPECT_EQ(g.Outputs(), ref.Outputs());
    EXPECT_EQ(g.OrderViolation(), "");
  }
}

TEST_P(TopologicalTest, RandomDagsRepeatedRunsMatchSequentialAndRespectEveryEdge) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    ProbeGraph ref, g;
    BuildRandomDag(&ref, 300, seed);
    BuildRandomDag(&g, 300, seed);
    ExecutionState se, e;
    auto seq = Make(ExecutorKind::kSequential, ref, &se);
    auto ex = Make(GetParam(), g, &e);
    ASSERT_TRUE(seq && ex);
    for (uint64_t run = 0; run < 5; ++run) {  // in-degrees must come back from the backup every run
      ref.SetInput(run * 31 + seed);
      g.SetInput(run * 31 + seed);
      ASSERT_TRUE(seq->Run().ok());
      ASSERT_TRUE(ex->Run().ok());
      ASSERT_EQ(g.Outputs(), ref.Outputs()) << "seed " << seed << " run " << run;
      ASSERT_EQ(g.OrderViolation(), "") << "seed " << seed;
      ASSERT_EQ(StartOrder(g).size(), g.size());
    }
  }
}

TEST_P(TopologicalTest, LongChainAndWideFanOut) {
  ProbeGraph chain, wide;
  uint32_t last = chain.Add({ProbeGraph::kInput});
  for (int i = 1; i < 10000; ++i) last = chain.Add({last});
  chain.Output(last);
  const uint32_t root = wide.Add({ProbeGraph::kInput});
  std::vector<uint32_t> leaves;
  for (int i = 0; i < 5000; ++i) leaves.push_back(wide.Add({root}));
  wide.Output(wide.Add(leaves));
  for (ProbeGraph* g : {&chain, &wide}) {
    ExecutionState e;
    auto ex = Make(GetParam(), *g, &e);
    ASSERT_TRUE(ex);
    for (int run = 0; run < 3; ++run) {
      g->SetInput(run);
      ASSERT_TRUE(ex->Run().ok());
      EXPECT_EQ(StartOrder(*g).size(), g->size());
      EXPECT_EQ(g->OrderViolation(), "");
    }
  }
}

TEST_P(TopologicalTest, ControlEdgesOrderNodesWithoutData) {
  // b and c read only the input; control edges force c -> b -> a although a was added first.
  ProbeGraph g;
  const uint32_t a = g.Add({ProbeGraph::kInput});
  const uint32_t b = g.Add({ProbeGraph::kInput});
  const uint32_t c = g.Add({ProbeGraph::kInput});
  g.Control(c, b);
  g.Control(b, a);
  g.Control(c, b);  // a repeated edge counts once
  ExecutionState e;
  // Nodes are not in topological order by index here, so the sequential executor would be wrong; these are not.
  auto ex = Make(GetParam(), g, &e);
  ASSERT_TRUE(ex);
  g.SetInput(1);
  ASSERT_TRUE(ex->Run().ok());
  EXPECT_EQ(StartOrder(g), (std::vector<uint32_t>{c, b, a}));
}

TEST_P(TopologicalTest, FailureMidGraphStopsTheRunAndTheNextRunStartsFresh) {
  // in -> a -> b(fails) -> c -> d, and a -> e -> f: e becomes ready with b, so it may run, but c and d never do.
  ProbeGraph g;
  const uint32_t a = g.Add({ProbeGraph::kInput});
  const uint32_t b = g.Add({a});
  const uint32_t c = g.Add({b});
  const uint32_t d = g.Add({c});
  g.Output(d);
  g.Output(g.Add({g.Add({a})}));
  ExecutionState exec;
  auto ex = Make(GetParam(), g, &exec);
  ASSERT_TRUE(ex);
  g.SetInput(3);
  g.probe().fail_node = b;
  Status s = ex->Run();
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("node n1"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("probe failure"), std::string::npos) << s.ToString();
  EXPECT_TRUE(g.probe().Ran(a));
  EXPECT_FALSE(g.probe().Ran(c));
  EXPECT_FALSE(g.probe().Ran(d));
  g.probe().fail_node = ~0u;
  g.SetInput(3);
  ASSERT_TRUE(ex->Run().ok());
  EXPECT_EQ(StartOrder(g).size(), g.size());
  EXPECT_EQ(g.OrderViolation(), "");
}

INSTANTIATE_TEST_SUITE_P(Executors, TopologicalTest,
                         ::testing::Values(ExecutorKind::kTopological, ExecutorKind::kPriority),
                         [](const ::testing::TestParamInfo<ExecutorKind>& info) {
                           return info.param == ExecutorKind::kTopological ? std::string("Topological")
                                                                           : std::string("Priority");
                         });

TEST(TopologicalExecutor, ReadyNodesRunInTheOrderTheyBecameReady) {
  // root -> {x, y}; x -> z: FIFO runs root, x, y, z (z became ready after y).
  ProbeGraph g;
  const uint32_t root = g.Add({ProbeGraph::kInput});
  const uint32_t x = g.Add({root});
  const uint32_t y = g.Add({root});
  const uint32_t z = g.Add({x}, CriticalSection::kLaunch, /*priority=*/10);
  ExecutionState e;
  auto ex = Make(ExecutorKind::kTopological, g, &e);
  ASSERT_TRUE(ex);
  g.SetInput(0);
  ASSERT_TRUE(ex->Run().ok());
  EXPECT_EQ(StartOrder(g), (std::vector<uint32_t>{root, x, y, z}));
}

TEST(PriorityExecutor, ReadyNodesRunByPriorityThenIndex) {
  // root -> {a(1), b(5), c(5), d(-3), m(INT_MIN), M(INT_MAX)}; a -> z(10): once a has run, z beats the rest.
  ProbeGraph g;
  const uint32_t root = g.Add({ProbeGraph::kInput});
  const uint32_t a = g.Add({root}, CriticalSection::kLaunch, 1);
  const uint32_t b = g.Add({root}, CriticalSection::kLaunch, 5);
  const uint32_t c = g.Add({root}, CriticalSection::kLaunch, 5);
  const uint32_t d = g.Add({root}, CriticalSection::kLaunch, -3);
  const uint32_t lo = g.Add({root}, CriticalSection::kLaunch, INT_MIN);
  const uint32_t hi = g.Add({root}, CriticalSection::kLaunch, INT_MAX);
  const uint32_t z = g.Add({a}, CriticalSection::kLaunch, 10);
  ExecutionState e;
  auto ex = Make(ExecutorKind::kPriority, g, &e);
  ASSERT_TRUE(ex);
  for (int run = 0; run < 2; ++run) {
    g.SetInput(run);
    ASSERT_TRUE(ex->Run().ok());
    EXPECT_EQ(StartOrder(g), (std::vector<uint32_t>{root, hi, b, c, a, z, d, lo}));
  }
}

TEST(PriorityExecutor, RootsAreOrderedToo) {
  ProbeGraph g;
  const uint32_t a = g.Add({ProbeGraph::kInput}, CriticalSection::kLaunch, 0);
  const uint32_t b = g.Add({ProbeGraph::kInput}, CriticalSection::kLaunch, 2);
  const uint32_t c = g.Add({ProbeGraph::kInput}, CriticalSection::kLaunch, 1);
  ExecutionState e;
  auto ex = Make(ExecutorKind::kPriority, g, &e);
  ASSERT_TRUE(ex);
  g.SetInput(0);
  ASSERT_TRUE(ex->Run().ok());
  EXPECT_EQ(StartOrder(g), (std::vector<uint32_t>{b, c, a}));
}

TEST(PriorityExecutor, ThousandsOfReadyNodesComeOutInOrder) {
  // 5,000 ready at once (three levels of the ready bitset), priorities in [-50, 50].
  ProbeGraph g;
  const uint32_t root = g.Add({ProbeGraph::kInput});
  std::mt19937 rng(3);
  std::vector<std::pair<int, uint32_t>> expected;  // (-priority, index) sorts into the expected order
  for (int i = 0; i < 5000; ++i) {
    const int prio = static_cast<int>(rng() % 101) - 50;
    expected.emplace_back(-prio, g.Add({root}, CriticalSection::kLaunch, prio));
  }
  std::sort(expected.begin(), expected.end());
  std::vector<uint32_t> order = {root};
  for (const auto& e : expected) order.push_back(e.second);
  ExecutionState e;
  auto ex = Make(ExecutorKind::kPriority, g, &e);
  ASSERT_TRUE(ex);
  for (int run = 0; run < 2; ++run) {
    g.SetInput(run);
    ASSERT_TRUE(ex->Run().ok());
    EXPECT_EQ(StartOrder(g), order);
  }
}

TEST(PriorityExecutor, RandomDagsFollowTheReferenceSchedule) {
  // Reference: repeatedly run the ready node with the highest (priority, -index).
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    ProbeGraph g;
    BuildRandomDag(&g, 500, seed);
    const ExecuteGraph& eg = g.graph();
    std::vector<uint32_t> degree(g.size()), expected;
    for (uint32_t i = 0; i < g.size(); ++i) degree[i] = eg.node(i).in_degree;
    std::vector<bool> ready(g.size()), done(g.size());
    for (uint32_t i = 0; i < g.size(); ++i) ready[i] = degree[i] == 0;
    while (expected.size() < g.size()) {
      uint32_t best = ~0u;
      for (uint32_t i = 0; i < g.size(); ++i) {
        if (ready[i] && !done[i] && (best == ~0u || eg.node(i).priority > eg.node(best).priority)) best = i;
      }
      ASSERT_NE(best, ~0u);
      done[best] = true;
      expected.push_back(best);
      for (uint32_t c : eg.node(best).consumers) ready[c] = --degree[c] == 0;
    }
    ExecutionState e;
    auto ex = Make(ExecutorKind::kPriority, g, &e);
    ASSERT_TRUE(ex);
    g.SetInput(seed);
    ASSERT_TRUE(ex->Run().ok());
    EXPECT_EQ(StartOrder(g), expected) << "seed " << seed;
  }
}

TEST(ExecPlan, RejectsCyclesBadInDegreesAndMissingKernels) {
  {
    ProbeGraph g;
    const uint32_t a = g.Add({ProbeGraph::kInput});
    const uint32_t b = g.Add({a});
    g.Control(b, a);
    for (ExecutorKind k : {ExecutorKind::kTopological, ExecutorKind::kPriority, ExecutorKind::kMultiThread}) {
      ExecutionState e;
      auto ex = CreateExecutor(k, &g.graph(), &e);
      ASSERT_FALSE(ex.ok());
      EXPECT_EQ(ex.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(ex.status().message().find("cycle"), std::string::npos) << ex.status().ToString();
    }
  }
  {  // the error names a node of the cycle, not the first node of the graph
    ProbeGraph g;
    const uint32_t a = g.Add({ProbeGraph::kInput});
    const uint32_t b = g.Add({a});
    const uint32_t c = g.Add({b});
    g.Control(c, b);
    auto plan = BuildExecPlan(g.graph());
    ASSERT_FALSE(plan.ok());
    const std::string& m = plan.status().message();
    EXPECT_TRUE(m.find("'n1'") != std::string::npos || m.find("'n2'") != std::string::npos) << m;
    EXPECT_EQ(m.find("'n0'"), std::string::npos) << m;
  }
  {
    ProbeGraph g;
    const uint32_t a = g.Add({ProbeGraph::kInput});
    g.Add({a});
    g.graph().node(1).in_degree = 2;
    auto plan = BuildExecPlan(g.graph());
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.status().message().find("'n1' has in-degree 2"), std::string::npos) << plan.status().ToString();
  }
  {
    ProbeGraph g;
    const uint32_t a = g.Add({ProbeGraph::kInput});
    g.graph().node(a).consumers.push_back(7);
    auto plan = BuildExecPlan(g.graph());
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.status().message().find("bad consumer"), std::string::npos) << plan.status().ToString();
  }
  {
    ProbeGraph g;
    g.Add({ProbeGraph::kInput});
    g.graph().node(0).fn = nullptr;
    EXPECT_FALSE(BuildExecPlan(g.graph()).ok());
  }
}

TEST(ExecPlan, FlattensConsumersAndRoots) {
  ProbeGraph g;
  const uint32_t a = g.Add({ProbeGraph::kInput});
  const uint32_t b = g.Add({ProbeGraph::kInput});
  const uint32_t c = g.Add({a, b});
  g.Control(a, b);
  auto plan = BuildExecPlan(g.graph());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->roots, (std::vector<uint32_t>{a}));
  EXPECT_EQ(plan->in_degree, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(plan->edge_begin, (std::vector<uint32_t>{0, 2, 3, 3}));
  EXPECT_EQ(plan->edges, (std::vector<uint32_t>{c, b, c}));
}

TEST(Executors, EmptyGraphRunsAndKindsParse) {
  for (ExecutorKind k :
       {ExecutorKind::kSequential, ExecutorKind::kTopological, ExecutorKind::kPriority, ExecutorKind::kMultiThread}) {
    ExecuteGraph g;
    ExecutionState e;
    auto ex = CreateExecutor(k, &g, &e);
    ASSERT_TRUE(ex.ok()) << ex.status().ToString();
    EXPECT_TRUE((*ex)->Run().ok());
  }
  EXPECT_EQ(ParseExecutorKind("priority").value(), ExecutorKind::kPriority);
  EXPECT_EQ(ParseExecutorKind("multi_thread").value(), ExecutorKind::kMultiThread);
  EXPECT_FALSE(ParseExecutorKind("parallel").ok());
}

}  // namespace
}  // namespace ge::runtime::v2
