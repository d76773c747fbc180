// Fast unary kernels against the ref kernels: random inputs on several shapes, special values, attributes, Clip
// bounds, Pow with a scalar exponent, the thread pool, and the cases that must stay on ref.
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/unary_kernel.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

constexpr double kMathTol = 1e-6;

const std::vector<Dims> kShapes = {{1, 16}, {2, 3, 4}, {}, {7}, {3, 1, 33}, {0, 5}};

const char* const kFloatOps[] = {"Relu",     "Neg",        "Abs",   "Sigmoid", "Tanh",        "Exp",       "Log",
                                 "Sqrt",     "Reciprocal", "Floor", "Ceil",    "Round",       "Sign",      "Erf",
                                 "Softplus", "LeakyRelu",  "Elu",   "Selu",    "HardSigmoid", "HardSwish", "Clip"};

std::vector<float> SpecialValues() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.0f,
          -0.0f,
          1.0f,
          -1.0f,
          0.5f,
          -0.5f,
          2.5f,
          -2.5f,
          1e-30f,
          -1e-30f,
          1e-3f,
          -1e-3f,
          20.0f,
          -20.0f,
          80.0f,
          -80.0f,
          88.0f,
          100.0f,
          -100.0f,
          inf,
          -inf,
          std::numeric_limits<float>::quiet_NaN(),
          std::numeric_limits<float>::max(),
          std::numeric_limits<float>::lowest(),
          3e-39f /* denormal */};
}

TEST(UnaryKernel, Float32MatchesRefOnRandomInputs) {
  std::mt19937 rng(1);
  for (const char* op : kFloatOps) {
    for (const Dims& dims : kShapes) {
      OpCase c{op, {RandomTensor(DataType::kFloat, dims, rng)}};
      ExpectMatchesRef(c, "exec.unary_f32", kMathTol);
    }
  }
}

TEST(UnaryKernel, Float32MatchesRefOnSpecialValues) {
  const std::vector<float> v = SpecialValues();
  for (const char* op : kFloatOps) {
    OpCase c{op, {Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())})}};
    ExpectMatchesRef(c, "exec.unary_f32", kMathTol);
  }
}

TEST(UnaryKernel, ExpSigmoidTanhErfOverTheirWholeNormalRange) {
  std::vector<float> v;
  for (float x = -87.0f; x <= 88.5f; x += 0.0137f) v.push_back(x);
  // Erf switches formulas at |x| = 0.875 and saturates at 3.9375, Tanh at 9.5 (fast_math.h): dense there and near 0.
  for (float x = -10.0f; x <= 10.0f; x += 0.000731f) v.push_back(x);
  for (float x = 1e-30f; x < 1.0f; x *= 1.37f) {
    v.push_back(x);
    v.push_back(-x);
  }
  for (const char* op : {"Exp", "Sigmoid", "Tanh", "Erf"}) {
    ExpectMatchesRef(OpCase{op, {Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())})}}, "exec.unary_f32",
                     kMathTol);
  }
}

// Every loop build the CPU has (AVX-512, AVX2, baseline), each on the special values and a dense range.
TEST(UnaryKernel, EveryLoopBuildMatchesRef) {
  std::vector<float> v = SpecialValues();
  for (float x = -12.0f; x <= 12.0f; x += 0.00917f) v.push_back(x);
  const Tensor t = Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())});
  for (const char* op : kFloatOps) {
    OpCase c{op, {t}};
    auto want = RunRef(c);
    ASSERT_TRUE(want.ok()) << op;
    for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
      SCOPED_TRACE(std::string(op) + " at " + IsaLevelName(isa));
      auto p = PrepareCase(c);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      (*p)->request.max_isa = isa;
      (*p)->kernel = PrepareUnary((*p)->request);
      ASSERT_NE((*p)->kernel, nullptr);
      auto binding = (*p)->kernel->NewBinding();
      ASSERT_TRUE(binding.ok());
      (*binding)->io = (*p)->binding->io;
      (*p)->binding = std::move(*binding);
      ASSERT_TRUE((*p)->Run().ok());
      ExpectTensorNear((*p)->outputs[0], (*want)[0].tensor, kMathTol, op);
    }
  }
}

// ge::Gelu (GeluFusion's node): float32 within 1e-6 relative, or 2e-7 absolute where 1 + erf cancels (x < -3),
// against the reference, which follows the unfused nodes' rounding; float64 exactly.
TEST(UnaryKernel, GeGelu) {
  std::vector<float> v = SpecialValues();
  for (float x = -12.0f; x <= 12.0f; x += 0.00917f) v.push_back(x);
  for (DataType dt : {DataType::kFloat, DataType::kDouble}) {
    Tensor t = Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())});
    if (dt == DataType::kDouble) {
      Tensor d = Tensor::Create(DataType::kDouble, t.dims()).value();
      for (int64_t i = 0; i < t.numel(); ++i) d.data<double>()[i] = t.data<float>()[i];
      t = d;
    }
    OpCase c{"Gelu", {t}};
    c.domain = "ge";
    auto want = RunRef(c);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
      SCOPED_TRACE(std::string(DataTypeName(dt)) + " at " + IsaLevelName(isa));
      auto p = PrepareCase(c);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      EXPECT_STREQ((*p)->kernel->impl_name(), dt == DataType::kFloat ? "exec.unary_f32" : "exec.unary_f64");
      (*p)->request.max_isa = isa;
      (*p)->kernel = PrepareUnary((*p)->request);
      auto binding = (*p)->kernel->NewBinding();
      ASSERT_TRUE(binding.ok());
      (*binding)->io = (*p)->binding->io;
      (*p)->binding = std::move(*binding);
      ASSERT_TRUE((*p)->Run().ok());
      const double atol = dt == DataType::kFloat ? 2e-7 : 0.0, rtol = dt == DataType::kFloat ? 1e-6 : 0.0;
      EXPECT_TRUE(TensorsMatch((*p)->outputs[0], (*want)[0].tensor, Tolerance{atol, rtol, true}));
    }
  }
}

TEST(UnaryKernel, Float64MatchesRef) {
  std::mt19937 rng(2);
  for (const char* op : kFloatOps) {
    OpCase c{op, {RandomTensor(DataType::kDouble, {3, 5}, rng)}};
    ExpectMatchesRef(c, "exec.unary_f64", kMathTol);
  }
}

TEST(UnaryKernel, IntegersForReluNegAbsSignIncludingWrapAround) {
  for (DataType dt : {DataType::kInt32, DataType::kInt64}) {
    std::mt19937 rng(3);
    Tensor t = RandomTensor(dt, {4, 9}, rng, -100, 100);
    Tensor edge = dt == DataType::kInt32
                      ? Tensor::FromVector<int32_t>(
                            {std::numeric_limits<int32_t>::min(), -1, 0, 1, std::numeric_limits<int32_t>::max()}, {5})
                      : Tensor::FromVector<int64_t>(
                            {std::numeric_limits<int64_t>::min(), -1, 0, 1, std::numeric_limits<int64_t>::max()}, {5});
    const char* impl = dt == DataType::kInt32 ? "exec.unary_i32" : "exec.unary_i64";
    for (const char* op : {"Relu", "Neg", "Abs", "Sign"}) {
      ExpectMatchesRef(OpCase{op, {t}}, impl, 0);
      ExpectMatchesRef(OpCase{op, {edge}}, impl, 0);
    }
  }
}

TEST(UnaryKernel, AttributesAreHonoured) {
  std::mt19937 rng(4);
  Tensor x = RandomTensor(DataType::kFloat, {5, 8}, rng);
  auto attrs = [](std::initializer_list<std::pair<const char*, float>> kv) {
    ir::AttrMap m;
    for (auto& [k, v] : kv) m.Set(k, ir::AttrValue::Float(v));
    return m;
  };
  ExpectMatchesRef(OpCase{"LeakyRelu", {x}, {}, attrs({{"alpha", 0.3f}})}, "exec.unary_f32", kMathTol);
  ExpectMatchesRef(OpCase{"Elu", {x}, {}, attrs({{"alpha", 0.7f}})}, "exec.unary_f32", kMathTol);
  ExpectMatchesRef(OpCase{"Selu", {x}, {}, attrs({{"alpha", 1.5f}, {"gamma", 2.0f}})}, "exec.unary_f32", kMathTol);
  ExpectMatchesRef(OpCase{"HardSigmoid", {x}, {}, attrs({{"alpha", 0.1f}, {"beta", 0.6f}})}, "exec.unary_f32",
                   kMathTol);
}

TEST(UnaryKernel, ClipBoundsFromConstantsOrAttributes) {
  std::mt19937 rng(5);
  Tensor x = RandomTensor(DataType::kFloat, {2, 3, 4}, rng);
  const Tensor lo = Tensor::Scalar<float>(-1.0f), hi = Tensor::Scalar<float>(0.5f);
  ExpectMatchesRef(OpCase{"Clip", {x, lo, hi}, {false, true, true}}, "exec.unary_f32", 0);
  ExpectMatchesRef(OpCase{"Clip", {x, lo}, {false, true}}, "exec.unary_f32", 0);
  ExpectMatchesRef(OpCase{"Clip", {x, Tensor(), hi}, {false, false, true}}, "exec.unary_f32", 0);
  ExpectMatchesRef(OpCase{"Clip", {x, hi, lo}, {false, true, true}}, "exec.unary_f32", 0);  // min > max
  ir::AttrMap old;
  old.Set("min", ir::AttrValue::Float(-0.25f));
  old.Set("max", ir::AttrValue::Float(2.0f));
  ExpectMatchesRef(OpCase{"Clip", {x}, {}, old, 1, 6}, "exec.unary_f32", 0);
  // Bounds that are not constant: the ref adapter reads them at run time.
  ExpectMatchesRef(OpCase{"Clip", {x, lo, hi}, {false, false, true}}, "ref", 0);
}

TEST(UnaryKernel, PowWithAConstantScalarExponent) {
  std::mt19937 rng(6);
  Tensor x = RandomTensor(DataType::kFloat, {4, 16}, rng);
  Tensor xpos = RandomTensor(DataType::kFloat, {4, 16}, rng, 0.01, 5);
  std::vector<float> special = SpecialValues();
  Tensor xs = Tensor::FromVector<float>(special, {static_cast<int64_t>(special.size())});
  for (float e : {2.0f, 1.0f, 0.5f, 3.0f, -1.0f, 0.0f, 1.7f}) {
    for (const Tensor& base : {x, xpos, xs}) {
      ExpectMatchesRef(OpCase{"Pow", {base, Tensor::Scalar<float>(e)}, {false, true}}, "exec.unary_f32", kMathTol);
    }
  }
  ExpectMatchesRef(OpCase{"Pow", {x, Tensor::FromVector<int64_t>({2}, {1})}, {false, true}}, "exec.unary_f32",
                   kMathTol);
  ExpectMatchesRef(OpCase{"Pow",
                          {Tensor::FromVector<float>({1.5f, -2, 3}, {3}), Tensor::FromVector<float>({3}, {1, 1})},
                          {false, true}},
                   "exec.unary_f32", kMathTol);  // the exponent's rank wins: output [1,3]
  ExpectMatchesRef(
      OpCase{"Pow", {RandomTensor(DataType::kDouble, {9}, rng), Tensor::Scalar<double>(2.0)}, {false, true}},
      "exec.unary_f64", kMathTol);
  // A non-constant or non-scalar exponent, or an integer base: ref.
  ExpectMatchesRef(OpCase{"Pow", {x, Tensor::Scalar<float>(2.0f)}}, "ref", kMathTol);
  ExpectMatchesRef(OpCase{"Pow", {x, RandomTensor(DataType::kFloat, {16}, rng)}, {false, true}}, "ref", kMathTol);
  ExpectMatchesRef(OpCase{"Pow", {RandomTensor(DataType::kInt32, {5}, rng), Tensor::Scalar<int32_t>(2)}, {false, true}},
                   "ref", 0);
}

TEST(UnaryKernel, UnsupportedDtypesFallBackToRef) {
  std::mt19937 rng(7);
  ExpectMatchesRef(OpCase{"Relu", {RandomTensor(DataType::kInt8, {6}, rng, -50, 50)}}, "ref", 0);
  Tensor half = Tensor::Create(DataType::kFloat16, {4}).value();
  ExpectMatchesRef(OpCase{"Sigmoid", {half}}, "ref", 0);
}

TEST(UnaryKernel, InPlaceSlots) {
  std::mt19937 rng(8);
  OpCase c{"Sigmoid", {RandomTensor(DataType::kFloat, {3, 40}, rng)}};
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Tensor buf = (*p)->inputs[0];
  (*p)->binding->io.outputs[0] = buf.raw_data();  // the planner placed y on x
  ASSERT_TRUE((*p)->Run().ok());
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok());
  ExpectTensorNear(buf, (*want)[0].tensor, kMathTol, "in place");
}

TEST(UnaryKernel, LargeTensorOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(9);
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Clip", "Erf", "Exp"}) {
    ExpectMatchesRef(OpCase{op, {RandomTensor(DataType::kFloat, {3, 100003}, rng)}}, "exec.unary_f32", kMathTol,
                     pool->get());
  }
}

}  // namespace
}  // namespace ge::exec::testing
