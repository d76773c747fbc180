#include "compiler/planning/stream_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ir/text_parser.h"

namespace ge::compiler {
namespace {

struct Fixture {
  std::unique_ptr<ir::Graph> graph;
  std::vector<const ir::Node*> order;
};

Fixture Parse(const std::string& text) {
  Fixture f;
  auto g = ir::ParseGraphText(text);
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  if (!g.ok()) return f;
  f.graph = std::move(g).value();
  auto order = f.graph->TopologicalOrder();
  EXPECT_TRUE(order.ok()) << order.status().ToString();
  if (order.ok()) f.order.assign(order->begin(), order->end());
  return f;
}

StreamPlan Allocate(const Fixture& f, const StreamAllocOptions& options = {}) {
  auto plan = AllocateStreams(*f.graph, f.order, options);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return {};
  Status verified = VerifyStreamPlan(*f.graph, f.order, *plan);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  return std::move(plan).value();
}

std::vector<std::string> Events(const StreamPlan& plan) {
  std::vector<std::string> out;
  for (const StreamEvent& e : plan.events) out.push_back(e.record_node->name() + "->" + e.wait_node->name());
  return out;
}

std::vector<std::string> Stream(const StreamPlan& plan, int s) {
  std::vector<std::string> out;
  for (const ir::Node* n : plan.stream_nodes[s]) out.push_back(n->name());
  return out;
}

using Names = std::vector<std::string>;

const char* kInception = R"(
graph inception(%x: float32[1,8,4,4]) {
  stem: %s: float32[1,8,4,4] = Relu(%x)
  b1: %b1: float32[1,8,4,4] = Conv(%s)
  b2a: %b2a: float32[1,8,4,4] = Conv(%s)
  b2b: %b2b: float32[1,8,4,4] = Conv(%b2a)
  b3a: %b3a: float32[1,8,4,4] = Conv(%s)
  b3b: %b3b: float32[1,8,4,4] = Conv(%b3a)
  b4a: %b4a: float32[1,8,4,4] = MaxPool(%s)
  b4b: %b4b: float32[1,8,4,4] = Conv(%b4a)
  cat: %y: float32[1,32,4,4] = Concat(%b1, %b2b, %b3b, %b4b)
  return %y
})";

TEST(StreamAllocator, ChainStaysOnOneStream) {
  Fixture f = Parse(R"(
graph chain(%x: float32[4]) {
  a: %a = Relu(%x)
  b: %b = Neg(%a)
  c: %c = Abs(%b)
  d: %d = Sigmoid(%c)
  return %d
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 1);
  EXPECT_TRUE(plan.events.empty());
  EXPECT_EQ(plan.num_event_ids, 0);
  EXPECT_EQ(plan.pruned_events, 0);
  EXPECT_EQ(Stream(plan, 0), (Names{"a", "b", "c", "d"}));
}

TEST(StreamAllocator, InceptionBranchesGetTheirOwnStreams) {
  Fixture f = Parse(kInception);
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 4);
  EXPECT_EQ(Stream(plan, 0), (Names{"stem", "b1", "cat"}));
  EXPECT_EQ(Stream(plan, 1), (Names{"b2a", "b2b"}));
  EXPECT_EQ(Stream(plan, 2), (Names{"b3a", "b3b"}));
  EXPECT_EQ(Stream(plan, 3), (Names{"b4a", "b4b"}));
  EXPECT_EQ(Events(plan), (Names{"stem->b2a", "stem->b3a", "stem->b4a", "b2b->cat", "b3b->cat", "b4b->cat"}));
  // One record after stem serves three waits.
  std::vector<int> ids;
  for (const StreamEvent& e : plan.events) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<int>{0, 0, 0, 1, 2, 3}));
  EXPECT_EQ(plan.num_event_ids, 4);
  EXPECT_EQ(plan.pruned_events, 0);
  EXPECT_EQ(plan.events[0].record_stream, 0);
  EXPECT_EQ(plan.events[0].wait_stream, 1);
}

TEST(StreamAllocator, InceptionOnTwoStreamsPrunesImpliedEvents) {
  Fixture f = Parse(kInception);
  StreamAllocOptions options;
  options.max_streams = 2;
  StreamPlan plan = Allocate(f, options);
  EXPECT_EQ(plan.num_streams, 2);
  EXPECT_EQ(Stream(plan, 0), (Names{"stem", "b1", "b3a", "b3b", "cat"}));
  EXPECT_EQ(Stream(plan, 1), (Names{"b2a", "b2b", "b4a", "b4b"}));
  // stream 1 already waited for stem before b2a; cat waiting for b4b covers b2b.
  EXPECT_EQ(Events(plan), (Names{"stem->b2a", "b4b->cat"}));
  EXPECT_EQ(plan.pruned_events, 2);

  options.prune_events = false;
  StreamPlan unpruned = Allocate(f, options);
  EXPECT_EQ(Events(unpruned), (Names{"stem->b2a", "stem->b4a", "b2b->cat", "b4b->cat"}));
  EXPECT_EQ(unpruned.pruned_events, 0);
}

TEST(StreamAllocator, OneStreamMeansNoEvents) {
  Fixture f = Parse(kInception);
  StreamAllocOptions options;
  options.max_streams = 1;
  StreamPlan plan = Allocate(f, options);
  EXPECT_EQ(plan.num_streams, 1);
  EXPECT_TRUE(plan.events.empty());
  EXPECT_EQ(plan.stream_nodes[0], f.order);
}

TEST(StreamAllocator, Diamond) {
  Fixture f = Parse(R"(
graph diamond(%x: float32[4]) {
  a: %a = Relu(%x)
  b: %b = Neg(%a)
  c: %c = Abs(%a)
  d: %d = Add(%b, %c)
  return %d
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 2);
  EXPECT_EQ(Stream(plan, 0), (Names{"a", "b", "d"}));
  EXPECT_EQ(Stream(plan, 1), (Names{"c"}));
  EXPECT_EQ(Events(plan), (Names{"a->c", "c->d"}));
}

TEST(StreamAllocator, AttentionProjectionsRunInParallel) {
  Fixture f = Parse(R"(
graph attention(%x: float32[8,16], %wq: float32[16,16], %wk: float32[16,16], %wv: float32[16,16]) {
  q: %q = MatMul(%x, %wq)
  k: %k = MatMul(%x, %wk)
  v: %v = MatMul(%x, %wv)
  kt: %kt = Transpose(%k)
  s: %s = MatMul(%q, %kt)
  p: %p = Softmax(%s)
  o: %o = MatMul(%p, %v)
  return %o
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 3);
  EXPECT_EQ(Stream(plan, 0), (Names{"q", "s", "p", "o"}));
  EXPECT_EQ(Stream(plan, 1), (Names{"k", "kt"}));
  EXPECT_EQ(Stream(plan, 2), (Names{"v"}));
  EXPECT_EQ(Events(plan), (Names{"kt->s", "v->o"}));
}

TEST(StreamAllocator, TransitiveWaitMakesEventRedundant) {
  // c needs a and b; b's stream already waited for a, so waiting for b covers a.
  Fixture f = Parse(R"(
graph g(%x: float32[4]) {
  a: %a = Relu(%x)
  a2: %a2 = Relu(%a)
  b: %b = Neg(%a)
  b2: %b2 = Neg(%b)
  c: %c = Add(%b, %a)
  out: %o = Concat(%a2, %b2, %c)
  return %o
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 3);
  EXPECT_EQ(Stream(plan, 2), (Names{"c"}));
  // c's clock holds b but not b2, so out still waits for both b2 and c.
  EXPECT_EQ(Events(plan), (Names{"a->b", "b->c", "b2->out", "c->out"}));
  EXPECT_EQ(plan.pruned_events, 1);
}

TEST(StreamAllocator, StreamThatAlreadyWaitedNeedsNoSecondEvent) {
  Fixture f = Parse(R"(
graph g(%x: float32[4]) {
  a: %a = Relu(%x)
  a2: %a2 = Relu(%a)
  b: %b = Neg(%a)
  c: %c = Add(%b, %a)
  out: %o = Add(%a2, %c)
  return %o
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(Stream(plan, 1), (Names{"b", "c"}));
  EXPECT_EQ(Events(plan), (Names{"a->b", "c->out"}));
  EXPECT_EQ(plan.pruned_events, 1);
}

TEST(StreamAllocator, CrossStreamControlEdgeGetsAnEvent) {
  Fixture f = Parse(R"(
graph g(%x: float32[4], %y: float32[4]) {
  a: %a = Relu(%x)
  a2: %a2 = Relu(%a)
  b: %b = Neg(%y)
  c: %c = Relu(%b) ^a2
  out: %o = Add(%a2, %c)
  return %o
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(Stream(plan, 1), (Names{"b", "c"}));
  EXPECT_EQ(Events(plan), (Names{"a2->c", "c->out"}));
}

TEST(StreamAllocator, SubgraphCapturesAreDependencies) {
  Fixture f = Parse(R"(
graph g(%x: float32[2], %cond: bool[]) {
  a: %a = Relu(%x)
  a2: %a2 = Relu(%a)
  b: %b = Neg(%x)
  if0: %y = If(%cond)
    then_branch = graph then() {
      t: %t = Identity(%b)
      return %t
    }
    else_branch = graph else() {
      e: %e = Identity(%a2)
      return %e
    }
  return %y
})");
  StreamPlan plan = Allocate(f);
  EXPECT_EQ(plan.num_streams, 2);
  EXPECT_EQ(plan.StreamOf(f.order.back()), plan.StreamOf(f.order[2]));  // if0 continues b's stream
  EXPECT_EQ(Events(plan), (Names{"a2->if0"}));
}

TEST(StreamAllocator, SmallBranchesAreNotSplitOff) {
  // Each Conv output is 512 bytes: branches 2 and 3 weigh 1024, branch 4 only 512.
  Fixture f = Parse(R"(
graph g(%x: float32[1,8,4,4]) {
  stem: %s: float32[1,8,4,4] = Relu(%x)
  b1: %b1: float32[1,8,4,4] = Conv(%s)
  b2a: %b2a: float32[1,8,4,4] = Conv(%s)
  b2b: %b2b: float32[1,8,4,4] = Conv(%b2a)
  b3a: %b3a: float32[1,8,4,4] = Conv(%s)
  b3b: %b3b: float32[1,8,4,4] = Conv(%b3a)
  b4: %b4: float32[1,8,4,4] = MaxPool(%s)
  cat: %y = Concat(%b1, %b2b, %b3b, %b4)
  return %y
})");
  StreamAllocOptions options;
  options.min_branch_work = 1000;
  StreamPlan plan = Allocate(f, options);
  EXPECT_EQ(plan.num_streams, 3);
  EXPECT_EQ(Stream(plan, 0), (Names{"stem", "b1", "b4", "cat"}));
  EXPECT_EQ(Events(plan), (Names{"stem->b2a", "stem->b3a", "b2b->cat", "b3b->cat"}));

  options.min_branch_work = 5000;
  EXPECT_EQ(Allocate(f, options).num_streams, 1);
}

TEST(StreamAllocator, RejectsBadInput) {
  Fixture f = Parse(kInception);
  StreamAllocOptions options;
  options.max_streams = 0;
  EXPECT_EQ(AllocateStreams(*f.graph, f.order, options).status().code(), StatusCode::kInvalidArgument);
  std::vector<const ir::Node*> reversed(f.order.rbegin(), f.order.rend());
  EXPECT_EQ(AllocateStreams(*f.graph, reversed).status().code(), StatusCode::kInvalidArgument);
  std::vector<const ir::Node*> missing(f.order.begin(), f.order.end() - 1);
  EXPECT_EQ(AllocateStreams(*f.graph, missing).status().code(), StatusCode::kInvalidArgument);
  std::vector<const ir::Node*> twice = f.order;
  twice.back() = twice.front();
  EXPECT_EQ(AllocateStreams(*f.graph, twice).status().code(), StatusCode::kInvalidArgument);
}

TEST(StreamAllocator, Options) {
  StreamAllocOptions options;
  EXPECT_TRUE(ApplyStreamAllocOption("ge.streamMaxParallelNum", "2", &options).ok());
  EXPECT_EQ(options.max_streams, 2);
  EXPECT_FALSE(ApplyStreamAllocOption("ge.streamMaxParallelNum", "0", &options).ok());
  EXPECT_FALSE(ApplyStreamAllocOption("ge.streamMaxParallelNum", "two", &options).ok());
  EXPECT_FALSE(ApplyStreamAllocOption("ge.streamMaxParallelNum", "", &options).ok());
  EXPECT_TRUE(ApplyStreamAllocOption("ge.other", "x", &options).ok());
  EXPECT_EQ(options.max_streams, 2);
}

TEST(VerifyStreamPlan, CatchesMissingEventDeadlockAndMalformedPlans) {
  Fixture f = Parse(kInception);
  const StreamPlan good = Allocate(f);

  StreamPlan missing = good;
  missing.events.erase(missing.events.begin() + 4);  // b3b->cat
  Status s = VerifyStreamPlan(*f.graph, f.order, missing);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("cat"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("b3b"), std::string::npos) << s.ToString();

  StreamPlan deadlock = good;  // stream 0 waits for b2b before stem, but b2a waits for stem
  deadlock.events.push_back(StreamEvent{9, deadlock.events[3].record_node, f.order[0], 1, 0});
  s = VerifyStreamPlan(*f.graph, f.order, deadlock);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("deadlock"), std::string::npos) << s.ToString();

  StreamPlan two_records = good;
  two_records.events[3].id = 0;  // b2b->cat would share stem's id
  EXPECT_EQ(VerifyStreamPlan(*f.graph, f.order, two_records).code(), StatusCode::kInvalidArgument);

  StreamPlan lost_node = good;
  lost_node.stream_nodes[2].pop_back();
  EXPECT_EQ(VerifyStreamPlan(*f.graph, f.order, lost_node).code(), StatusCode::kInvalidArgument);

  StreamPlan wrong_stream = good;
  wrong_stream.events[0].wait_stream = 2;
  EXPECT_EQ(VerifyStreamPlan(*f.graph, f.order, wrong_stream).code(), StatusCode::kInvalidArgument);
}

// A random DAG: nodes read 1-3 earlier values (or graph inputs), some have two outputs, some control inputs,
// some outputs with known shapes.
std::unique_ptr<ir::Graph> RandomGraph(std::mt19937& rng, int num_nodes) {
  auto g = std::make_unique<ir::Graph>("random");
  std::vector<ir::Value*> values = {g->AddInput("x0", TensorDesc(DataType::kFloat, Shape(Dims{4}))),
                                    g->AddInput("x1", TensorDesc(DataType::kFloat, Shape(Dims{4})))};
  std::vector<ir::Node*> nodes;
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  for (int i = 0; i < num_nodes; ++i) {
    std::vector<ir::Value*> inputs;
    const int num_inputs = 1 + static_cast<int>(pick(3));
    for (int k = 0; k < num_inputs; ++k) {
      // Favour recent values so chains form.
      size_t j = values.size() - 1 - std::min(values.size() - 1, pick(values.size()) / (1 + pick(3)));
      inputs.push_back(values[j]);
    }
    std::vector<ir::Value*> outputs;
    const int num_outputs = pick(5) == 0 ? 2 : 1;
    for (int k = 0; k < num_outputs; ++k) {
      TensorDesc desc;
      if (pick(2) == 0) desc = TensorDesc(DataType::kFloat, Shape(Dims{static_cast<int64_t>(1 + pick(64))}));
      outputs.push_back(g->AddValue("v" + std::to_string(i) + "_" + std::to_string(k), desc));
    }
    ir::Node* n = g->AddNode("Op", "n" + std::to_string(i), inputs, outputs);
    if (!nodes.empty() && pick(6) == 0) n->AddControlInput(nodes[pick(nodes.size())]);
    nodes.push_back(n);
    values.insert(values.end(), outputs.begin(), outputs.end());
  }
  g->AddOutput(values.back());
  return g;
}

// A random topological order (Kahn's algorithm picking a random ready node).
std::vector<const ir::Node*> RandomOrder(const ir::Graph& g, std::mt19937& rng) {
  std::vector<ir::Node*> nodes = g.nodes();
  std::unordered_map<const ir::Node*, std::vector<const ir::Node*>> succs;
  std::unordered_map<const ir::Node*, int> indegree;
  for (const ir::Node* n : nodes) {
    std::vector<const ir::Node*> preds;
    for (const ir::Value* v : n->inputs()) {
      if (v->producer() != nullptr) preds.push_back(v->producer());
    }
    preds.insert(preds.end(), n->control_inputs().begin(), n->control_inputs().end());
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    indegree[n] = static_cast<int>(preds.size());
    for (const ir::Node* p : preds) succs[p].push_back(n);
  }
  std::vector<const ir::Node*> ready, order;
  for (const ir::Node* n : nodes) {
    if (indegree[n] == 0) ready.push_back(n);
  }
  while (!ready.empty()) {
    size_t k = std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng);
    const ir::Node* n = ready[k];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(k));
    order.push_back(n);
    for (const ir::Node* s : succs[n]) {
      if (--indegree[s] == 0) ready.push_back(s);
    }
  }
  return order;
}

TEST(StreamAllocator, RandomGraphsVerifyAndPrunedEventsAreMinimal) {
  std::mt19937 rng(20240611);
  int total_events = 0, total_pruned = 0;
  for (int trial = 0; trial < 100; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    auto g = RandomGraph(rng, 5 + static_cast<int>(rng() % 40));
    ASSERT_TRUE(g->Validate().ok());
    const std::vector<const ir::Node*> order = RandomOrder(*g, rng);
    ASSERT_EQ(static_cast<int>(order.size()), g->num_nodes());
    StreamAllocOptions options;
    options.max_streams = 1 + static_cast<int>(rng() % 6);
    options.min_branch_work = trial % 3 == 0 ? rng() % 300 : 0;

    auto pruned = AllocateStreams(*g, order, options);
    options.prune_events = false;
    auto unpruned = AllocateStreams(*g, order, options);
    ASSERT_TRUE(pruned.ok()) << pruned.status().ToString();
    ASSERT_TRUE(unpruned.ok()) << unpruned.status().ToString();
    ASSERT_TRUE(VerifyStreamPlan(*g, order, *pruned).ok()) << VerifyStreamPlan(*g, order, *pruned).ToString();
    ASSERT_TRUE(VerifyStreamPlan(*g, order, *unpruned).ok()) << VerifyStreamPlan(*g, order, *unpruned).ToString();
    EXPECT_LE(pruned->num_streams, options.max_streams);
    EXPECT_EQ(pruned->stream_of, unpruned->stream_of);
    EXPECT_LE(pruned->events.size(), unpruned->events.size());
    EXPECT_EQ(pruned->events.size() + pruned->pruned_events, unpruned->events.size());
    if (options.max_streams == 1) {
      EXPECT_TRUE(pruned->events.empty());
    }
    total_events += static_cast<int>(pruned->events.size());
    total_pruned += pruned->pruned_events;
    // Exactness: every kept event is needed.
    for (size_t e = 0; e < pruned->events.size(); ++e) {
      StreamPlan fewer = *pruned;
      fewer.events.erase(fewer.events.begin() + static_cast<std::ptrdiff_t>(e));
      EXPECT_EQ(VerifyStreamPlan(*g, order, fewer).code(), StatusCode::kFailedPrecondition) << "event " << e;
    }
  }
  // The property checks above must not hold vacuously.
  EXPECT_GT(total_events, 100);
  EXPECT_GT(total_pruned, 100);
}

}  // namespace
}  // namespace ge::compiler
