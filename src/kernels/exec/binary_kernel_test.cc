// Fast binary kernels against the ref kernels: every op on same-shape, scalar and broadcast patterns, NaN
// propagation of Max/Min, in-place slots, the thread pool, and the cases that must stay on ref.
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

constexpr double kMathTol = 1e-6;
const char* const kOps[] = {"Add", "Sub", "Mul", "Div", "Max", "Min"};

struct ShapePair {
  Dims a, b;
};

const std::vector<ShapePair> kPatterns = {
    {{1, 16}, {1, 16}},
    {{2, 3, 4}, {2, 3, 4}},
    {{2, 3, 4}, {4}},
    {{4}, {2, 3, 4}},
    {{2, 1, 4}, {1, 3, 1}},
    {{}, {2, 3}},
    {{2, 3}, {}},
    {{2, 3}, {1}},
    {{3, 1}, {1, 5}},
    {{2, 3, 5, 5}, {3, 1, 1}},
    {{1, 3, 1, 7}, {2, 1, 5, 1}},
    {{0, 3}, {3}},
    {{2, 1, 3, 1, 2, 1, 2}, {1, 2, 1, 3, 1, 2, 1}},
};

TEST(BinaryKernel, Float32MatchesRefOnEveryBroadcastPattern) {
  std::mt19937 rng(11);
  for (const char* op : kOps) {
    for (const ShapePair& s : kPatterns) {
      OpCase c(op, {RandomTensor(DataType::kFloat, s.a, rng), RandomTensor(DataType::kFloat, s.b, rng)});
      ExpectMatchesRef(c, "exec.binary_f32", kMathTol);
    }
  }
}

TEST(BinaryKernel, Float64MatchesRef) {
  std::mt19937 rng(12);
  for (const char* op : kOps) {
    for (const ShapePair& s : {ShapePair{{5}, {5}}, ShapePair{{2, 3, 4}, {4}}, ShapePair{{}, {7}}}) {
      OpCase c(op, {RandomTensor(DataType::kDouble, s.a, rng), RandomTensor(DataType::kDouble, s.b, rng)});
      ExpectMatchesRef(c, "exec.binary_f64", kMathTol);
    }
  }
}

TEST(BinaryKernel, ConstantOperandsAndSpecialValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor a = Tensor::FromVector<float>({1, nan, 3, -inf, 0, -0.0f, nan, 2}, {8});
  Tensor b = Tensor::FromVector<float>({nan, 2, 3, inf, -0.0f, 0, nan, 0}, {8});
  for (const char* op : kOps) {
    ExpectMatchesRef(OpCase(op, {a, b}), "exec.binary_f32", 0);
    ExpectMatchesRef(OpCase(op, {a, b}, {false, true}), "exec.binary_f32", 0);
    ExpectMatchesRef(OpCase(op, {a, Tensor::Scalar<float>(nan)}, {false, true}), "exec.binary_f32", 0);
    ExpectMatchesRef(OpCase(op, {Tensor::Scalar<float>(nan), b}), "exec.binary_f32", 0);
  }
}

TEST(BinaryKernel, InPlaceSlots) {
  std::mt19937 rng(13);
  OpCase c("Add", {RandomTensor(DataType::kFloat, {2, 3, 4}, rng), RandomTensor(DataType::kFloat, {3, 4}, rng)});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Tensor buf = (*p)->inputs[0];
  (*p)->binding->io.outputs[0] = buf.raw_data();
  ASSERT_TRUE((*p)->Run().ok());
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok());
  ExpectTensorNear(buf, (*want)[0].tensor, 0, "in place");
}

TEST(BinaryKernel, LargeTensorsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(14);
  for (const ShapePair& s : {ShapePair{{300001}, {300001}}, ShapePair{{300001}, {}}, ShapePair{{}, {300001}},
                             ShapePair{{4, 64, 1000}, {64, 1}}, ShapePair{{7, 30011}, {7, 1}}}) {
    OpCase c("Mul", {RandomTensor(DataType::kFloat, s.a, rng), RandomTensor(DataType::kFloat, s.b, rng)});
    ExpectMatchesRef(c, "exec.binary_f32", kMathTol, pool->get());
  }
}

TEST(BinaryKernel, OtherCasesStayOnRef) {
  std::mt19937 rng(15);
  // Integer arithmetic (wrap-around, integer division) and mixed types.
  ExpectMatchesRef(
      OpCase("Div", {RandomTensor(DataType::kInt32, {6}, rng, 1, 9), RandomTensor(DataType::kInt32, {6}, rng, 1, 9)}),
      "ref", 0);
  ExpectMatchesRef(
      OpCase("Add", {RandomTensor(DataType::kInt64, {2, 3}, rng), RandomTensor(DataType::kInt64, {3}, rng)}), "ref", 0);
  // Max / Min with other than two inputs.
  Tensor x = RandomTensor(DataType::kFloat, {4}, rng);
  ExpectMatchesRef(OpCase("Max", {x, x, x}), "ref", 0);
  ExpectMatchesRef(OpCase("Min", {x}), "ref", 0);
}

}  // namespace
}  // namespace ge::exec::testing
