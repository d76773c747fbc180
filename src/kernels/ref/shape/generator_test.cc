#include "kernels/ref/shape/shape_test_util.h"

namespace ge::ref::shape_family::testing {
namespace {

using ir::AttrValue;

TEST(ConstantTest, ValueAttributes) {
  OpTester t = MakeTester();
  Tensor v = Tensor::FromVector<float>({1.5f, 2.5f}, {2});
  auto y = t.Run1("Constant", {}, Attrs({{"value", AttrValue::TensorValue(v)}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, v);
  auto f = t.Run1("Constant", {}, Attrs({{"value_float", AttrValue::Float(3)}}));
  ASSERT_TRUE(f.ok());
  EXPECT_TENSOR_EQ(*f, Tensor::Scalar<float>(3));
  auto is = t.Run1("Constant", {}, Attrs({{"value_ints", AttrValue::Ints({4, 5})}}));
  ASSERT_TRUE(is.ok());
  EXPECT_TENSOR_EQ(*is, I64({4, 5}));
  auto s = t.Run1("Constant", {}, Attrs({{"value_strings", AttrValue::Strings({"a", "bc"})}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->data<std::string>()[1], "bc");
  EXPECT_FALSE(t.Run1("Constant", {}).ok());
  EXPECT_FALSE(
      t.Run1("Constant", {}, Attrs({{"value_int", AttrValue::Int(1)}, {"value_float", AttrValue::Float(1)}})).ok());
}

TEST(ConstantOfShapeTest, ValueAndDefault) {
  OpTester t = MakeTester();
  auto y = t.Run1("ConstantOfShape", {I64({2, 3})});
  ASSERT_TRUE(y.ok());
  EXPECT_TENSOR_EQ(*y, Tensor::Create(DataType::kFloat, {2, 3}).value());
  auto i = t.Run1("ConstantOfShape", {I64({2})},
                  Attrs({{"value", AttrValue::TensorValue(Tensor::FromVector<int32_t>({7}, {1}))}}));
  ASSERT_TRUE(i.ok());
  EXPECT_TENSOR_EQ(*i, Tensor::FromVector<int32_t>({7, 7}, {2}));
  auto z = t.Run1("ConstantOfShape", {I64({0})});
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->numel(), 0);
  EXPECT_FALSE(t.Run1("ConstantOfShape", {I64({-1})}).ok());
  auto out = Infer("ConstantOfShape", {Desc(DataType::kInt64, {3})}, {nullptr});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[?,?,?]");
}

TEST(RangeTest, Types) {
  OpTester t = MakeTester();
  auto f = t.Run1("Range", {Tensor::Scalar<float>(1), Tensor::Scalar<float>(5), Tensor::Scalar<float>(1.5f)});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_TENSOR_EQ(*f, Tensor::FromVector<float>({1, 2.5f, 4}, {3}));
  auto i = t.Run1("Range", {Tensor::Scalar<int32_t>(10), Tensor::Scalar<int32_t>(6), Tensor::Scalar<int32_t>(-3)});
  ASSERT_TRUE(i.ok());
  EXPECT_TENSOR_EQ(*i, Tensor::FromVector<int32_t>({10, 7}, {2}));
  auto e = t.Run1("Range", {Tensor::Scalar<int64_t>(3), Tensor::Scalar<int64_t>(1), Tensor::Scalar<int64_t>(1)});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->numel(), 0);
  EXPECT_FALSE(
      t.Run1("Range", {Tensor::Scalar<int64_t>(0), Tensor::Scalar<int64_t>(1), Tensor::Scalar<int64_t>(0)}).ok());
  EXPECT_FALSE(
      t.Run1("Range", {Tensor::Scalar<float>(0), Tensor::Scalar<float>(1e30f), Tensor::Scalar<float>(1e-30f)}).ok());
}

TEST(EyeLikeTest, OffsetsAndDtype) {
  OpTester t = MakeTester();
  Tensor x = Tensor::Create(DataType::kInt32, {3, 4}).value();
  auto y = t.Run1("EyeLike", {x}, Attrs({{"k", AttrValue::Int(1)}}));
  ASSERT_TRUE(y.ok());
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<int32_t>({0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {3, 4}));
  auto d = t.Run1("EyeLike", {x}, Attrs({{"dtype", AttrValue::Int(11)}, {"k", AttrValue::Int(-2)}}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dtype(), DataType::kDouble);
  EXPECT_EQ(d->data<double>()[2 * 4 + 0], 1.0);
  EXPECT_FALSE(t.Run1("EyeLike", {Tensor::Create(DataType::kFloat, {3}).value()}).ok());
}

TEST(TriluTest, UpperLowerAndK) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  auto u = t.Run1("Trilu", {x});
  ASSERT_TRUE(u.ok());
  EXPECT_TENSOR_EQ(*u, Tensor::FromVector<float>({1, 2, 3, 0, 5, 6, 0, 0, 9}, {3, 3}));
  auto l = t.Run1("Trilu", {x, Tensor::Scalar<int64_t>(-1)}, Attrs({{"upper", AttrValue::Int(0)}}));
  ASSERT_TRUE(l.ok());
  EXPECT_TENSOR_EQ(*l, Tensor::FromVector<float>({0, 0, 0, 4, 0, 0, 7, 8, 0}, {3, 3}));
  auto big = t.Run1("Trilu", {x, Tensor::Scalar<int64_t>(INT64_MIN)});
  ASSERT_TRUE(big.ok());
  EXPECT_TENSOR_EQ(*big, x);
  EXPECT_FALSE(t.Run1("Trilu", {Tensor::FromVector<float>({1, 2}, {2})}).ok());
}

}  // namespace
}  // namespace ge::ref::shape_family::testing
