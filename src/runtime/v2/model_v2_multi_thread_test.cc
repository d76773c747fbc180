// ModelV2 on the multi-thread executor: a model with parallel branches gives the interpreter's outputs at changing
// shapes, and lowering puts memory kernels in the memory section (FreeMemory first among ready nodes).
#include <gtest/gtest.h>

#include <random>

#include "base/compare.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

constexpr const char* kBranches = R"(opset "" 17
graph g(%x: float32[?,16], %w: float32[16,16]) {
  a1: %a1 = MatMul(%x, %w)
  a2: %a2 = Relu(%a1)
  a3: %a3 = MatMul(%a2, %w)
  b1: %b1 = Neg(%x)
  b2: %b2 = MatMul(%b1, %w)
  b3: %b3 = Tanh(%b2)
  j: %j = Add(%a3, %b3)
  return %j
})";

Tensor Random(const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

TEST(ModelV2MultiThread, ParallelBranchesMatchTheInterpreter) {
  auto a = ir::ParseModelText(kBranches);
  auto b = ir::ParseModelText(kBranches);
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  auto oracle = std::move(Interpreter::Create(a->get())).value();
  ModelV2Options options;
  options.executor = ExecutorKind::kMultiThread;
  options.executor_threads = 2;
  auto m = ModelV2::Load(std::move(*b), options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::mt19937_64 rng(7);
  const Tensor w = Random({16, 16}, rng);
  for (int64_t rows : {3, 8, 3, 1, 8}) {
    std::vector<Value> in = {Value(Random({rows, 16}, rng)), Value(w)};
    std::vector<Value> want, got;
    ASSERT_TRUE(oracle->Run(in, &want).ok());
    Status s = (*m)->Execute(in, &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(got.size(), 1u);
    Status c = CompareTensors(got[0].tensor, want[0].tensor, Tolerance{1e-5, 1e-5}, "rows " + std::to_string(rows));
    EXPECT_TRUE(c.ok()) << c.ToString();
  }
}

}  // namespace
}  // namespace ge::runtime::v2
