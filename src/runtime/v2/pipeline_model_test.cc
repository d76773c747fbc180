// The pipeline of partitioned stages against one ModelV2 of the whole graph (and the interpreter through it): same
// outputs for every request of a batch, stages that overlap in time, the partition (balanced or from
// pipeline_stage attributes) and its errors.
#include "runtime/v2/pipeline_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "base/compare.h"
#include "ir/text_parser.h"

namespace ge::runtime::v2 {
namespace {

// x[?,64] -> 6 x (MatMul 64x64, Tanh), plus a skip connection from the first layer to the last Add.
std::string ChainText(bool stage_attrs, bool decreasing = false) {
  std::string t = "opset \"\" 17\ngraph g(%x: float32[?,64]) {\n";
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  std::string prev = "%x";
  for (int i = 0; i < 6; ++i) {
    t += "  const %w" + std::to_string(i) + ": float32[64,64] = [";
    for (int j = 0; j < 64 * 64; ++j) t += (j ? ", " : "") + std::to_string(u(rng));
    t += "]\n";
    const int stage = decreasing ? (i < 3 ? 1 : 0) : i / 2;
    const std::string attr = stage_attrs ? " {pipeline_stage = " + std::to_string(stage) + "}" : "";
    const std::string tanh_attr = stage_attrs ? attr : "";
    t += "  mm" + std::to_string(i) + ": %m" + std::to_string(i) + " = MatMul(" + prev + ", %w" + std::to_string(i) +
         ")" + attr + "\n";
    t += "  th" + std::to_string(i) + ": %h" + std::to_string(i) + " = Tanh(%m" + std::to_string(i) + ")" + tanh_attr +
         "\n";
    prev = "%h" + std::to_string(i);
  }
  t += std::string("  skip: %y = Add(") + prev + ", %h0)" + (stage_attrs ? " {pipeline_stage = 2}" : "") + "\n";
  t += "  return %y\n}\n";
  return t;
}

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(*m) : nullptr;
}

Tensor Random(int64_t rows, std::mt19937_64& rng) {
  Tensor t = Tensor::Create(DataType::kFloat, {rows, 64}).value();
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

void ExpectSameAsOneModel(PipelineModel& pipeline, const std::string& text, const std::vector<int64_t>& rows) {
  auto whole = ModelV2::Load(Parse(text), ModelV2Options());
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  std::mt19937_64 rng(7);
  std::vector<std::vector<Value>> requests;
  for (int64_t r : rows) requests.push_back({Value(Random(r, rng))});
  std::vector<std::vector<Value>> got;
  Status s = pipeline.ExecuteBatch(requests, &got);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(got.size(), requests.size());
  for (size_t k = 0; k < requests.size(); ++k) {
    std::vector<Value> want;
    ASSERT_TRUE((*whole)->Execute(requests[k], &want).ok());
    ASSERT_EQ(got[k].size(), 1u);
    Status c = CompareTensors(got[k][0].tensor, want[0].tensor, Tolerance{1e-6, 1e-6}, "request " + std::to_string(k));
    EXPECT_TRUE(c.ok()) << c.ToString();
  }
}

TEST(PipelineModel, BalancedStagesGiveTheSameOutputsAsOneModel) {
  for (size_t stages : {1, 2, 3, 5}) {
    SCOPED_TRACE("stages " + std::to_string(stages));
    PipelineOptions o;
    o.stages = stages;
    auto p = PipelineModel::Load(Parse(ChainText(false)), o);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_EQ((*p)->stages().size(), stages);
    size_t nodes = 0;
    for (const PipelineStageInfo& s : (*p)->stages()) {
      EXPECT_GT(s.nodes, 0u);
      nodes += s.nodes;
    }
    EXPECT_EQ(nodes, 13u);
    ExpectSameAsOneModel(**p, ChainText(false), {3, 1, 17, 3, 64, 2, 9});
    // Requests one at a time, and a second batch on the same workers.
    ExpectSameAsOneModel(**p, ChainText(false), {5});
  }
}

TEST(PipelineModel, ValuesSkipStagesWithTheirRequest) {
  PipelineOptions o;
  o.stages = 3;
  auto p = PipelineModel::Load(Parse(ChainText(false)), o);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // %h0 is made in the first stage and read by the last (the skip Add) as well as the second.
  const PipelineStageInfo& last = (*p)->stages().back();
  EXPECT_NE(std::find(last.inputs.begin(), last.inputs.end(), "h0"), last.inputs.end());
  ExpectSameAsOneModel(**p, ChainText(false), {4, 8});
}

TEST(PipelineModel, StagesOfSuccessiveRequestsOverlap) {
  PipelineOptions o;
  o.stages = 2;
  auto p = PipelineModel::Load(Parse(ChainText(false)), o);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  std::mt19937_64 rng(9);
  std::vector<std::vector<Value>> requests;
  for (int k = 0; k < 12; ++k) requests.push_back({Value(Random(512, rng))});
  std::vector<std::vector<Value>> out;
  ASSERT_TRUE((*p)->ExecuteBatch(requests, &out).ok());
  // Stage 0 takes request k+1 as soon as it hands request k to stage 1, without waiting for stage 1 to finish it
  // (a pipeline, not one request at a time). Order only, no durations: robust on a loaded machine.
  const auto& iv = (*p)->last_batch_intervals();
  int overlapping = 0;
  for (size_t k = 0; k + 1 < requests.size(); ++k) {
    EXPECT_LE(iv[0][k].second, iv[1][k].first);  // a request's stages run in order
    if (iv[0][k + 1].first < iv[1][k].second) ++overlapping;
  }
  EXPECT_GT(overlapping, 0);
}

TEST(PipelineModel, StageAttributesPartitionAndAreChecked) {
  auto p = PipelineModel::Load(Parse(ChainText(true)), PipelineOptions());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ((*p)->stages().size(), 3u);
  EXPECT_EQ((*p)->stages()[0].nodes, 4u);
  EXPECT_EQ((*p)->stages()[2].nodes, 5u);
  ExpectSameAsOneModel(**p, ChainText(true), {2, 6});
  auto bad = PipelineModel::Load(Parse(ChainText(true, /*decreasing=*/true)), PipelineOptions());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("later stage"), std::string::npos) << bad.status().message();
  PipelineOptions too_many;
  too_many.stages = 14;
  EXPECT_EQ(PipelineModel::Load(Parse(ChainText(false)), too_many).status().code(), StatusCode::kInvalidArgument);
}

TEST(PipelineModel, AFailingRequestIsNamedAndTheNextBatchRuns) {
  auto p = PipelineModel::Load(Parse(ChainText(false)), PipelineOptions());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  std::mt19937_64 rng(11);
  Tensor wrong = Tensor::Create(DataType::kFloat, {3, 65}).value();
  std::vector<std::vector<Value>> requests = {{Value(Random(2, rng))}, {Value(wrong)}, {Value(Random(2, rng))}};
  std::vector<std::vector<Value>> out;
  Status s = (*p)->ExecuteBatch(requests, &out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pipeline request 1, stage 0"), std::string::npos) << s.message();
  EXPECT_EQ((*p)->ExecuteBatch({{Value(Random(2, rng))}}, &out).code(), StatusCode::kOk);
  EXPECT_EQ((*p)->ExecuteBatch({{}}, &out).code(), StatusCode::kInvalidArgument);
}

// Stage 0: h = Tanh(x·w), c = rows > 4. Stage 1: an If whose branches capture h (made in stage 0), a node that
// must wait for stage 0's Tanh (control edge across stages) and one that waits for the If (inside the stage).
std::string ControlFlowText(bool stage_attrs) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  auto at = [&](int stage) { return stage_attrs ? " {pipeline_stage = " + std::to_string(stage) + "}" : std::string(); };
  std::string t = "opset \"\" 17\ngraph g(%x: float32[?,64]) {\n  const %w: float32[64,64] = [";
  for (int j = 0; j < 64 * 64; ++j) t += (j ? ", " : "") + std::to_string(u(rng));
  t += "]\n  const %first: int64[] = [0]\n  const %four: int64[] = [4]\n";
  t += "  mm: %m = MatMul(%x, %w)" + at(0) + "\n";
  t += "  th: %h = Tanh(%m)" + at(0) + "\n";
  t += "  sh: %sh = Shape(%x)" + at(0) + "\n";
  t += "  rows: %n = Gather(%sh, %first) {axis = 0" + std::string(stage_attrs ? ", pipeline_stage = 0" : "") + "}\n";
  t += "  gt: %c = Greater(%n, %four)" + at(0) + "\n";
  t += "  if: %y = If(%c)" + at(1) + R"(
    then_branch = graph t() {
      n: %a = Neg(%h)
      return %a
    }
    else_branch = graph e() {
      n: %b = Exp(%h)
      return %b
    }
)";
  t += "  ab: %z = Abs(%x)" + at(1) + " ^th\n";
  t += "  ng: %q = Neg(%z)" + at(1) + " ^if\n";
  t += "  add: %out = Add(%y, %q)" + at(1) + "\n";
  t += "  return %out\n}\n";
  return t;
}

TEST(PipelineModel, ControlFlowAndControlEdgesSplitAcrossStages) {
  for (bool attrs : {true, false}) {
    for (size_t stages : {2, 3}) {
      if (attrs && stages != 2) continue;
      SCOPED_TRACE(std::string(attrs ? "pipeline_stage attributes" : "balanced") + ", stages " +
                   std::to_string(stages));
      PipelineOptions o;
      o.stages = stages;
      auto p = PipelineModel::Load(Parse(ControlFlowText(attrs)), o);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      ASSERT_EQ((*p)->stages().size(), stages);
      if (attrs) {
        // h crosses to stage 1 for the If's branches (a capture) though no stage-1 node reads it by an edge.
        const auto& outs = (*p)->stages()[0].outputs;
        EXPECT_NE(std::find(outs.begin(), outs.end(), "h"), outs.end());
      }
      // Batches of up to 4 rows take the else branch, larger ones the then branch.
      ExpectSameAsOneModel(**p, ControlFlowText(false), {1, 3, 16, 2, 7, 40});
    }
  }
}

TEST(PipelineModel, ACaptureFromALaterStageIsRefused) {
  auto p = PipelineModel::Load(Parse(R"(opset "" 17
graph g(%c: bool[], %x: float32[2]) {
  ng: %h = Neg(%x) {pipeline_stage = 1}
  if: %y = If(%c) {pipeline_stage = 0}
    then_branch = graph t() {
      n: %a = Abs(%h)
      return %a
    }
    else_branch = graph e() {
      n: %b = Exp(%h)
      return %b
    }
  return %y
})"),
                               PipelineOptions());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument) << p.status().ToString();
  EXPECT_NE(p.status().message().find("'h'"), std::string::npos) << p.status().ToString();
}

}  // namespace
}  // namespace ge::runtime::v2
