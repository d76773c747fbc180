#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

TEST(NonZeroTest, SpecExampleAndTypes) {
  auto t = MakeTester();
  auto out = t.Run1("NonZero", {Tensor::FromVector<bool>({true, false, true, true}, {2, 2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {0, 1, 1, 0, 0, 1}, {2, 3});
  out = t.Run1("NonZero", {Tensor::FromVector<float16>({float16(0.0f), float16(-0.5f), float16(0.0f)}, {3})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {1}, {1, 1});
  out = t.Run1("NonZero", {Tensor::FromVector<std::string>({"", "x"}, {1, 2})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {0, 1}, {2, 1});
  out = t.Run1("NonZero", {Tensor::Scalar<int32_t>(7)});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {0}, {1, 1});
  out = t.Run1("NonZero", {Tensor::FromVector<int8_t>({0, 0}, {2})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {}, {1, 0});
}

TEST(NonZeroTest, Inference) {
  auto out = InferOnly("NonZero", {TensorDesc(DataType::kFloat, ShapeOf({kUnknownDim, 3, 4}))});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].dtype, DataType::kInt64);
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({3, kUnknownDim}).ToString());
}

TEST(CompressTest, WithAndWithoutAxis) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  auto out = t.Run1("Compress", {x, Tensor::FromVector<bool>({false, true, true}, {3})}, Attrs({{"axis", 0}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {3, 4, 5, 6}, {2, 2});
  out = t.Run1("Compress", {x, Tensor::FromVector<bool>({false, true}, {2})}, Attrs({{"axis", -1}}));
  ASSERT_TRUE(out.ok());
  ExpectTensor<float>(*out, {2, 4, 6}, {3, 1});
  // No axis: flattened; a short condition selects from the prefix only.
  out = t.Run1("Compress", {x, Tensor::FromVector<bool>({false, true, false, false, true}, {5})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<float>(*out, {2, 5}, {2});
  Tensor s = Tensor::FromVector<std::string>({"a", "b"}, {2});
  out = t.Run1("Compress", {s, Tensor::FromVector<bool>({true, false, false}, {3})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<std::string>(*out, {"a"}, {1});
}

TEST(CompressTest, ErrorsAndInference) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_FALSE(t.Run1("Compress", {x, Tensor::FromVector<bool>({false, false, true}, {3})}, Attrs({{"axis", 0}})).ok());
  EXPECT_FALSE(t.Run1("Compress", {x, Tensor::FromVector<int64_t>({1, 0}, {2})}, Attrs({{"axis", 0}})).ok());
  EXPECT_FALSE(t.Run1("Compress", {x, Tensor::FromVector<bool>({true}, {1})}, Attrs({{"axis", 2}})).ok());

  TensorDesc in(DataType::kFloat, ShapeOf({kUnknownDim, 4}));
  TensorDesc cond(DataType::kBool, ShapeOf({kUnknownDim}));
  auto out = InferOnly("Compress", {in, cond}, Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, kUnknownDim}).ToString());
  Tensor c = Tensor::FromVector<bool>({true, false, true}, {3});
  out = InferOnly("Compress", {in, TensorDesc(DataType::kBool, ShapeOf({3}))}, Attrs({{"axis", 1}}), 1, {nullptr, &c});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, 2}).ToString());
}

}  // namespace
}  // namespace ge::ref::index_test
