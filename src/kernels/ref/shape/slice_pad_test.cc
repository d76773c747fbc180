#include "kernels/ref/shape/shape_test_util.h"

namespace ge::ref::shape_family::testing {
namespace {

using ir::AttrValue;

Tensor IotaF(const Dims& dims) {
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

TEST(SliceTest, StepsAndClamping) {
  OpTester t = MakeTester();
  Tensor x = IotaF({3, 4});
  auto y = t.Run1("Slice", {x, I64({0, 1}), I64({1000, 3}), I64({0, 1}), I64({2, 1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<float>({1, 2, 9, 10}, {2, 2}));
  // Negative step from the end, whole axis reversed.
  auto r = t.Run1("Slice", {x, I64({-1}), I64({INT64_MIN}), I64({1}), I64({-1})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TENSOR_EQ(*r, Tensor::FromVector<float>({3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}, {3, 4}));
  auto e = t.Run1("Slice", {x, I64({10}), I64({20})});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->dims(), (Dims{0, 4}));
  EXPECT_FALSE(t.Run1("Slice", {x, I64({0}), I64({1}), I64({0}), I64({0})}).ok());
  EXPECT_FALSE(t.Run1("Slice", {x, I64({0}), I64({1}), I64({2})}).ok());
}

TEST(SliceTest, AttributesBeforeOpset10) {
  OpTester t = MakeTester();
  Tensor x = IotaF({3, 4});
  auto y = t.Run1("Slice", {x},
                  Attrs({{"starts", AttrValue::Ints({1})}, {"ends", AttrValue::Ints({-1})},
                         {"axes", AttrValue::Ints({1})}}),
                  9);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<float>({1, 2, 5, 6, 9, 10}, {3, 2}));
}

TEST(SliceTest, Inference) {
  Tensor starts = I64({0}), ends = I64({INT64_MAX}), axes = I64({1});
  Shape in;
  in.AddDim(kUnknownDim, "b");
  in.AddDim(kUnknownDim, "s");
  in.AddDim(8);
  TensorDesc x(DataType::kFloat, in);
  TensorDesc i64 = Desc(DataType::kInt64, {1});
  auto out = Infer("Slice", {x, i64, i64, i64}, {nullptr, &starts, &ends, &axes});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), "[b,s,8]");
  Tensor s2 = I64({2}), e2 = I64({-1}), a2 = I64({2});
  auto out2 = Infer("Slice", {x, i64, i64, i64}, {nullptr, &s2, &e2, &a2});
  ASSERT_TRUE(out2.ok());
  EXPECT_EQ((*out2)[0].shape.ToString(), "[b,s,5]");
  auto out3 = Infer("Slice", {x, i64, i64, i64}, {nullptr, nullptr, nullptr, &a2});
  ASSERT_TRUE(out3.ok());
  EXPECT_EQ((*out3)[0].shape.ToString(), "[b,s,?]");
}

TEST(PadTest, Modes) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3}, {1, 3});
  Tensor pads = I64({0, 2, 0, 1});
  auto c = t.Run1("Pad", {x, pads, Tensor::Scalar<float>(9)});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TENSOR_EQ(*c, Tensor::FromVector<float>({9, 9, 1, 2, 3, 9}, {1, 6}));
  auto r = t.Run1("Pad", {x, pads}, Attrs({{"mode", AttrValue::String("reflect")}}));
  ASSERT_TRUE(r.ok());
  EXPECT_TENSOR_EQ(*r, Tensor::FromVector<float>({3, 2, 1, 2, 3, 2}, {1, 6}));
  auto e = t.Run1("Pad", {x, pads}, Attrs({{"mode", AttrValue::String("edge")}}));
  ASSERT_TRUE(e.ok());
  EXPECT_TENSOR_EQ(*e, Tensor::FromVector<float>({1, 1, 1, 2, 3, 3}, {1, 6}));
  auto neg = t.Run1("Pad", {x, I64({0, -1, 0, 1})});
  ASSERT_TRUE(neg.ok());
  EXPECT_TENSOR_EQ(*neg, Tensor::FromVector<float>({2, 3, 0}, {1, 3}));
  auto old = t.Run1("Pad", {x}, Attrs({{"pads", AttrValue::Ints({0, 1, 0, 0})}, {"value", AttrValue::Float(5)}}), 2);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_TENSOR_EQ(*old, Tensor::FromVector<float>({5, 1, 2, 3}, {1, 4}));
  EXPECT_FALSE(t.Run1("Pad", {x, I64({0, 1})}).ok());
  EXPECT_FALSE(t.Run1("Pad", {x, I64({0, -4, 0, 0})}).ok());
}

TEST(PadTest, IntegerTypesAndInference) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<int64_t>({1, 2, 3, 4}, {2, 2});
  auto y = t.Run1("Pad", {x, I64({1, 0, 0, 1}), Tensor::Scalar<int64_t>(-7)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<int64_t>({-7, -7, -7, 1, 2, -7, 3, 4, -7}, {3, 3}));
  auto out = Infer("Pad", {Desc(DataType::kFloat, {-1, 3}), Desc(DataType::kInt64, {4})}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[?,?]");
}

}  // namespace
}  // namespace ge::ref::shape_family::testing
