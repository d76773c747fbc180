#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

TEST(UniqueTest, SortedAndUnsortedWithoutAxis) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({2, 1, 1, 3, 4, 3}, {6});
  auto outs = t.Run("Unique", {x}, ir::AttrMap(), 4);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ExpectTensor<float>((*outs)[0].tensor, {1, 2, 3, 4}, {4});
  ExpectTensor<int64_t>((*outs)[1].tensor, {1, 0, 3, 4}, {4});
  ExpectTensor<int64_t>((*outs)[2].tensor, {1, 0, 0, 2, 3, 2}, {6});
  ExpectTensor<int64_t>((*outs)[3].tensor, {2, 1, 2, 1}, {4});

  outs = t.Run("Unique", {x}, Attrs({{"sorted", 0}}), 4);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<float>((*outs)[0].tensor, {2, 1, 3, 4}, {4});
  ExpectTensor<int64_t>((*outs)[1].tensor, {0, 1, 3, 4}, {4});
  ExpectTensor<int64_t>((*outs)[2].tensor, {0, 1, 1, 2, 3, 2}, {6});
  ExpectTensor<int64_t>((*outs)[3].tensor, {1, 2, 2, 1}, {4});
}

TEST(UniqueTest, FlattensAndHandlesTypes) {
  auto t = MakeTester();
  auto outs = t.Run("Unique", {Tensor::FromVector<int32_t>({1, 3, 2, 3}, {2, 2})}, ir::AttrMap(), 3);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<int32_t>((*outs)[0].tensor, {1, 2, 3}, {3});
  ExpectTensor<int64_t>((*outs)[1].tensor, {0, 2, 1}, {3});
  ExpectTensor<int64_t>((*outs)[2].tensor, {0, 2, 1, 2}, {4});
  outs = t.Run("Unique", {Tensor::FromVector<std::string>({"b", "a", "b"}, {3})}, ir::AttrMap(), 1);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<std::string>((*outs)[0].tensor, {"a", "b"}, {2});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  outs = t.Run("Unique", {Tensor::FromVector<float>({nan, 1.0f, nan}, {3})}, ir::AttrMap(), 4);
  ASSERT_TRUE(outs.ok());
  EXPECT_EQ((*outs)[0].tensor.numel(), 2);
  ExpectTensor<int64_t>((*outs)[3].tensor, {1, 2}, {2});
}

TEST(UniqueTest, WithAxis) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 0, 0, 1, 0, 0, 2, 3, 4}, {3, 3});
  auto outs = t.Run("Unique", {x}, Attrs({{"axis", 0}}), 4);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ExpectTensor<float>((*outs)[0].tensor, {1, 0, 0, 2, 3, 4}, {2, 3});
  ExpectTensor<int64_t>((*outs)[1].tensor, {0, 2}, {2});
  ExpectTensor<int64_t>((*outs)[2].tensor, {0, 0, 1}, {3});
  ExpectTensor<int64_t>((*outs)[3].tensor, {2, 1}, {2});

  Tensor x3 = Tensor::FromVector<float>({1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1}, {2, 4, 2});
  outs = t.Run("Unique", {x3}, Attrs({{"axis", 1}}), 4);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<float>((*outs)[0].tensor, {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}, {2, 3, 2});
  ExpectTensor<int64_t>((*outs)[1].tensor, {1, 0, 2}, {3});
  ExpectTensor<int64_t>((*outs)[2].tensor, {1, 0, 2, 0}, {4});
  ExpectTensor<int64_t>((*outs)[3].tensor, {2, 1, 1}, {3});

  Tensor xn = Tensor::FromVector<float>({1, 0, 0, 1, 0, 0, 2, 3, 3}, {3, 3});
  outs = t.Run("Unique", {xn}, Attrs({{"axis", -1}}), 4);
  ASSERT_TRUE(outs.ok());
  ExpectTensor<float>((*outs)[0].tensor, {0, 1, 0, 1, 3, 2}, {3, 2});
  ExpectTensor<int64_t>((*outs)[1].tensor, {1, 0}, {2});
  ExpectTensor<int64_t>((*outs)[2].tensor, {1, 0, 0}, {3});
  ExpectTensor<int64_t>((*outs)[3].tensor, {2, 1}, {2});
}

TEST(UniqueTest, ErrorsAndInference) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2}, {2});
  EXPECT_FALSE(t.Run("Unique", {x}, Attrs({{"axis", 1}}), 1).ok());
  EXPECT_FALSE(t.Run("Unique", {x}, Attrs({{"sorted", 2}}), 1).ok());

  TensorDesc d(DataType::kInt64, ShapeOf({kUnknownDim, 5}));
  auto out = InferOnly("Unique", {d}, Attrs({{"axis", 1}}), 4);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, kUnknownDim}).ToString());
  EXPECT_EQ((*out)[2].shape.ToString(), ShapeOf({5}).ToString());
  EXPECT_EQ((*out)[3].dtype, DataType::kInt64);
  out = InferOnly("Unique", {d}, ir::AttrMap(), 3);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim}).ToString());
  EXPECT_EQ((*out)[2].shape.ToString(), ShapeOf({kUnknownDim}).ToString());
}

}  // namespace
}  // namespace ge::ref::index_test
