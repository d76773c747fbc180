#include <cmath>
#include <limits>

#include "kernels/ref/elementwise/elementwise_test_util.h"

namespace ge::ref::elementwise::testing {
namespace {

std::vector<float> RunF(ge::ref::testing::OpTester& t, const char* op, const std::vector<float>& x,
                        const ir::AttrMap& attrs = ir::AttrMap()) {
  auto r = t.Run1(op, {Tensor::FromVector<float>(x, {static_cast<int64_t>(x.size())})}, attrs);
  EXPECT_TRUE(r.ok()) << op << ": " << r.status().ToString();
  return r.ok() ? Values<float>(*r) : std::vector<float>();
}

TEST(ElementwiseActivation, Values) {
  auto t = MakeTester();
  const std::vector<float> x = {-1.0f, 0.0f, 1.0f};
  EXPECT_FLOATS_NEAR(RunF(t, "Relu", x), (std::vector<float>{0, 0, 1}), 0);
  EXPECT_FLOATS_NEAR(RunF(t, "LeakyRelu", x, Attrs({{"alpha", ir::AttrValue::Float(0.1f)}})),
                     (std::vector<float>{-0.1f, 0, 1}), 1e-7);
  EXPECT_FLOATS_NEAR(RunF(t, "Elu", x, Attrs({{"alpha", ir::AttrValue::Float(2.0f)}})),
                     (std::vector<float>{-1.2642411f, 0, 1}), 1e-6);
  EXPECT_FLOATS_NEAR(
      RunF(t, "Selu", x, Attrs({{"alpha", ir::AttrValue::Float(2.0f)}, {"gamma", ir::AttrValue::Float(3.0f)}})),
      (std::vector<float>{-3.7927232f, 0, 3}), 1e-5);
  EXPECT_FLOATS_NEAR(RunF(t, "Sigmoid", x), (std::vector<float>{0.26894142f, 0.5f, 0.7310586f}), 1e-6);
  EXPECT_FLOATS_NEAR(
      RunF(t, "HardSigmoid", x, Attrs({{"alpha", ir::AttrValue::Float(0.5f)}, {"beta", ir::AttrValue::Float(0.6f)}})),
      (std::vector<float>{0.1f, 0.6f, 1.0f}), 1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "HardSwish", {-4.0f, 1.0f, 4.0f}), (std::vector<float>{0, 1.0f * (1.0f / 6 + 0.5f), 4}),
                     1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "Softplus", x), (std::vector<float>{0.31326166f, 0.6931472f, 1.3132616f}), 1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "Softsign", x), (std::vector<float>{-0.5f, 0, 0.5f}), 1e-7);
  EXPECT_FLOATS_NEAR(RunF(t, "ThresholdedRelu", {-1.0f, 1.0f, 2.5f}, Attrs({{"alpha", ir::AttrValue::Float(2.0f)}})),
                     (std::vector<float>{0, 0, 2.5f}), 0);
  EXPECT_FLOATS_NEAR(RunF(t, "Celu", x, Attrs({{"alpha", ir::AttrValue::Float(2.0f)}})),
                     (std::vector<float>{2.0f * (std::exp(-0.5f) - 1), 0, 1}), 1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "Mish", x), (std::vector<float>{-0.30340147f, 0, 0.86509836f}), 1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "Shrink", {-2.0f, -0.5f, 0.2f, 1.5f},
                          Attrs({{"lambd", ir::AttrValue::Float(1.0f)}, {"bias", ir::AttrValue::Float(0.5f)}})),
                     (std::vector<float>{-1.5f, 0, 0, 1.0f}), 0);
  // Large inputs stay finite.
  EXPECT_FLOATS_NEAR(RunF(t, "Softplus", {100.0f, -100.0f}), (std::vector<float>{100.0f, 0.0f}), 1e-6);
  EXPECT_FLOATS_NEAR(RunF(t, "Sigmoid", {-100.0f, 100.0f}), (std::vector<float>{0.0f, 1.0f}), 1e-6);
}

TEST(ElementwiseActivation, IntegerRelu) {
  auto t = MakeTester();
  auto r = t.Run1("Relu", {Tensor::FromVector<int8_t>({-5, 0, 5}, {3})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Values<int8_t>(*r), (std::vector<int8_t>{0, 0, 5}));
}

TEST(ElementwiseActivation, PRelu) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({-1, 2, -3, 4, -5, 6}, {2, 3});
  auto r = t.Run1("PRelu", {x, Tensor::FromVector<float>({0.1f, 0.2f, 0.3f}, {3})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FLOATS_NEAR(Values<float>(*r), (std::vector<float>{-0.1f, 2, -0.9f, 4, -1.0f, 6}), 1e-6);
  auto i = t.Run1("PRelu", {Tensor::FromVector<int32_t>({-4, 4}, {2}), Tensor::FromVector<int32_t>({3}, {1})});
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(Values<int32_t>(*i), (std::vector<int32_t>{-12, 4}));
  // The slope must broadcast to X, not the other way round.
  EXPECT_FALSE(t.Run1("PRelu", {Tensor::FromVector<float>({1}, {1}), Tensor::FromVector<float>({1, 2}, {2})}).ok());
}

TEST(ElementwiseActivation, ClipInputsAndAttrs) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({-2, -1, 0, 1, 2}, {5});
  auto r = t.Run1("Clip", {x, Tensor::Scalar<float>(-1), Tensor::Scalar<float>(1)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FLOATS_NEAR(Values<float>(*r), (std::vector<float>{-1, -1, 0, 1, 1}), 0);
  auto only_max = t.Run1("Clip", {x, Tensor(), Tensor::Scalar<float>(0.5f)});
  ASSERT_TRUE(only_max.ok()) << only_max.status().ToString();
  EXPECT_FLOATS_NEAR(Values<float>(*only_max), (std::vector<float>{-2, -1, 0, 0.5f, 0.5f}), 0);
  auto legacy = t.Run1("Clip", {x}, Attrs({{"min", ir::AttrValue::Float(-0.5f)}}), 6);
  ASSERT_TRUE(legacy.ok()) << legacy.status().ToString();
  EXPECT_FLOATS_NEAR(Values<float>(*legacy), (std::vector<float>{-0.5f, -0.5f, 0, 1, 2}), 0);
  auto ints = t.Run1("Clip", {Tensor::FromVector<int8_t>({-100, 5, 100}, {3}), Tensor::Scalar<int8_t>(-10)});
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(Values<int8_t>(*ints), (std::vector<int8_t>{-10, 5, 100}));
  // min > max: everything becomes max.
  auto swapped = t.Run1("Clip", {x, Tensor::Scalar<float>(1), Tensor::Scalar<float>(-1)});
  ASSERT_TRUE(swapped.ok());
  EXPECT_FLOATS_NEAR(Values<float>(*swapped), (std::vector<float>{-1, -1, -1, -1, -1}), 0);
  EXPECT_FALSE(t.Run1("Clip", {x, Tensor::FromVector<float>({0, 1}, {2})}).ok());
  EXPECT_FALSE(t.Run1("Clip", {x, Tensor::Scalar<double>(0)}).ok());
}

TEST(ElementwiseActivation, HalfTypes) {
  auto t = MakeTester();
  auto r = t.Run1("Relu", {HalfTensor<float16>({-1.0f, 3.0f}, {2})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dtype(), DataType::kFloat16);
  EXPECT_FLOATS_NEAR(AsFloats(*r), (std::vector<float>{0, 3}), 0);
  auto s = t.Run1("Sigmoid", {Tensor::FromVector<double>({0.0}, {1})});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->data<double>()[0], 0.5);
}

TEST(ElementwiseActivation, BadInputs) {
  auto t = MakeTester();
  EXPECT_FALSE(t.Run1("Sigmoid", {Tensor::FromVector<int32_t>({1}, {1})}).ok());
  EXPECT_FALSE(t.Run1("Relu", {Tensor::FromVector<bool>({true}, {1})}).ok());
}

}  // namespace
}  // namespace ge::ref::elementwise::testing
