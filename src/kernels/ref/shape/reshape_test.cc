#include "kernels/ref/shape/shape_test_util.h"

namespace ge::ref::shape_family::testing {
namespace {

using ir::AttrValue;

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(ReshapeTest, ZeroAndNegativeEntries) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>(Iota(24), {2, 3, 4});
  auto y = t.Run1("Reshape", {x, I64({0, -1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{2, 12}));
  EXPECT_EQ(y->raw_data(), x.raw_data());  // shares storage
  auto y2 = t.Run1("Reshape", {x, I64({-1, 2, 2})});
  ASSERT_TRUE(y2.ok());
  EXPECT_EQ(y2->dims(), (Dims{6, 2, 2}));
}

TEST(ReshapeTest, AllowZero) {
  OpTester t = MakeTester();
  Tensor x = Tensor::Create(DataType::kFloat, {0, 3, 4}).value();
  auto y = t.Run1("Reshape", {x, I64({3, 4, 0})}, Attrs({{"allowzero", AttrValue::Int(1)}}), 14);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{3, 4, 0}));
  EXPECT_FALSE(t.Run1("Reshape", {x, I64({0, -1})}, Attrs({{"allowzero", AttrValue::Int(1)}}), 14).ok());
}

TEST(ReshapeTest, BadTargets) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>(Iota(6), {2, 3});
  EXPECT_FALSE(t.Run1("Reshape", {x, I64({4, -1})}).ok());
  EXPECT_FALSE(t.Run1("Reshape", {x, I64({-1, -1})}).ok());
  EXPECT_FALSE(t.Run1("Reshape", {x, I64({7})}).ok());
  EXPECT_FALSE(t.Run1("Reshape", {x, I64({-2, 3})}).ok());
  EXPECT_FALSE(t.Run1("Reshape", {x, T1<float>({6})}).ok());  // shape must be int64
}

TEST(ReshapeTest, InferenceWithSymbolicDims) {
  Shape in;
  in.AddDim(kUnknownDim, "batch");
  in.AddDim(12);
  in.AddDim(64);
  TensorDesc x(DataType::kFloat, in);
  Tensor shape = I64({0, -1});
  auto out = Infer("Reshape", {x, Desc(DataType::kInt64, {2})}, {nullptr, &shape});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), "[batch,768]");
  // Unknown target values: rank from the shape input's length.
  auto out2 = Infer("Reshape", {x, Desc(DataType::kInt64, {3})}, {nullptr, nullptr});
  ASSERT_TRUE(out2.ok());
  EXPECT_EQ((*out2)[0].shape.rank(), 3);
  EXPECT_FALSE((*out2)[0].shape.IsFullyKnown());
}

TEST(ShapeTest, StartEnd) {
  OpTester t = MakeTester();
  Tensor x = Tensor::Create(DataType::kFloat, {3, 4, 5}).value();
  auto y = t.Run1("Shape", {x});
  ASSERT_TRUE(y.ok());
  EXPECT_TENSOR_EQ(*y, I64({3, 4, 5}));
  auto y2 = t.Run1("Shape", {x}, Attrs({{"start", AttrValue::Int(1)}, {"end", AttrValue::Int(-1)}}), 15);
  ASSERT_TRUE(y2.ok());
  EXPECT_TENSOR_EQ(*y2, I64({4}));
  auto y3 = t.Run1("Shape", {x}, Attrs({{"start", AttrValue::Int(-10)}, {"end", AttrValue::Int(10)}}), 15);
  ASSERT_TRUE(y3.ok());
  EXPECT_TENSOR_EQ(*y3, I64({3, 4, 5}));
  // Before opset 15 start/end do not exist.
  auto y4 = t.Run1("Shape", {x}, Attrs({{"start", AttrValue::Int(1)}}), 13);
  ASSERT_TRUE(y4.ok());
  EXPECT_EQ(y4->numel(), 3);
}

TEST(SizeTest, CountsElements) {
  OpTester t = MakeTester();
  auto y = t.Run1("Size", {Tensor::Create(DataType::kInt8, {3, 4, 5}).value()});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->dims(), Dims{});
  EXPECT_EQ(y->data<int64_t>()[0], 60);
}

TEST(FlattenTest, Axes) {
  OpTester t = MakeTester();
  Tensor x = Tensor::Create(DataType::kDouble, {2, 3, 4, 5}).value();
  struct Case {
    int64_t axis;
    Dims want;
  } cases[] = {{0, {1, 120}}, {1, {2, 60}}, {3, {24, 5}}, {4, {120, 1}}, {-1, {24, 5}}, {-4, {1, 120}}};
  for (const Case& c : cases) {
    auto y = t.Run1("Flatten", {x}, Attrs({{"axis", AttrValue::Int(c.axis)}}));
    ASSERT_TRUE(y.ok()) << c.axis;
    EXPECT_EQ(y->dims(), c.want) << c.axis;
  }
  EXPECT_FALSE(t.Run1("Flatten", {x}, Attrs({{"axis", AttrValue::Int(5)}})).ok());
  Shape in;
  in.AddDim(kUnknownDim, "n");
  in.AddDim(3);
  in.AddDim(4);
  auto out = Infer("Flatten", {TensorDesc(DataType::kFloat, in)}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[n,12]");
}

TEST(SqueezeTest, AxesAsInputAndAttribute) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>(Iota(6), {1, 3, 1, 2});
  auto y = t.Run1("Squeeze", {x, I64({0, -2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{3, 2}));
  auto y2 = t.Run1("Squeeze", {x}, Attrs({{"axes", AttrValue::Ints({2})}}), 11);
  ASSERT_TRUE(y2.ok());
  EXPECT_EQ(y2->dims(), (Dims{1, 3, 2}));
  auto y3 = t.Run1("Squeeze", {x});
  ASSERT_TRUE(y3.ok());
  EXPECT_EQ(y3->dims(), (Dims{3, 2}));
  EXPECT_FALSE(t.Run1("Squeeze", {x, I64({1})}).ok());  // size 3
  auto y4 = t.Run1("Squeeze", {x, I64({})});  // empty axes squeeze every 1 dim
  ASSERT_TRUE(y4.ok());
  EXPECT_EQ(y4->dims(), (Dims{3, 2}));
}

TEST(UnsqueezeTest, AxesAsInputAndAttribute) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>(Iota(6), {3, 2});
  auto y = t.Run1("Unsqueeze", {x, I64({4, 0, -2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{1, 3, 2, 1, 1}));
  auto y2 = t.Run1("Unsqueeze", {x}, Attrs({{"axes", AttrValue::Ints({1})}}), 11);
  ASSERT_TRUE(y2.ok());
  EXPECT_EQ(y2->dims(), (Dims{3, 1, 2}));
  EXPECT_FALSE(t.Run1("Unsqueeze", {x, I64({0, 0})}).ok());
  EXPECT_FALSE(t.Run1("Unsqueeze", {x, I64({5})}).ok());
  auto out = Infer("Unsqueeze", {Desc(DataType::kFloat, {-1, 2}), Desc(DataType::kInt64, {1})}, {nullptr, nullptr});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.rank(), 3);
}

TEST(IdentityTest, TensorSequenceAndOptional) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<int32_t>({1, 2, 3}, {3});
  auto y = t.Run1("Identity", {x});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->raw_data(), x.raw_data());
  Value seq = Value::Sequence({x, x}, DataType::kInt32);
  auto out = t.RunValues("Identity", {seq});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE((*out)[0].is_sequence());
  EXPECT_EQ((*out)[0].sequence.size(), 2u);
  Value none = Value::OptionalNone(DataType::kFloat, false);
  auto out2 = t.RunValues("Identity", {none});
  ASSERT_TRUE(out2.ok()) << out2.status().ToString();
  EXPECT_EQ((*out2)[0].kind, Value::Kind::kOptionalNone);
}

}  // namespace
}  // namespace ge::ref::shape_family::testing
