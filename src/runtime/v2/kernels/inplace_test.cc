// In-place execution of fused Compute kernels (compute_record.h): an output takes over the block of an input that
// dies at its node (element-wise math, data views, a Transpose that moves only unit dims at the current shapes),
// checked against the reference interpreter on fresh random inputs, with the number of outputs that took a block.
#include <gtest/gtest.h>

#include <random>

#include "base/compare.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

Tensor RandomFloats(const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

struct Loaded {
  std::unique_ptr<rt::CpuDevice> device;  // outlives v2
  std::unique_ptr<ir::Model> oracle_model;
  std::unique_ptr<Interpreter> oracle;
  std::unique_ptr<ModelV2> v2;
};

Loaded Load(const std::string& text) {
  Loaded l;
  rt::DeviceOptions d;
  d.intra_op_threads = 1;
  l.device = std::move(rt::CpuDevice::Create(d)).value();
  auto a = ir::ParseModelText(text);
  auto b = ir::ParseModelText(text);
  EXPECT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  l.oracle_model = std::move(*a);
  l.oracle = std::move(Interpreter::Create(l.oracle_model.get())).value();
  ModelV2Options o;
  o.device = l.device.get();
  auto m = ModelV2::Load(std::move(*b), o);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) l.v2 = std::move(*m);
  return l;
}

void ExpectMatchesOracle(Loaded& l, const std::vector<Value>& inputs) {
  std::vector<Value> want, got;
  ASSERT_TRUE(l.oracle->Run(inputs, &want).ok());
  Status s = l.v2->Execute(inputs, &got);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    Status c = CompareTensors(got[i].tensor, want[i].tensor, Tolerance{1e-5, 1e-5}, "output " + std::to_string(i));
    EXPECT_TRUE(c.ok()) << c.ToString();
  }
}

TEST(InPlace, MixedGraphMatchesTheInterpreter) {
  // b is read three times (c, bt, and as an output): nothing may take it; d = c + c reads one value twice; the
  // Reshapes, Unsqueeze and Squeeze are views; t is a Transpose that moves only the unit dim at batch 1 (a view
  // then) and really transposes at other batches; m broadcasts w, so only u may be overwritten.
  Loaded l = Load(R"(opset "" 17
graph g(%x: float32[?,16], %w: float32[16,1]) {
  a: %a = Relu(%x)
  b: %b = Neg(%a)
  c: %c = Exp(%b)
  d: %d = Add(%c, %c)
  const %flat: int64[1] = [-1]
  r: %r = Reshape(%d, %flat)
  const %ax: int64[1] = [0]
  us: %us = Unsqueeze(%r, %ax)
  sq: %sq = Squeeze(%us, %ax)
  const %back: int64[2] = [-1, 16]
  r2: %r2 = Reshape(%sq, %back)
  t: %t = Transpose(%r2) {perm = [1, 0]}
  u: %u = Neg(%t)
  m: %m = Mul(%w, %u)
  bt: %bt = Transpose(%b) {perm = [1, 0]}
  s: %s = Sub(%m, %bt)
  return %s, %b
})");
  ASSERT_NE(l.v2, nullptr);
  std::mt19937_64 rng(17);
  const Value w(RandomFloats({16, 1}, rng));
  // Each shape three times: the first run takes the slow path, the next ones the fast path where blocks move.
  for (int64_t n : {1, 1, 1, 4, 4, 4, 1, 1, 9, 9, 9, 1}) {
    ExpectMatchesOracle(l, {Value(RandomFloats({n, 16}, rng)), w});
  }
  // Fast runs at batch 1: b, d, r, us, sq, r2, t, u, m, s; at batch 4 t copies: nine.
  uint64_t before = l.v2->inplace_takes();
  ExpectMatchesOracle(l, {Value(RandomFloats({1, 16}, rng)), w});
  EXPECT_EQ(l.v2->inplace_takes() - before, 10u);
  for (int i = 0; i < 2; ++i) ExpectMatchesOracle(l, {Value(RandomFloats({4, 16}, rng)), w});
  before = l.v2->inplace_takes();
  ExpectMatchesOracle(l, {Value(RandomFloats({4, 16}, rng)), w});
  EXPECT_EQ(l.v2->inplace_takes() - before, 9u);
}

TEST(InPlace, ChainMovesOneBlockAlong) {
  // Eight element-wise nodes and a view on 1024 x 16 floats: from the second run on, each output but the first
  // takes over its input's block.
  Loaded l = Load(R"(opset "" 17
graph g(%x: float32[?,16]) {
  const %one: float32[] = [1]
  a0: %a0 = Add(%x, %one)
  a1: %a1 = Relu(%a0)
  a2: %a2 = Neg(%a1)
  a3: %a3 = Abs(%a2)
  const %flat: int64[1] = [-1]
  r: %r = Reshape(%a3, %flat)
  a4: %a4 = Sigmoid(%r)
  a5: %a5 = Tanh(%a4)
  a6: %a6 = Mul(%a5, %a5)
  a7: %a7 = Sqrt(%a6)
  return %a7
})");
  ASSERT_NE(l.v2, nullptr);
  std::mt19937_64 rng(5);
  ExpectMatchesOracle(l, {Value(RandomFloats({1024, 16}, rng))});  // the slow path: no block moves
  EXPECT_EQ(l.v2->inplace_takes(), 0u);
  for (int run = 1; run <= 3; ++run) {
    ExpectMatchesOracle(l, {Value(RandomFloats({1024, 16}, rng))});
    // a0 reads the caller's input; a1..a7 and r each take the block a0 allocated.
    EXPECT_EQ(l.v2->inplace_takes(), 8u * run);
  }
}

}  // namespace
}  // namespace ge::runtime::v2
