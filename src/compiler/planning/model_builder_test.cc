#include "compiler/planning/model_builder.h"

#include <gtest/gtest.h>

#include "compiler/planning/buffer_lifetimes.h"
#include "compiler/passes/passes.h"
#include "ir/text_parser.h"
#include "kernels/builtin_engines.h"

namespace ge::compiler {
namespace {

std::unique_ptr<ir::Model> Prepared(const std::string& text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  PassContext ctx;
  ctx.engines = kernels::BuiltinEngines();
  Status s = RunPreparePipeline(**m, ctx);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return std::move(*m);
}

int CountTasks(const CompiledModel& cm, proto::TaskDefProto::Type type) {
  int n = 0;
  for (const auto& t : cm.tasks.tasks()) n += t.type() == type;
  return n;
}

TEST(ModelBuilderTest, ChainPlacementsTasksAndInPlace) {
  auto m = Prepared(R"(
opset "" 17
graph chain(%x: float32[8,64]) {
  a: %a = Relu(%x)
  b: %b = Neg(%a)
  c: %c = Abs(%b)
  d: %d = Softmax(%c) {axis=1}
  e: %e = Neg(%d)
  return %e
})");
  auto cm = BuildStaticModel(*m, BuildOptions());
  ASSERT_TRUE(cm.ok()) << cm.status().ToString();
  EXPECT_EQ(CountTasks(*cm, proto::TaskDefProto::KERNEL), 5);
  EXPECT_EQ(CountTasks(*cm, proto::TaskDefProto::END_GRAPH), 1);
  EXPECT_EQ(cm->tasks.tasks(cm->tasks.tasks_size() - 1).type(), proto::TaskDefProto::END_GRAPH);
  EXPECT_EQ(cm->def.num_streams(), 1);
  int inputs = 0, outputs = 0, fm = 0;
  for (const auto& p : cm->def.placements()) {
    inputs += p.segment() == proto::SEG_INPUT;
    outputs += p.segment() == proto::SEG_OUTPUT;
    fm += p.segment() == proto::SEG_FEATURE_MAP;
  }
  EXPECT_EQ(inputs, 1);
  EXPECT_EQ(outputs, 1);
  EXPECT_EQ(fm, 4);
  // Relu's output cannot overwrite the graph input; Neg and Abs run in place over it; Softmax is not element-wise.
  EXPECT_EQ(cm->def.memory().inplace_pairs(), 2u);
  EXPECT_LE(cm->def.memory().feature_map_bytes(), cm->def.memory().feature_map_lower_bound_bytes());
  EXPECT_EQ(cm->def.memory().feature_map_bytes(), 2u * 8 * 64 * 4);
}

TEST(ModelBuilderTest, OutputsThatAreInputsConstantsOrRepeatedAreCopied) {
  auto m = Prepared(R"(
opset "" 17
graph g(%x: float32[4]) {
  const %k: float32[2] = [1, 2]
  r: %r = Relu(%x)
  return %r, %x, %r, %k
})");
  auto cm = BuildStaticModel(*m, BuildOptions());
  ASSERT_TRUE(cm.ok()) << cm.status().ToString();
  EXPECT_EQ(CountTasks(*cm, proto::TaskDefProto::MEMCPY), 3);
  EXPECT_EQ(cm->def.outputs_size(), 4);
}

TEST(ModelBuilderTest, BlockersNameTheProblem) {
  auto dyn = ir::ParseModelText(R"(
opset "" 17
graph g(%x: float32[?,4]) {
  r: %r = Relu(%x)
  return %r
})");
  ASSERT_TRUE(dyn.ok());
  EXPECT_NE(StaticModelBlocker(**dyn).find("unknown dims"), std::string::npos) << StaticModelBlocker(**dyn);
  auto seq = ir::ParseModelText(R"(
opset "" 17
graph g(%x: float32[4]) {
  s: %s = SequenceConstruct(%x)
  n: %n = SequenceLength(%s)
  return %n
})");
  ASSERT_TRUE(seq.ok());
  EXPECT_FALSE(StaticModelBlocker(**seq).empty());
  EXPECT_EQ(BuildStaticModel(**seq, BuildOptions()).status().code(), StatusCode::kFailedPrecondition);
}

// Buffers written on one stream while another stream may still read the same range would race: the vector-clock
// lifetimes must keep the branches of a fork apart in memory.
TEST(ModelBuilderTest, ParallelBranchesNeverShareMemory) {
  auto m = Prepared(R"(
opset "" 17
graph g(%x: float32[64,64]) {
  s: %s = Relu(%x)
  a1: %a1 = Sigmoid(%s)
  a2: %a2 = Tanh(%a1)
  a3: %a3 = Softmax(%a2) {axis=1}
  b1: %b1 = Softmax(%s) {axis=0}
  b2: %b2 = Exp(%b1)
  b3: %b3 = Softmax(%b2) {axis=1}
  y: %y = Add(%a3, %b3)
  return %y
})");
  const ir::Graph& g = *m->graph;
  auto topo = g.TopologicalOrder().value();
  std::vector<const ir::Node*> order(topo.begin(), topo.end());
  StreamAllocOptions so;
  so.max_streams = 2;
  auto plan = AllocateStreams(g, order, so).value();
  ASSERT_EQ(plan.num_streams, 2);
  auto fm = CollectFeatureMapBuffers(g, order, plan).value();
  auto mem = PlanMemory(fm.buffers).value();
  for (size_t i = 0; i < fm.buffers.size(); ++i) {
    for (size_t j = i + 1; j < fm.buffers.size(); ++j) {
      const ir::Node* pi = fm.values[i]->producer();
      const ir::Node* pj = fm.values[j]->producer();
      if (plan.StreamOf(pi) == plan.StreamOf(pj) || pi->op_type() == "Relu" || pj->op_type() == "Relu") continue;
      const bool disjoint = mem.offsets[i] + mem.aligned_sizes[i] <= mem.offsets[j] ||
                            mem.offsets[j] + mem.aligned_sizes[j] <= mem.offsets[i];
      EXPECT_TRUE(disjoint) << fm.values[i]->name() << " and " << fm.values[j]->name() << " share memory";
    }
  }
}

}  // namespace
}  // namespace ge::compiler
