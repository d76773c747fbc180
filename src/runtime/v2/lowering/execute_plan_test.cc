// The execute plan (EXECUTE_PLAN of a lowered .om): lowering records it, the compiler stores it (model type
// kLowered), ModelV2 lowers along it and gives the interpreter's outputs; a plan's own order is followed; every
// corruption of a plan (order, converters, graph count, sizes, encoding) is a clear error.
#include "runtime/v2/lowering/execute_plan.h"

#include <gtest/gtest.h>

#include <random>

#include "base/compare.h"
#include "compiler/model_compiler.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "om/execute_plan.pb.h"
#include "om/ir_om.h"
#include "runtime/v2/lowering/lowering.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

constexpr const char* kBranches = R"(opset "" 17
graph g(%x: float32[?,4]) {
  const %w: float32[4] = [1, -2, 0.5, 3]
  a: %a = Relu(%x)
  b: %b = Mul(%x, %w)
  c: %c = Add(%a, %b)
  s: %s = Softmax(%c) {axis = 1}
  return %s
})";

constexpr const char* kControlFlow = R"(opset "" 17
graph g(%c: bool[], %x: float32[?,2]) {
  const %w: float32[2] = [1, 2]
  e: %e = Exp(%x)
  if: %z = If(%c)
    then_branch = graph t() {
      a: %r = Add(%e, %w)
      return %r
    }
    else_branch = graph f() {
      m: %r = Mul(%x, %w)
      n: %q = Neg(%r)
      return %q
    }
  n: %o = Neg(%z)
  return %o
})";

std::unique_ptr<ir::Model> Parse(const char* text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(*m) : nullptr;
}

Tensor Random(const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

ExecutePlan PlanOf(const ir::Model& model) {
  auto lowered = LowerModel(model, LoweringOptions());
  EXPECT_TRUE(lowered.ok()) << lowered.status().ToString();
  return lowered.ok() ? (*lowered)->plan : ExecutePlan();
}

Status LowerAlong(const ir::Model& model, const ExecutePlan& plan) {
  LoweringOptions o;
  o.plan = &plan;
  return LowerModel(model, o).status();
}

// A lowered .om of |model| carrying |plan|.
std::shared_ptr<const om::OmReader> LoweredOm(const ir::Model& model, const ExecutePlan& plan) {
  om::OmWriteOptions wo;
  wo.dynamic = true;
  wo.model_type = om::OmModelType::kLowered;
  auto w = om::MakeIrOmWriter(model, wo);
  EXPECT_TRUE(w.ok());
  auto bytes = SerializeExecutePlan(plan);
  EXPECT_TRUE(bytes.ok());
  EXPECT_TRUE((*w)->AddPartition(om::PartitionType::kExecutePlan, std::move(*bytes)).ok());
  auto image = std::make_shared<std::vector<uint8_t>>(std::move((*w)->WriteToMemory()).value());
  auto r = om::OmReader::FromMemory(image->data(), image->size(), image);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::shared_ptr<const om::OmReader>(std::move(*r));
}

void ExpectMatchesInterpreter(const char* text, ModelV2* m, const std::vector<std::vector<Value>>& runs) {
  auto oracle_model = Parse(text);
  auto oracle = std::move(Interpreter::Create(oracle_model.get())).value();
  for (size_t r = 0; r < runs.size(); ++r) {
    std::vector<Value> want, got;
    ASSERT_TRUE(oracle->Run(runs[r], &want).ok());
    Status s = m->Execute(runs[r], &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      Status c = CompareTensors(got[i].tensor, want[i].tensor, Tolerance{1e-5, 1e-5}, "run " + std::to_string(r));
      EXPECT_TRUE(c.ok()) << c.ToString();
    }
  }
}

TEST(ExecutePlan, RecordsOrdersConvertersAndSizes) {
  auto model = Parse(kControlFlow);
  ExecutePlan p = PlanOf(*model);
  ASSERT_EQ(p.graphs.size(), 3u);  // the model's graph, then the If's two branches
  EXPECT_EQ(p.graphs[0].order.size(), 3u);
  EXPECT_EQ(p.graphs[0].converter[1], ConverterKind::kControlFlow);
  EXPECT_EQ(p.graphs[2].order.size(), 2u);
  EXPECT_TRUE(p.fused);
  EXPECT_GT(p.main_nodes, 0u);
  EXPECT_EQ(p.control_nodes, 1u);
  EXPECT_EQ(p.subgraphs, 2u);
  EXPECT_EQ(p.main_kernels.at("ControlFlow"), 1u);
  auto bytes = SerializeExecutePlan(p);
  ASSERT_TRUE(bytes.ok());
  auto back = ParseExecutePlan(bytes->data(), bytes->size());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->graphs.size(), p.graphs.size());
  for (size_t g = 0; g < p.graphs.size(); ++g) {
    EXPECT_EQ(back->graphs[g].order, p.graphs[g].order);
    EXPECT_EQ(back->graphs[g].converter, p.graphs[g].converter);
  }
  EXPECT_EQ(back->main_nodes, p.main_nodes);
  EXPECT_EQ(back->main_kernels, p.main_kernels);
  EXPECT_TRUE(LowerAlong(*model, *back).ok());
}

TEST(ExecutePlan, CompilerWritesALoweredOmThatRunsRight) {
  auto model = Parse(kControlFlow);
  compiler::CompileOptions co;
  co.lower_for_runtime_v2 = PlanExecuteGraphsForOm;
  auto bytes = compiler::CompileToOm(*model, co);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->header().model_type, om::OmModelType::kLowered);
  ASSERT_TRUE((*reader)->has(om::PartitionType::kExecutePlan));
  auto m = ModelV2::Load(std::shared_ptr<const om::OmReader>(std::move(*reader)), ModelV2Options());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::mt19937_64 rng(11);
  std::vector<std::vector<Value>> runs;
  for (int64_t n : {1, 5, 2}) {
    for (bool c : {true, false}) runs.push_back({Value(Tensor::Scalar<bool>(c)), Value(Random({n, 2}, rng))});
  }
  ExpectMatchesInterpreter(kControlFlow, m->get(), runs);
}

TEST(ExecutePlan, LoaderFollowsTheStoredOrderAndDemotions) {
  auto model = Parse(kBranches);
  ExecutePlan p = PlanOf(*model);
  ASSERT_EQ(p.graphs.size(), 1u);
  ASSERT_EQ(p.graphs[0].order, (std::vector<uint32_t>{0, 1, 2, 3}));
  // b before a (both read only x), and the Softmax on its reference kernel.
  p.graphs[0].order = {1, 0, 2, 3};
  p.graphs[0].converter[3] = ConverterKind::kRef;
  p.fused = false;  // sizes differ from lowering's own plan (a RefKernel and a FreeMemory instead of a Compute)
  auto m = ModelV2::Load(LoweredOm(*model, p), ModelV2Options());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->plan().graphs[0].order, p.graphs[0].order);
  EXPECT_EQ((*m)->plan().graphs[0].converter[3], ConverterKind::kRef);
  EXPECT_EQ((*m)->stats().ref_nodes, 1u);
  std::mt19937_64 rng(12);
  ExpectMatchesInterpreter(kBranches, m->get(), {{Value(Random({3, 4}, rng))}, {Value(Random({1, 4}, rng))}});
}

TEST(ExecutePlan, CorruptPlansAreClearErrors) {
  auto model = Parse(kControlFlow);
  const ExecutePlan good = PlanOf(*model);
  auto expect_error = [&](ExecutePlan p, const std::string& needle) {
    Status s = LowerAlong(*model, p);
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s.ToString();
    EXPECT_NE(s.ToString().find(needle), std::string::npos) << s.ToString();
  };
  ExecutePlan p = good;
  std::swap(p.graphs[0].order[0], p.graphs[0].order[2]);  // Neg(z) before the If producing z
  expect_error(p, "before a node it depends on");
  p = good;
  p.graphs[0].order[1] = p.graphs[0].order[0];
  expect_error(p, "twice or out of range");
  p = good;
  p.graphs[0].order[2] = 99;
  expect_error(p, "twice or out of range");
  p = good;
  p.graphs[0].order.pop_back();
  p.graphs[0].converter.pop_back();
  expect_error(p, "orders 2 nodes, the graph has 3");
  p = good;
  p.graphs[0].converter[1] = ConverterKind::kCompute;  // the If
  expect_error(p, "takes the control_flow converter");
  p = good;
  p.graphs[0].converter[0] = ConverterKind::kInitConstant;  // Exp
  expect_error(p, "takes the compute converter");
  p = good;
  p.graphs[0].converter[1] = ConverterKind::kRef;  // an If is not demoted: its subgraphs are lowered
  expect_error(p, "takes the control_flow converter");
  p = good;
  p.graphs.pop_back();
  expect_error(p, "the IR has more");
  p = good;
  p.graphs.push_back(p.graphs.back());
  expect_error(p, "the execute plan has 4 graphs, the IR 3");
  p = good;
  ++p.main_nodes;
  expect_error(p, "Main graph has");
  p = good;
  ++p.init_nodes;
  expect_error(p, "Init graph has");
}

TEST(ExecutePlan, ParseRejectsBadEncodings) {
  const std::string garbage = "\xff\xff\xff\xff\x0f";
  EXPECT_EQ(ParseExecutePlan(garbage.data(), garbage.size()).status().code(), StatusCode::kDataLoss);
  proto::ExecutePlanProto p;
  p.set_version(kExecutePlanVersion + 1);
  std::string bytes = p.SerializeAsString();
  Status s = ParseExecutePlan(bytes.data(), bytes.size()).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.ToString().find("recompile"), std::string::npos);
  p.set_version(kExecutePlanVersion);
  proto::ExecuteGraphPlanProto* g = p.add_graphs();
  g->add_order(0);
  g->add_converter(9);
  bytes = p.SerializeAsString();
  s = ParseExecutePlan(bytes.data(), bytes.size()).status();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.ToString().find("unknown converter 9"), std::string::npos) << s.ToString();
  g->add_order(1);
  bytes = p.SerializeAsString();
  EXPECT_EQ(ParseExecutePlan(bytes.data(), bytes.size()).status().code(), StatusCode::kDataLoss);
}

TEST(ExecutePlan, ALoweredOmWithoutItsPlanIsRefused) {
  auto model = Parse(kBranches);
  om::OmWriteOptions wo;
  wo.dynamic = true;
  wo.model_type = om::OmModelType::kLowered;
  auto bytes = om::WriteIrOm(*model, wo);
  ASSERT_TRUE(bytes.ok());
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  ASSERT_TRUE(reader.ok());
  auto m = ModelV2::Load(std::shared_ptr<const om::OmReader>(std::move(*reader)), ModelV2Options());
  EXPECT_EQ(m.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(m.status().ToString().find("no EXECUTE_PLAN"), std::string::npos) << m.status().ToString();
}

}  // namespace
}  // namespace ge::runtime::v2
