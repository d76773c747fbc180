// StreamExecutor: one instance per stream made on first use, executions of one stream serialized while different
// streams run at the same time on their own graph instances, a bound with least-recently-used eviction, Erase.
#include "runtime/v2/stream_executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace ge::runtime::v2 {
namespace {

// The test model: input -> AddOne -> Check(instance not in use by another execution) -> output.
struct Busy {  // node data is const: the counters are mutable
  mutable std::atomic<int> in_use{0};
  mutable std::atomic<int> overlaps{0};
};

KernelStatus AddOne(KernelContext* c) {
  c->output(0).SetValue<int64_t>(c->input(0).GetValue<int64_t>() + 1);
  return kStatusSuccess;
}

KernelStatus CheckExclusive(KernelContext* c) {
  const Busy* busy = &c->data<Busy>();
  if (busy->in_use.fetch_add(1) != 0) busy->overlaps.fetch_add(1);
  std::this_thread::yield();
  c->output(0).SetValue<int64_t>(c->input(0).GetValue<int64_t>() * 2);
  busy->in_use.fetch_sub(1);
  return kStatusSuccess;
}

struct Model {
  std::atomic<int> made{0};
  ExecutorKind kind = ExecutorKind::kSequential;
  StatusOr<std::unique_ptr<StreamInstance>> Make() {
    ++made;
    auto inst = std::make_unique<StreamInstance>();
    inst->graph = std::make_unique<ExecuteGraph>();
    inst->exec = std::make_unique<ExecutionState>();
    ExecuteGraph& g = *inst->graph;
    const uint32_t in = g.AddGraphInput();
    const uint32_t a = g.AddNode(AddOne, "add", {{ChainRef::kGraphInput, in}}, 1);
    const uint32_t b = g.AddNode(CheckExclusive, "check", {{a, 0}}, 1, std::make_shared<Busy>());
    g.AddGraphOutput({b, 0});
    GE_ASSIGN_OR_RETURN(inst->executor, CreateExecutor(kind, inst->graph.get(), inst->exec.get()));
    return inst;
  }
  StreamInstanceFactory Factory() {
    return [this] { return Make(); };
  }
};

const Busy& BusyOf(StreamInstance& inst) { return inst.graph->node(1).ctx.data<Busy>(); }

int64_t RunOn(StreamInstance& inst, int64_t x) {
  inst.graph->graph_input(0).SetValue<int64_t>(x);
  if (!inst.executor->Run().ok()) return -1;
  return inst.graph->graph_output(0).GetValue<int64_t>();
}

TEST(StreamExecutor, OneInstancePerStreamMadeOnFirstUse) {
  Model model;
  StreamExecutor se(model.Factory(), 8);
  int s1 = 0, s2 = 0;  // any distinct addresses serve as streams
  StreamInstance* first = nullptr;
  {
    auto lease = se.Acquire(&s1);
    ASSERT_TRUE(lease.ok()) << lease.status().ToString();
    first = &**lease;
    EXPECT_EQ(RunOn(**lease, 4), 10);
  }
  {
    auto lease = se.Acquire(&s1);
    ASSERT_TRUE(lease.ok());
    EXPECT_EQ(&**lease, first);
  }
  {
    auto lease = se.Acquire(&s2);
    ASSERT_TRUE(lease.ok());
    EXPECT_NE(&**lease, first);
    auto null_stream = se.Acquire(nullptr);  // another stream: not blocked by s2's lease
    ASSERT_TRUE(null_stream.ok());
    EXPECT_NE(&**null_stream, &**lease);
  }
  EXPECT_EQ(model.made.load(), 3);
  EXPECT_EQ(se.size(), 3u);
}

TEST(StreamExecutor, ManyThreadsOnFewStreamsGetTheirOwnResultsAndEachStreamRunsSerially) {
  for (ExecutorKind kind : {ExecutorKind::kSequential, ExecutorKind::kMultiThread}) {
    Model model;
    model.kind = kind;
    StreamExecutor se(model.Factory(), 4);
    int streams[3];
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t) {  // two threads per stream
      threads.emplace_back([&, t] {
        for (int i = 0; i < 200; ++i) {
          auto lease = se.Acquire(&streams[t % 3]);
          if (!lease.ok() || RunOn(**lease, i) != 2 * (i + 1)) ++wrong;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_EQ(se.size(), 3u);
    EXPECT_GE(model.made.load(), 3);  // a race on first use may make (and drop) an extra one
    for (int& s : streams) {
      auto lease = se.Acquire(&s);
      ASSERT_TRUE(lease.ok());
      EXPECT_EQ(BusyOf(**lease).overlaps.load(), 0);
    }
  }
}

TEST(StreamExecutor, BoundEvictsTheLeastRecentlyUsedIdleInstance) {
  Model model;
  StreamExecutor se(model.Factory(), 2);
  int a = 0, b = 0, c = 0;
  ASSERT_TRUE(se.Acquire(&a).ok());
  ASSERT_TRUE(se.Acquire(&b).ok());
  ASSERT_TRUE(se.Acquire(&a).ok());  // b is now the least recently used
  ASSERT_TRUE(se.Acquire(&c).ok());
  EXPECT_EQ(se.size(), 2u);
  EXPECT_EQ(model.made.load(), 3);
  ASSERT_TRUE(se.Acquire(&a).ok());  // kept
  EXPECT_EQ(model.made.load(), 3);
  ASSERT_TRUE(se.Acquire(&b).ok());  // made again, evicting c
  EXPECT_EQ(model.made.load(), 4);
  {
    auto la = se.Acquire(&a);
    auto lb = se.Acquire(&b);
    ASSERT_TRUE(la.ok() && lb.ok());
    auto lc = se.Acquire(&c);  // both kept instances are leased
    EXPECT_EQ(lc.status().code(), StatusCode::kResourceExhausted);
  }
  EXPECT_TRUE(se.Acquire(&c).ok());
}

TEST(StreamExecutor, EraseWaitsForTheLeaseAndTheNextUseMakesANewInstance) {
  Model model;
  StreamExecutor se(model.Factory(), 4);
  int s = 0;
  EXPECT_FALSE(se.Erase(&s));
  std::atomic<bool> erased{false};
  std::thread eraser;
  {
    auto lease = se.Acquire(&s);
    ASSERT_TRUE(lease.ok());
    eraser = std::thread([&] {
      EXPECT_TRUE(se.Erase(&s));
      erased = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // gives Erase a chance to run early (a bug)
    EXPECT_FALSE(erased.load());
    EXPECT_EQ(RunOn(**lease, 1), 4);  // the instance is still alive and usable
  }
  eraser.join();
  EXPECT_TRUE(erased.load());
  EXPECT_EQ(se.size(), 0u);
  ASSERT_TRUE(se.Acquire(&s).ok());
  EXPECT_EQ(model.made.load(), 2);
}

TEST(StreamExecutor, FactoryErrorsReachTheCaller) {
  StreamExecutor failing([]() -> StatusOr<std::unique_ptr<StreamInstance>> { return ResourceExhausted("no memory"); },
                         4);
  int s = 0;
  EXPECT_EQ(failing.Acquire(&s).status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(failing.size(), 0u);
  StreamExecutor empty([]() -> StatusOr<std::unique_ptr<StreamInstance>> { return std::make_unique<StreamInstance>(); },
                       4);
  EXPECT_EQ(empty.Acquire(&s).status().code(), StatusCode::kInvalidArgument);
  StreamExecutor none(nullptr, 4);
  EXPECT_EQ(none.Acquire(&s).status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ge::runtime::v2
