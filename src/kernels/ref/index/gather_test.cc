#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

TEST(GatherTest, Axis0Rows) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>({1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}, {3, 2});
  Tensor idx = Tensor::FromVector<int64_t>({0, 1, 1, 2}, {2, 2});
  auto out = t.Run1("Gather", {data, idx});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f}, {2, 2, 2});
}

TEST(GatherTest, Axis1NegativeIndicesInt32) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  Tensor idx = Tensor::FromVector<int32_t>({0, -1}, {1, 2});
  auto out = t.Run1("Gather", {data, idx}, Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {1, 3, 4, 6, 7, 9}, {3, 1, 2});
}

TEST(GatherTest, ScalarIndexDropsAxis) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto out = t.Run1("Gather", {data, Tensor::Scalar<int64_t>(-1)}, Attrs({{"axis", -1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<double>(*out, {3, 6}, {2});
}

TEST(GatherTest, StringsAndFloat16) {
  auto t = MakeTester();
  Tensor s = Tensor::FromVector<std::string>({"a", "bb", "ccc"}, {3});
  auto out = t.Run1("Gather", {s, Tensor::FromVector<int64_t>({2, 0, 2}, {3})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<std::string>(*out, {"ccc", "a", "ccc"}, {3});
  Tensor h = Tensor::FromVector<float16>({float16(1.5f), float16(-2.0f)}, {2, 1});
  out = t.Run1("Gather", {h, Tensor::FromVector<int64_t>({1}, {1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float16>(*out, {float16(-2.0f)}, {1, 1});
}

TEST(GatherTest, OutOfRangeIndexIsError) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>({1, 2, 3}, {3});
  auto out = t.Run1("Gather", {data, Tensor::FromVector<int64_t>({3}, {1})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("test_Gather"), std::string::npos) << out.status().message();
  EXPECT_FALSE(t.Run1("Gather", {data, Tensor::FromVector<int64_t>({-4}, {1})}).ok());
  EXPECT_FALSE(t.Run1("Gather", {data, Tensor::FromVector<float>({0}, {1})}).ok());  // float indices
  EXPECT_FALSE(t.Run1("Gather", {data, Tensor::FromVector<int64_t>({0}, {1})}, Attrs({{"axis", 1}})).ok());
}

TEST(GatherTest, InferUnknownDims) {
  TensorDesc data(DataType::kFloat, ShapeOf({kUnknownDim, 768}));
  TensorDesc idx(DataType::kInt64, ShapeOf({kUnknownDim, 128}));
  auto out = InferOnly("Gather", {data, idx});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({kUnknownDim, 128, 768}).ToString());
  EXPECT_EQ((*out)[0].dtype, DataType::kFloat);
  TensorDesc unk(DataType::kInt64, Shape::UnknownRank());
  out = InferOnly("Gather", {data, unk}, Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE((*out)[0].shape.unknown_rank());
  EXPECT_FALSE(InferOnly("Gather", {data, idx}, Attrs({{"axis", 2}})).ok());
}

TEST(GatherElementsTest, SpecExamples) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  auto out = t.Run1("GatherElements", {data, Tensor::FromVector<int64_t>({0, 0, 1, 0}, {2, 2})}, Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {1, 1, 4, 3}, {2, 2});

  Tensor d3 = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  out = t.Run1("GatherElements", {d3, Tensor::FromVector<int32_t>({1, 2, 0, 2, 0, 0}, {2, 3})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {4, 8, 3, 7, 2, 3}, {2, 3});

  out = t.Run1("GatherElements", {d3, Tensor::FromVector<int64_t>({-1, -2, 0, -2, 0, 0}, {2, 3})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {7, 5, 3, 4, 2, 3}, {2, 3});
}

TEST(GatherElementsTest, Errors) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_FALSE(t.Run1("GatherElements", {data, Tensor::FromVector<int64_t>({2}, {1, 1})}).ok());
  EXPECT_FALSE(t.Run1("GatherElements", {data, Tensor::FromVector<int64_t>({0, 0, 0}, {1, 3})}).ok());
  EXPECT_FALSE(t.Run1("GatherElements", {data, Tensor::FromVector<int64_t>({0, 0}, {2})}).ok());
}

TEST(GatherNDTest, SpecExamples) {
  auto t = MakeTester();
  Tensor d2 = Tensor::FromVector<int32_t>({0, 1, 2, 3}, {2, 2});
  auto out = t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({0, 0, 1, 1}, {2, 2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {0, 3}, {2});
  out = t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({1, 0}, {2, 1})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int32_t>(*out, {2, 3, 0, 1}, {2, 2});

  Tensor d3 = Tensor::FromVector<float>({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2});
  out = t.Run1("GatherND", {d3, Tensor::FromVector<int64_t>({0, 1, 1, 0}, {2, 1, 2})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<float>(*out, {2, 3, 4, 5}, {2, 1, 2});
  // batch_dims = 1: data[b, indices[b]]
  out = t.Run1("GatherND", {d3, Tensor::FromVector<int64_t>({1, 0}, {2, 1})}, Attrs({{"batch_dims", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {2, 3, 4, 5}, {2, 2});
  // negative index
  out = t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({-1, -2}, {1, 2})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int32_t>(*out, {2}, {1});
}

TEST(GatherNDTest, ErrorsAndInference) {
  auto t = MakeTester();
  Tensor d2 = Tensor::FromVector<int32_t>({0, 1, 2, 3}, {2, 2});
  EXPECT_FALSE(t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({0, 2}, {1, 2})}).ok());
  EXPECT_FALSE(t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({0, 0, 0}, {1, 3})}).ok());
  EXPECT_FALSE(t.Run1("GatherND", {d2, Tensor::FromVector<int64_t>({0, 0}, {2, 1})}, Attrs({{"batch_dims", 2}})).ok());

  TensorDesc data(DataType::kFloat, ShapeOf({kUnknownDim, 5, 6}));
  TensorDesc idx(DataType::kInt64, ShapeOf({4, kUnknownDim, 1}));
  auto out = InferOnly("GatherND", {data, idx}, Attrs({{"batch_dims", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), ShapeOf({4, kUnknownDim, 6}).ToString());
  TensorDesc idx_unk(DataType::kInt64, ShapeOf({4, kUnknownDim}));
  out = InferOnly("GatherND", {data, idx_unk});
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE((*out)[0].shape.unknown_rank());
}

}  // namespace
}  // namespace ge::ref::index_test
