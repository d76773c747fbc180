#include "compiler/planning/model_builder.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

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

// Built, then the external-weights pass (ge.externalWeight=2) turns the 128-byte constant %w into a FileConstant
// output; the 4-byte %b stays inline.
class FileConstantsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "ge_model_builder_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    model_ = Prepared(R"(
opset "" 17
graph g(%x: float32[32]) {
  const %w: float32[32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                           16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
  const %b: float32[1] = [0.5]
  m: %m = Mul(%x, %w)
  a: %a = Add(%m, %b)
  return %a
})");
    auto cm = BuildStaticModel(*model_, BuildOptions());
    ASSERT_TRUE(cm.ok()) << cm.status().ToString();
    cm_ = std::move(*cm);
    ExternalWeightsOptions o;
    o.mode = 2;
    o.om_dir = dir_;
    o.directory = dir_;
    o.combined_file_name = "g_weight_combined";
    PassManager files;
    files.Add(CreateExternalWeightsPass(o, &report_));
    ASSERT_TRUE(files.Run(*model_, PassContext()).ok());
    ASSERT_EQ(report_.tensors, 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  int ValueIndex(const std::string& name) const {
    const std::vector<ir::Value*> values = model_->graph->values();
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]->name() == name) return static_cast<int>(i);
    }
    return -1;
  }

  std::string dir_;
  std::unique_ptr<ir::Model> model_;
  CompiledModel cm_;
  ExternalWeightsReport report_;
};

TEST_F(FileConstantsTest, ExternalConstantsArePlacedAsFileConstantsAndLeaveTheWeights) {
  ASSERT_GE(cm_.weights.size(), 128u);
  Status s = UpdateForFileConstants(*model_, &cm_);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const int w = ValueIndex("w"), b = ValueIndex("b");
  ASSERT_GE(w, 0);
  ASSERT_GE(b, 0);
  const proto::PlacementProto& pw = cm_.def.placements(w);
  EXPECT_EQ(pw.value(), w);
  EXPECT_EQ(pw.segment(), proto::SEG_FILE_CONSTANT);
  EXPECT_EQ(pw.offset(), 0u);
  EXPECT_EQ(pw.size(), 128u);
  EXPECT_EQ(cm_.def.placements(b).segment(), proto::SEG_CONSTANT);
  EXPECT_EQ(cm_.def.memory().external_weights_bytes(), 128u);
  EXPECT_TRUE(cm_.weights.empty());  // %w was the only constant in WEIGHTS_DATA
  EXPECT_EQ(cm_.def.memory().weights_bytes(), cm_.weights.size());
  int file_constants = 0;
  for (const auto& n : cm_.def.ir().graph().nodes()) file_constants += n.op_type() == "FileConstant";
  EXPECT_EQ(file_constants, 1);
}

TEST_F(FileConstantsTest, FileConstantOutputNotPlannedAsConstantIsNamedInTheError) {
  const int w = ValueIndex("w");
  ASSERT_GT(w, 0);
  cm_.def.mutable_placements(w)->set_segment(proto::SEG_FEATURE_MAP);
  Status s = UpdateForFileConstants(*model_, &cm_);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("FileConstant output 'w' was not planned as a constant"), std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace ge::compiler
