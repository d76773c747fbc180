#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester FusedTester() { return OpTester(ops::RegisterFusedOps, RegisterFusedRefKernels); }
OpTester NnTester() { return OpTester(ops::RegisterNnOps, RegisterNnRefKernels); }
OpTester MathTester() { return OpTester(ops::RegisterMathOps, RegisterMathRefKernels); }

StatusOr<Tensor> RunFused(OpTester& t, const std::string& op, const std::vector<Tensor>& in, const ir::AttrMap& a) {
  GE_ASSIGN_OR_RETURN(std::vector<Value> outs, t.Run(op, in, a, 1, 1, "ge"));
  return outs[0].tensor;
}

Tensor Random(DataType dt, const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  Tensor t = Tensor::Create(dt, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) {
    float v = dist(rng);
    switch (dt) {
      case DataType::kFloat:
        t.data<float>()[i] = v;
        break;
      case DataType::kDouble:
        t.data<double>()[i] = v;
        break;
      case DataType::kFloat16:
        t.data<float16>()[i] = float16(v);
        break;
      default:
        t.data<bfloat16>()[i] = bfloat16(v);
        break;
    }
  }
  return t;
}

struct Act {
  std::string name;
  std::vector<float> params;
  std::function<double(double)> f;
};

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

std::vector<Act> Activations() {
  return {
      {"", {}, [](double x) { return x; }},
      {"Relu", {}, [](double x) { return x < 0 ? 0.0 : x; }},
      {"LeakyRelu", {0.1f}, [](double x) { return x < 0 ? 0.1f * x : x; }},
      {"LeakyRelu", {}, [](double x) { return x < 0 ? 0.01f * x : x; }},
      {"Clip", {-0.5f, 1.5f}, [](double x) { return std::min(std::max(x, -0.5), 1.5); }},
      {"Sigmoid", {}, Sigmoid},
      {"Tanh", {}, [](double x) { return std::tanh(x); }},
      {"HardSigmoid", {0.25f, 0.4f}, [](double x) { return std::max(0.0, std::min(1.0, 0.25 * x + 0.4f)); }},
      {"HardSwish", {}, [](double x) { return x * std::max(0.0, std::min(1.0, (1.0f / 6.0f) * x + 0.5)); }},
      {"Elu", {0.7f}, [](double x) { return x < 0 ? 0.7f * std::expm1(x) : x; }},
      {"Gelu", {}, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
      {"Silu", {}, [](double x) { return x * Sigmoid(x); }},
  };
}

void SetActivation(const Act& act, ir::AttrMap* a) {
  a->Set("activation", ir::AttrValue::String(act.name));
  if (!act.params.empty()) a->Set("activation_params", ir::AttrValue::Floats(act.params));
}

// |got - f(base + add)| within tol relative, element by element (base, add: the unfused op's outputs).
void ExpectEpilogue(const Tensor& got, const Tensor& base, const Tensor* add, int64_t period, const Act& act,
                    double tol) {
  ASSERT_EQ(got.dims(), base.dims());
  for (int64_t i = 0; i < got.numel(); ++i) {
    double v = base.GetAsDouble(i);
    if (add) v += add->GetAsDouble(period > 0 ? i % period : i);
    double want = act.f(v);
    ASSERT_NEAR(got.GetAsDouble(i), want, tol * (1 + std::fabs(want))) << act.name << " at " << i;
  }
}

TEST(FusedConv, EveryActivationWithBiasAndSum) {
  auto fused = FusedTester();
  auto nn = NnTester();
  ir::AttrMap conv;
  conv.Set("pads", ir::AttrValue::Ints({1, 0, 1, 0}));
  conv.Set("strides", ir::AttrValue::Ints({1, 2}));
  for (DataType dt : {DataType::kFloat, DataType::kDouble, DataType::kFloat16}) {
    Tensor x = Random(dt, {2, 3, 5, 6}, 1), w = Random(dt, {4, 3, 3, 2}, 2), b = Random(dt, {4}, 3);
    Tensor base = nn.Run1("Conv", {x, w, b}, conv).value();
    Tensor sum = Random(dt, base.dims(), 4);
    const double tol = dt == DataType::kFloat16 ? 2e-3 : dt == DataType::kFloat ? 1e-6 : 1e-12;
    for (const Act& act : Activations()) {
      ir::AttrMap a = conv;
      SetActivation(act, &a);
      auto with_sum = RunFused(fused, "FusedConv", {x, w, b, sum}, a);
      ASSERT_TRUE(with_sum.ok()) << with_sum.status().ToString();
      EXPECT_EQ(with_sum->dtype(), dt);
      ExpectEpilogue(*with_sum, base, &sum, 0, act, tol);
      auto plain = RunFused(fused, "FusedConv", {x, w, b}, a);
      ASSERT_TRUE(plain.ok()) << plain.status().ToString();
      ExpectEpilogue(*plain, base, nullptr, 0, act, tol);
    }
  }
}

// Each step rounds to float16 as the separate Conv, Add and Relu nodes would store their outputs.
TEST(FusedConv, Float16RoundsAfterEveryStep) {
  auto fused = FusedTester();
  auto nn = NnTester();
  Tensor x = Random(DataType::kFloat16, {1, 2, 4, 4}, 5), w = Random(DataType::kFloat16, {3, 2, 3, 3}, 6);
  ir::AttrMap a;
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  Tensor base = nn.Run1("Conv", {x, w}, a).value();
  Tensor sum = Random(DataType::kFloat16, base.dims(), 7);
  a.Set("activation", ir::AttrValue::String("Relu"));
  auto y = RunFused(fused, "FusedConv", {x, w, Tensor(), sum}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  for (int64_t i = 0; i < y->numel(); ++i) {
    float s = static_cast<float>(
        float16(static_cast<float>(base.data<float16>()[i]) + static_cast<float>(sum.data<float16>()[i])));
    EXPECT_EQ(static_cast<float>(y->data<float16>()[i]), s < 0 ? 0.f : s) << i;
  }
}

TEST(FusedBatchNormalization, EveryActivation) {
  auto fused = FusedTester();
  auto nn = NnTester();
  Tensor x = Random(DataType::kFloat, {2, 3, 4, 5}, 21), scale = Random(DataType::kFloat, {3}, 22);
  Tensor bias = Random(DataType::kFloat, {3}, 23), mean = Random(DataType::kFloat, {3}, 24);
  Tensor var = Tensor::FromVector<float>({0.5f, 1.5f, 2.f}, {3});
  ir::AttrMap bn;
  bn.Set("epsilon", ir::AttrValue::Float(1e-3f));
  Tensor base = nn.Run1("BatchNormalization", {x, scale, bias, mean, var}, bn).value();
  for (const Act& act : Activations()) {
    ir::AttrMap a = bn;
    SetActivation(act, &a);
    auto y = RunFused(fused, "FusedBatchNormalization", {x, scale, bias, mean, var}, a);
    ASSERT_TRUE(y.ok()) << y.status().ToString();
    ExpectEpilogue(*y, base, nullptr, 0, act, 1e-6);
  }
  bn.Set("training_mode", ir::AttrValue::Int(1));
  EXPECT_FALSE(RunFused(fused, "FusedBatchNormalization", {x, scale, bias, mean, var}, bn).ok());
}

TEST(FusedGemm, MatchesGemmThenActivation) {
  auto fused = FusedTester();
  auto math = MathTester();
  Tensor a = Random(DataType::kFloat, {5, 3}, 8), b = Random(DataType::kFloat, {4, 5}, 9);
  Tensor c = Random(DataType::kFloat, {4}, 10);
  ir::AttrMap g;
  g.Set("transA", ir::AttrValue::Int(1));
  g.Set("transB", ir::AttrValue::Int(1));
  g.Set("alpha", ir::AttrValue::Float(0.5f));
  g.Set("beta", ir::AttrValue::Float(2.f));
  for (bool with_c : {true, false}) {
    std::vector<Tensor> in = {a, b};
    if (with_c) in.push_back(c);
    Tensor base = math.Run1("Gemm", in, g).value();
    for (const Act& act : Activations()) {
      ir::AttrMap attrs = g;
      SetActivation(act, &attrs);
      auto y = RunFused(fused, "FusedGemm", in, attrs);
      ASSERT_TRUE(y.ok()) << y.status().ToString();
      ExpectEpilogue(*y, base, nullptr, 0, act, 1e-6);
    }
  }
}

TEST(FusedMatMul, BatchedWithBiasOverTheLastDim) {
  auto fused = FusedTester();
  auto math = MathTester();
  Tensor a = Random(DataType::kFloat, {2, 3, 4}, 11), b = Random(DataType::kFloat, {4, 5}, 12);
  Tensor bias = Random(DataType::kFloat, {5}, 13);
  Tensor base = math.Run1("MatMul", {a, b}).value();
  for (const Act& act : Activations()) {
    ir::AttrMap attrs;
    SetActivation(act, &attrs);
    auto y = RunFused(fused, "FusedMatMul", {a, b, bias}, attrs);
    ASSERT_TRUE(y.ok()) << y.status().ToString();
    ExpectEpilogue(*y, base, &bias, 5, act, 1e-6);
    auto no_bias = RunFused(fused, "FusedMatMul", {a, b}, attrs);
    ASSERT_TRUE(no_bias.ok()) << no_bias.status().ToString();
    ExpectEpilogue(*no_bias, base, nullptr, 0, act, 1e-6);
  }
  // Without activation and bias the result is MatMul's, bit for bit.
  EXPECT_TRUE(TensorsMatch(RunFused(fused, "FusedMatMul", {a, b}, {}).value(), base, 0.0));
}

TEST(FusedOps, Inference) {
  auto t = FusedTester();
  ir::AttrMap a;
  a.Set("activation", ir::AttrValue::String("Relu"));
  TensorDesc x(DataType::kFloat, Shape(Dims{kUnknownDim, 3, 8, 8})), w(DataType::kFloat, Shape(Dims{4, 3, 3, 3}));
  TensorDesc sum(DataType::kFloat, Shape(Dims{2, 4, 6, 6}));
  auto conv = t.InferOnly("FusedConv", {x, w, TensorDesc(DataType::kFloat, Shape(Dims{4})), sum}, {}, a, 1, 1, "ge");
  ASSERT_TRUE(conv.ok()) << conv.status().ToString();
  EXPECT_EQ((*conv)[0].shape.dims(), (Dims{2, 4, 6, 6}));  // the batch comes from Sum
  // Gemm's C is optional whatever opset the model imports for "ge".
  auto gemm = t.InferOnly(
      "FusedGemm", {TensorDesc(DataType::kFloat, Shape(Dims{2, 3})), TensorDesc(DataType::kFloat, Shape(Dims{3, 5}))},
      {}, a, 1, 1, "ge");
  ASSERT_TRUE(gemm.ok()) << gemm.status().ToString();
  EXPECT_EQ((*gemm)[0].shape.dims(), (Dims{2, 5}));
  auto mm = t.InferOnly("FusedMatMul",
                        {TensorDesc(DataType::kFloat, Shape(Dims{7, 2, 3})),
                         TensorDesc(DataType::kFloat, Shape(Dims{3, 5})), TensorDesc(DataType::kFloat, Shape(Dims{5}))},
                        {}, a, 1, 1, "ge");
  ASSERT_TRUE(mm.ok()) << mm.status().ToString();
  EXPECT_EQ((*mm)[0].shape.dims(), (Dims{7, 2, 5}));
}

TEST(FusedOps, InferenceErrors) {
  auto t = FusedTester();
  TensorDesc a(DataType::kFloat, Shape(Dims{2, 3})), b(DataType::kFloat, Shape(Dims{3, 5}));
  auto expect_error = [&](const std::string& op, const std::vector<TensorDesc>& in, const ir::AttrMap& attrs,
                          const std::string& words) {
    auto r = t.InferOnly(op, in, {}, attrs, 1, 1, "ge");
    ASSERT_FALSE(r.ok()) << op;
    EXPECT_NE(r.status().message().find(words), std::string::npos) << r.status().ToString();
  };
  ir::AttrMap unknown;
  unknown.Set("activation", ir::AttrValue::String("Swish"));
  expect_error("FusedMatMul", {a, b}, unknown, "unknown activation 'Swish'");
  ir::AttrMap params;
  params.Set("activation", ir::AttrValue::String("Clip"));
  params.Set("activation_params", ir::AttrValue::Floats({0.f}));
  expect_error("FusedGemm", {a, b}, params, "takes 2 (min, max) activation_params, got 1");
  ir::AttrMap relu_params;
  relu_params.Set("activation", ir::AttrValue::String("Relu"));
  relu_params.Set("activation_params", ir::AttrValue::Floats({1.f}));
  expect_error("FusedGemm", {a, b}, relu_params, "takes none");
  expect_error("FusedMatMul", {a, b, TensorDesc(DataType::kFloat, Shape(Dims{3}))}, {}, "last dim 5");
  expect_error("FusedMatMul", {a, b, TensorDesc(DataType::kFloat, Shape(Dims{1, 5}))}, {}, "must be 1-D");
  expect_error("FusedMatMul", {a, b, TensorDesc(DataType::kDouble, Shape(Dims{5}))}, {}, "dtype");
  expect_error("FusedMatMul",
               {TensorDesc(DataType::kInt32, Shape(Dims{2, 3})), TensorDesc(DataType::kInt32, Shape(Dims{3, 5}))}, {},
               "floating-point");
  TensorDesc x(DataType::kFloat, Shape(Dims{1, 3, 8, 8})), w(DataType::kFloat, Shape(Dims{4, 3, 3, 3}));
  TensorDesc bias(DataType::kFloat, Shape(Dims{4}));
  expect_error("FusedConv", {x, w, bias, TensorDesc(DataType::kFloat, Shape(Dims{1, 4, 6, 5}))}, {},
               "Sum [1,4,6,5] must have Y's shape [1,4,6,6]");
}

TEST(FusedOps, SqueezeExciteInferenceErrors) {
  auto t = FusedTester();
  const TensorDesc x(DataType::kFloat, Shape(Dims{1, 8, 5, 5}));
  const TensorDesc w1(DataType::kFloat, Shape(Dims{2, 8, 1, 1})), b1(DataType::kFloat, Shape(Dims{2}));
  const TensorDesc w2(DataType::kFloat, Shape(Dims{8, 2, 1, 1})), b2(DataType::kFloat, Shape(Dims{8}));
  auto infer = [&](const std::vector<TensorDesc>& in) { return t.InferOnly("SqueezeExcite", in, {}, {}, 1, 1, "ge"); };
  auto ok = infer({x, w1, b1, w2, b2});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  auto expect_error = [&](const std::vector<TensorDesc>& in, const std::string& words) {
    auto r = infer(in);
    ASSERT_FALSE(r.ok()) << words;
    EXPECT_NE(r.status().message().find(words), std::string::npos) << r.status().ToString();
  };
  expect_error({x, TensorDesc(DataType::kDouble, Shape(Dims{2, 8, 1, 1})), b1, w2, b2}, "W1 must be float32");
  expect_error({x, w1, b1, TensorDesc(DataType::kFloat16, Shape(Dims{8, 2, 1, 1})), b2}, "W2 must be float32");
  expect_error({x, w1, TensorDesc(DataType::kInt32, Shape(Dims{2})), w2, b2}, "B1 must be float32");
  expect_error({x, w1, b1, TensorDesc(DataType::kFloat, Shape(Dims{8, 3, 1, 1})), b2}, "W2 [8,3,1,1]");
}

// ge::Gelu(X, B): the sum rounded as Add rounds it, then the GELU of one input.
TEST(GeGelu, WithBIsTheGeluOfTheSum) {
  auto t = FusedTester();
  Tensor x = Random(DataType::kFloat, {2, 3, 5}, 4), b = Random(DataType::kFloat, {3, 1}, 5);
  Tensor sum = Tensor::Create(DataType::kFloat, {2, 3, 5}).value();
  for (int64_t i = 0; i < sum.numel(); ++i) sum.data<float>()[i] = x.data<float>()[i] + b.data<float>()[(i / 5) % 3];
  auto fused = RunFused(t, "Gelu", {x, b}, {});
  auto plain = RunFused(t, "Gelu", {sum}, {});
  ASSERT_TRUE(fused.ok() && plain.ok()) << fused.status().ToString() << plain.status().ToString();
  for (int64_t i = 0; i < sum.numel(); ++i) EXPECT_EQ(fused->data<float>()[i], plain->data<float>()[i]) << i;
  auto inferred = t.InferOnly(
      "Gelu", {TensorDesc(DataType::kFloat, Shape(Dims{2, 3, 5})), TensorDesc(DataType::kFloat, Shape(Dims{3, 1}))}, {},
      {}, 1, 1, "ge");
  ASSERT_TRUE(inferred.ok()) << inferred.status().ToString();
  EXPECT_EQ((*inferred)[0].shape.dims(), (Dims{2, 3, 5}));
  // B must broadcast to X (not X to B) and have its dtype.
  auto wide = t.InferOnly(
      "Gelu", {TensorDesc(DataType::kFloat, Shape(Dims{3, 1})), TensorDesc(DataType::kFloat, Shape(Dims{2, 3, 5}))}, {},
      {}, 1, 1, "ge");
  EXPECT_FALSE(wide.ok());
  auto dtype = t.InferOnly(
      "Gelu", {TensorDesc(DataType::kFloat, Shape(Dims{2, 3})), TensorDesc(DataType::kDouble, Shape(Dims{3}))}, {}, {},
      1, 1, "ge");
  EXPECT_FALSE(dtype.ok());
  EXPECT_FALSE(RunFused(t, "Gelu", {x, Random(DataType::kFloat, {4}, 6)}, {}).ok());
}

TEST(FusedOps, KernelErrors) {
  auto t = FusedTester();
  Tensor x = Random(DataType::kFloat, {1, 2, 4, 4}, 1), w = Random(DataType::kFloat, {2, 2, 1, 1}, 2);
  // Inference catches most mismatches first; the kernel checks what it is given all the same.
  auto bad_sum = RunFused(t, "FusedConv", {x, w, Tensor(), Random(DataType::kFloat, {1, 2, 4, 3}, 3)}, {});
  EXPECT_FALSE(bad_sum.ok());
  ir::AttrMap a;
  a.Set("activation", ir::AttrValue::String("Relu6"));
  EXPECT_FALSE(RunFused(t, "FusedConv", {x, w}, a).ok());
}

}  // namespace
}  // namespace ge::ref
