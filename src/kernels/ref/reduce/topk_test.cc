#include <cmath>

#include "kernels/ref/reduce/reduce_test_util.h"

namespace ge::ref::reduce_test {
namespace {

using ir::AttrValue;

TEST(TopK, SpecLargest) {
  auto t = MakeTester();
  Tensor x = F({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  auto r = t.Run("TopK", {x, I64({3}, {1})}, Attrs({{"axis", AttrValue::Int(1)}}), 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].tensor.dims(), (Dims{3, 3}));
  EXPECT_EQ(AsDoubles((*r)[0].tensor), (std::vector<double>{3, 2, 1, 7, 6, 5, 11, 10, 9}));
  EXPECT_EQ((*r)[1].tensor.dtype(), DataType::kInt64);
  EXPECT_EQ(AsDoubles((*r)[1].tensor), (std::vector<double>{3, 2, 1, 3, 2, 1, 3, 2, 1}));
}

TEST(TopK, SmallestNegativeAxisAndTies) {
  auto t = MakeTester();
  Tensor x = F({0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8}, {3, 4});
  auto r = t.Run("TopK", {x, I64({3}, {1})}, Attrs({{"largest", AttrValue::Int(0)}}), 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(AsDoubles((*r)[0].tensor), (std::vector<double>{0, 1, 2, 4, 5, 6, 8, 9, 10}));
  EXPECT_EQ(AsDoubles((*r)[1].tensor), (std::vector<double>{0, 1, 2, 0, 1, 2, 3, 2, 1}));
  auto ties = t.Run("TopK", {F({1, 3, 3, 2}, {4}), I64({2}, {1})}, {}, 2);
  ASSERT_TRUE(ties.ok());
  EXPECT_EQ(AsDoubles((*ties)[1].tensor), (std::vector<double>{1, 2}));
  // Along axis 0 of [3, 2] (strided columns), int32.
  auto col = t.Run("TopK", {Tensor::FromVector<int32_t>({5, 1, 7, 9, 6, 3}, {3, 2}), I64({2}, {1})},
                   Attrs({{"axis", AttrValue::Int(0)}}), 2);
  ASSERT_TRUE(col.ok());
  EXPECT_EQ((*col)[0].tensor.dims(), (Dims{2, 2}));
  EXPECT_EQ(AsDoubles((*col)[0].tensor), (std::vector<double>{7, 9, 6, 3}));
  EXPECT_EQ(AsDoubles((*col)[1].tensor), (std::vector<double>{1, 1, 2, 2}));
}

TEST(TopK, Opset1AttributeAndNaN) {
  auto t = MakeTester();
  auto r = t.Run("TopK", {F({4, NAN, 5}, {3})}, Attrs({{"k", AttrValue::Int(2)}}), 2, 1);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(std::isnan((*r)[0].tensor.data<float>()[0]));
  EXPECT_EQ(AsDoubles((*r)[1].tensor), (std::vector<double>{1, 2}));
}

TEST(TopK, BadK) {
  auto t = MakeTester();
  EXPECT_FALSE(t.Run("TopK", {F({1, 2}, {2}), I64({3}, {1})}, {}, 2).ok());
  EXPECT_FALSE(t.Run("TopK", {F({1, 2}, {2}), I64({-1}, {1})}, {}, 2).ok());
  EXPECT_FALSE(t.Run("TopK", {F({1, 2}, {2}), I64({1}, {1})}, Attrs({{"axis", AttrValue::Int(1)}}), 2).ok());
}

TEST(TopK, InferenceWithUnknownK) {
  auto t = MakeTester();
  Shape s;
  s.AddDim(kUnknownDim, "n");
  s.AddDim(10);
  auto out = InferOnly(t, "TopK", {TensorDesc(DataType::kFloat, s), TensorDesc(DataType::kInt64, Shape({1}))}, {}, 2);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), "[n,?]");
  EXPECT_EQ((*out)[1].dtype, DataType::kInt64);
}

}  // namespace
}  // namespace ge::ref::reduce_test
