#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

TEST(OneHotTest, LastAxisNegativeAndOutOfRange) {
  auto t = MakeTester();
  Tensor idx = Tensor::FromVector<float>({1, -1, 5, 0}, {2, 2});
  Tensor depth = Tensor::Scalar<float>(3.0f);
  Tensor values = Tensor::FromVector<int64_t>({2, 7}, {2});
  auto out = t.Run1("OneHot", {idx, depth, values});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {2, 7, 2, 2, 2, 7, 2, 2, 2, 7, 2, 2}, {2, 2, 3});
}

TEST(OneHotTest, Opset9IgnoresNegativeIndices) {
  auto t = MakeTester();
  Tensor idx = Tensor::FromVector<int64_t>({-1, 1}, {2});
  Tensor values = Tensor::FromVector<float>({0, 1}, {2});
  auto outs = t.Run("OneHot", {idx, Tensor::Scalar<int64_t>(2), values}, ir::AttrMap(), 1, 9);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ExpectTensor<float>((*outs)[0].tensor, {0, 0, 0, 1}, {2, 2});
  outs = t.Run("OneHot", {idx, Tensor::Scalar<int64_t>(2), values}, ir::AttrMap(), 1, 11);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<float>((*outs)[0].tensor, {0, 1, 0, 1}, {2, 2});
}

TEST(OneHotTest, Axis0AndOtherTypes) {
  auto t = MakeTester();
  Tensor idx = Tensor::FromVector<int32_t>({0, 2}, {2});
  Tensor depth = Tensor::FromVector<int64_t>({2}, {1});
  Tensor values = Tensor::FromVector<std::string>({"off", "on"}, {2});
  auto out = t.Run1("OneHot", {idx, depth, values}, Attrs({{"axis", 0}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<std::string>(*out, {"on", "off", "off", "off"}, {2, 2});
  // axis = -2 on a 1-D input is axis 0 of the 2-D output.
  Tensor fv = Tensor::FromVector<float16>({float16(0.0f), float16(1.0f)}, {2});
  out = t.Run1("OneHot", {Tensor::FromVector<uint8_t>({1}, {1}), Tensor::Scalar<double>(2.9), fv}, Attrs({{"axis", -2}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float16>(*out, {float16(0.0f), float16(1.0f)}, {2, 1});
}

TEST(OneHotTest, ErrorsAndInference) {
  auto t = MakeTester();
  Tensor idx = Tensor::FromVector<int64_t>({0}, {1});
  Tensor values = Tensor::FromVector<float>({0, 1}, {2});
  EXPECT_FALSE(t.Run1("OneHot", {idx, Tensor::Scalar<int64_t>(0), values}).ok());
  EXPECT_FALSE(t.Run1("OneHot", {idx, Tensor::Scalar<int64_t>(2), Tensor::FromVector<float>({0, 1, 2}, {3})}).ok());
  EXPECT_FALSE(t.Run1("OneHot", {idx, Tensor::Scalar<int64_t>(2), values}, Attrs({{"axis", 2}})).ok());

  TensorDesc i(DataType::kInt64, ShapeOf({kUnknownDim, 4}));
  TensorDesc d(DataType::kInt64, Shape());
  TensorDesc v(DataType::kFloat, ShapeOf({2}));
  auto out = InferOnly("OneHot", {i, d, v}, Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, kUnknownDim, 4}).ToString());
  Tensor depth = Tensor::Scalar<int64_t>(10);
  out = InferOnly("OneHot", {i, d, v}, ir::AttrMap(), 1, {nullptr, &depth});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, 4, 10}).ToString());
  EXPECT_EQ((*out)[0].dtype, DataType::kFloat);
}

TEST(ReverseSequenceTest, SpecExamples) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}, {4, 4});
  auto out = t.Run1("ReverseSequence", {x, Tensor::FromVector<int64_t>({4, 3, 2, 1}, {4})},
                    Attrs({{"time_axis", 0}, {"batch_axis", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15}, {4, 4});

  Tensor y = Tensor::FromVector<int32_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {4, 4});
  out = t.Run1("ReverseSequence", {y, Tensor::FromVector<int64_t>({1, 2, 3, 4}, {4})},
               Attrs({{"time_axis", 1}, {"batch_axis", 0}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12}, {4, 4});
}

TEST(ReverseSequenceTest, InnerDimsErrorsInference) {
  auto t = MakeTester();
  // [time 3, batch 1, 2]
  Tensor x = Tensor::FromVector<std::string>({"a", "b", "c", "d", "e", "f"}, {3, 1, 2});
  auto out = t.Run1("ReverseSequence", {x, Tensor::FromVector<int64_t>({2}, {1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<std::string>(*out, {"c", "d", "a", "b", "e", "f"}, {3, 1, 2});
  EXPECT_FALSE(t.Run1("ReverseSequence", {x, Tensor::FromVector<int64_t>({4}, {1})}).ok());
  EXPECT_FALSE(t.Run1("ReverseSequence", {x, Tensor::FromVector<int64_t>({1, 1}, {2})}).ok());
  EXPECT_FALSE(t.Run1("ReverseSequence", {x, Tensor::FromVector<int64_t>({1}, {1})}, Attrs({{"batch_axis", 0}})).ok());

  auto inf = InferOnly("ReverseSequence", {TensorDesc(DataType::kFloat, ShapeOf({kUnknownDim, 3, 5})),
                                           TensorDesc(DataType::kInt64, ShapeOf({kUnknownDim}))});
  ASSERT_TRUE(inf.ok()) << inf.status().ToString();
  EXPECT_EQ((*inf)[0].shape.ToString(), ShapeOf({kUnknownDim, 3, 5}).ToString());
}

}  // namespace
}  // namespace ge::ref::index_test
