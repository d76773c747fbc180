// Hybrid execution: static islands of a dynamic model run as one v1 SinkModel node, against the reference
// interpreter on fresh random inputs at several batch sizes.
#include "runtime/v2/lowering/static_island.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "base/compare.h"
#include "compiler/model_compiler.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

std::string Weights(int n, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(u(rng));
  return s + "]";
}

// x[N,16] -> MatMul/Relu -> ReduceMean over N -> [1,16] -> 11 static ops.
std::string DynamicHeadStaticTail() {
  return R"(opset "" 17
graph g(%x: float32[?,16]) {
  const %w: float32[16,16] = )" + Weights(256, 1) + R"(
  const %w2: float32[16,16] = )" + Weights(256, 2) + R"(
  const %b: float32[16] = )" + Weights(16, 3) + R"(
  m: %m = MatMul(%x, %w)
  r: %r = Relu(%m)
  rm: %p = ReduceMean(%r) {axes = [0], keepdims = 1}
  t1: %t1 = Tanh(%p)
  a1: %a1 = Add(%t1, %b)
  s1: %s1 = Sigmoid(%a1)
  mm: %mm = MatMul(%s1, %w2)
  mu: %mu = Mul(%mm, %a1)
  ab: %ab = Abs(%mu)
  sq: %sq = Sqrt(%ab)
  su: %su = Sub(%sq, %t1)
  ex: %ex = Exp(%su)
  ng: %ng = Neg(%ex)
  sm: %o = Softmax(%ng) {axis = -1}
  return %o, %r
})";
}

std::string AllDynamic() {
  return R"(opset "" 17
graph g(%x: float32[?,16]) {
  const %b: float32[16] = )" + Weights(16, 4) + R"(
  t1: %t1 = Tanh(%x)
  a1: %a1 = Add(%t1, %b)
  s1: %s1 = Sigmoid(%a1)
  mu: %mu = Mul(%s1, %a1)
  ab: %ab = Abs(%mu)
  sq: %sq = Sqrt(%ab)
  su: %su = Sub(%sq, %t1)
  ex: %ex = Exp(%su)
  ng: %ng = Neg(%ex)
  sm: %o = Softmax(%ng) {axis = -1}
  return %o
})";
}

struct Loaded {
  std::unique_ptr<ir::Model> oracle_model;
  std::unique_ptr<Interpreter> oracle;
  std::unique_ptr<ModelV2> v2;
};

// Compiles |text| (an IR .om: the input dim stays symbolic) and loads it on ModelV2 with islands of at least
// |min_nodes| nodes.
Loaded Load(const std::string& text, size_t min_nodes) {
  Loaded l;
  auto a = ir::ParseModelText(text);
  auto b = ir::ParseModelText(text);
  EXPECT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  l.oracle_model = std::move(*a);
  l.oracle = std::move(Interpreter::Create(l.oracle_model.get())).value();
  compiler::CompileReport report;
  auto om = compiler::CompileToOm(**b, compiler::CompileOptions(), &report);
  EXPECT_TRUE(om.ok()) << om.status().ToString();
  EXPECT_FALSE(report.static_model);
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(*om));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  ModelV2Options options;
  options.static_island_min_nodes = min_nodes;
  options.compile_static_island = [](ir::Model& m) { return compiler::CompileToOm(m, compiler::CompileOptions()); };
  auto m = ModelV2::Load(std::shared_ptr<const om::OmReader>(std::move(*reader)), options);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) l.v2 = std::move(*m);
  return l;
}

Tensor RandomInput(int64_t n, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, {n, 16})).value();
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

void ExpectMatchesOracle(Loaded& l, const std::vector<int64_t>& sizes) {
  std::mt19937_64 rng(7);
  std::vector<Value> got;
  for (int64_t n : sizes) {
    std::vector<Value> in = {Value(RandomInput(n, rng))};
    std::vector<Value> want;
    ASSERT_TRUE(l.oracle->Run(in, &want).ok());
    Status s = l.v2->Execute(in, &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      Status c = CompareTensors(got[i].tensor, want[i].tensor, Tolerance{1e-4, 1e-4}, "N=" + std::to_string(n));
      EXPECT_TRUE(c.ok()) << c.ToString();
    }
  }
}

TEST(StaticIsland, StaticTailBecomesOneIsland) {
  Loaded l = Load(DynamicHeadStaticTail(), 8);
  ASSERT_NE(l.v2, nullptr);
  EXPECT_EQ(l.v2->stats().static_islands, 1u);
  EXPECT_EQ(l.v2->stats().static_island_nodes, 11u);
  ExpectMatchesOracle(l, {1, 3, 7, 32, 3});
}

TEST(StaticIsland, ZeroDisables) {
  Loaded l = Load(DynamicHeadStaticTail(), 0);
  ASSERT_NE(l.v2, nullptr);
  EXPECT_EQ(l.v2->stats().static_islands, 0u);
  ExpectMatchesOracle(l, {1, 5});
}

TEST(StaticIsland, SmallGroupsStayNodeByNode) {
  Loaded l = Load(DynamicHeadStaticTail(), 12);
  ASSERT_NE(l.v2, nullptr);
  EXPECT_EQ(l.v2->stats().static_islands, 0u);
}

TEST(StaticIsland, NothingStaticMakesNoIsland) {
  Loaded l = Load(AllDynamic(), 2);
  ASSERT_NE(l.v2, nullptr);
  EXPECT_EQ(l.v2->stats().static_islands, 0u);
  ExpectMatchesOracle(l, {1, 4});
}

// Shape arithmetic (GPT's per-head reshape targets): values of known shape computed from Shape only. Runtime v2
// memoizes those nodes; an island would run them behind a v1 call on every execution.
TEST(StaticIsland, ShapeArithmeticStaysMemoized) {
  Loaded l = Load(R"(opset "" 17
graph g(%x: float32[1,?,8]) {
  const %i0: int64[] = [0]
  const %i1: int64[] = [1]
  const %two: int64[1] = [2]
  const %four: int64[1] = [4]
  const %axes: int64[1] = [0]
  sh: %sh = Shape(%x)
  g0: %b = Gather(%sh, %i0) {axis = 0}
  g1: %t = Gather(%sh, %i1) {axis = 0}
  u0: %bu = Unsqueeze(%b, %axes)
  u1: %tu = Unsqueeze(%t, %axes)
  m: %t2 = Mul(%tu, %i1)
  a: %t3 = Add(%t2, %two)
  s: %t4 = Sub(%t3, %two)
  c: %target = Concat(%bu, %t4, %two, %four) {axis = 0}
  r: %y = Reshape(%x, %target)
  return %y
})",
                  3);
  ASSERT_NE(l.v2, nullptr);
  EXPECT_EQ(l.v2->stats().static_islands, 0u);
  EXPECT_GT(l.v2->stats().memo_nodes, 0u);
}

// `ge compile`'s way: islands formed and compiled at compile time, carried in the lowered .om (STATIC_ISLANDS) and
// loaded without any compile step.
StatusOr<std::vector<uint8_t>> CompileWithIslands(const std::string& text, compiler::CompileReport* report,
                                                  const std::string& min_nodes = "8") {
  auto model = ir::ParseModelText(text);
  if (!model.ok()) return model.status();
  compiler::CompileOptions o;
  o.lower_for_runtime_v2 = PlanExecuteGraphsForOm;
  o.form_static_islands = FormStaticIslandsForOm;
  o.ge_options["ge.exec.v2StaticIslandMinNodes"] = min_nodes;
  return compiler::CompileToOm(**model, o, report);
}

StatusOr<std::unique_ptr<ModelV2>> LoadImage(std::vector<uint8_t> bytes) {
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader, om::OmReader::FromMemory(image->data(), image->size(), image));
  return ModelV2::Load(std::shared_ptr<const om::OmReader>(std::move(reader)), ModelV2Options());  // no compiler
}

TEST(StaticIsland, CompiledIntoTheOmAndLoadedWithoutACompiler) {
  compiler::CompileReport report;
  auto om = CompileWithIslands(DynamicHeadStaticTail(), &report);
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  EXPECT_EQ(report.static_islands, 1);
  EXPECT_EQ(report.static_island_nodes, 11u);
  {
    auto image = std::make_shared<std::vector<uint8_t>>(*om);
    auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ((*reader)->header().model_type, om::OmModelType::kLowered);
    EXPECT_TRUE((*reader)->has(om::PartitionType::kStaticIslands));
  }
  auto m = LoadImage(*om);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  Loaded l;
  auto oracle = ir::ParseModelText(DynamicHeadStaticTail());
  ASSERT_TRUE(oracle.ok());
  l.oracle_model = std::move(*oracle);
  l.oracle = std::move(Interpreter::Create(l.oracle_model.get())).value();
  l.v2 = std::move(*m);
  EXPECT_EQ(l.v2->stats().static_islands, 1u);
  EXPECT_EQ(l.v2->stats().static_island_nodes, 11u);
  ExpectMatchesOracle(l, {1, 3, 7, 32, 3});

  // Without islands (option 0) the .om has no STATIC_ISLANDS and the nodes run one by one.
  compiler::CompileReport none;
  auto plain = CompileWithIslands(DynamicHeadStaticTail(), &none, "0");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(none.static_islands, 0);
  auto p = LoadImage(*plain);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ((*p)->stats().static_islands, 0u);
  compiler::CompileReport bad;
  EXPECT_EQ(CompileWithIslands(DynamicHeadStaticTail(), &bad, "-1").status().code(), StatusCode::kInvalidArgument);
}

TEST(StaticIsland, CorruptIslandsAreDataLoss) {
  compiler::CompileReport report;
  auto om = CompileWithIslands(DynamicHeadStaticTail(), &report);
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  // The partition's bytes: flip bytes inside it (the .om's checksum, if any, is rewritten by the writer only; find
  // the partition through a reader and mutate a copy).
  auto image = std::make_shared<std::vector<uint8_t>>(*om);
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  ASSERT_TRUE(reader.ok());
  om::ByteSpan part = (*reader)->partition(om::PartitionType::kStaticIslands);
  const size_t offset = static_cast<size_t>(part.data - image->data());
  // Garbage for the whole partition; and, separately, a partition that parses but names no island.
  EXPECT_FALSE(LoadStaticIslands("\xff\xff\xff", 3, nullptr).ok());
  auto empty = LoadStaticIslands("", 0, nullptr);
  EXPECT_FALSE(empty.ok());  // version 0
  for (size_t at : {offset + 2, offset + part.size / 2, offset + part.size - 8}) {
    std::vector<uint8_t> bytes = *om;
    bytes[at] ^= 0x5a;
    auto m = LoadImage(std::move(bytes));
    if (!m.ok()) {
      EXPECT_NE(m.status().code(), StatusCode::kOk);
      continue;
    }
    // A mutation the checks let through must still run (or fail cleanly).
    std::vector<Value> out;
    Status s = (*m)->Execute({Value(std::move(Tensor::Create(DataType::kFloat, {2, 16})).value())}, &out);
    (void)s;
  }
}

// Not a check: median time per Execute with and without the island (run with --gtest_also_run_disabled_tests).
TEST(StaticIsland, DISABLED_Timing) {
  for (size_t min_nodes : {size_t{8}, size_t{0}}) {
    Loaded l = Load(DynamicHeadStaticTail(), min_nodes);
    ASSERT_NE(l.v2, nullptr);
    std::mt19937_64 rng(1);
    std::vector<Value> in = {Value(RandomInput(4, rng))}, out;
    std::vector<double> us;
    for (int rep = 0; rep < 21; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 2000; ++i) ASSERT_TRUE(l.v2->Execute(in, &out).ok());
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 2000);
    }
    std::sort(us.begin(), us.end());
    std::printf("islands=%zu main_nodes=%zu median %.2f us/Execute\n", l.v2->stats().static_islands,
                l.v2->stats().main_nodes, us[us.size() / 2]);
  }
}

}  // namespace
}  // namespace ge::runtime::v2
