#include <cmath>

#include "kernels/ref/reduce/reduce_test_util.h"

namespace ge::ref::reduce_test {
namespace {

using ir::AttrValue;

Tensor LogProbs() { return F({-1, -2, -3, -4, -5, -6}, {2, 3}); }

TEST(NllLoss, Reductions) {
  auto t = MakeTester();
  Tensor target = I64({2, 0}, {2});
  auto none = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), target}, Attrs({{"reduction", AttrValue::String("none")}}));
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->dims(), (Dims{2}));
  EXPECT_EQ(AsDoubles(*none), (std::vector<double>{3, 4}));
  auto sum = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), target}, Attrs({{"reduction", AttrValue::String("sum")}}));
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->rank(), 0);
  EXPECT_EQ(AsDoubles(*sum), (std::vector<double>{7}));
  auto mean = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), target});
  ASSERT_TRUE(mean.ok());
  EXPECT_EQ(AsDoubles(*mean), (std::vector<double>{3.5}));
}

TEST(NllLoss, WeightsAndIgnoreIndex) {
  auto t = MakeTester();
  Tensor target = Tensor::FromVector<int32_t>({2, 0}, {2});
  Tensor w = F({0.5, 1, 2}, {3});
  auto mean = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), target, w});
  ASSERT_TRUE(mean.ok()) << mean.status().ToString();
  EXPECT_NEAR(mean->data<float>()[0], 8.0 / 2.5, 1e-6);
  auto ign = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), target}, Attrs({{"ignore_index", AttrValue::Int(0)}}));
  ASSERT_TRUE(ign.ok());
  EXPECT_EQ(AsDoubles(*ign), (std::vector<double>{3}));
  // An ignored target may lie outside [0, C).
  auto neg = t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), I64({-1, 1}, {2})},
                    Attrs({{"ignore_index", AttrValue::Int(-1)}, {"reduction", AttrValue::String("sum")}}));
  ASSERT_TRUE(neg.ok());
  EXPECT_EQ(AsDoubles(*neg), (std::vector<double>{5}));
}

TEST(NllLoss, SpatialDims) {
  auto t = MakeTester();
  // N=1, C=2, d1=2: input[0, c, d].
  Tensor x = F({-1, -2, -3, -4}, {1, 2, 2});
  auto y = t.Run1("NegativeLogLikelihoodLoss", {x, I64({1, 0}, {1, 2})}, Attrs({{"reduction", AttrValue::String("none")}}));
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->dims(), (Dims{1, 2}));
  EXPECT_EQ(AsDoubles(*y), (std::vector<double>{3, 2}));
}

TEST(NllLoss, BadInputs) {
  auto t = MakeTester();
  EXPECT_FALSE(t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), I64({3, 0}, {2})}).ok());
  EXPECT_FALSE(t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), I64({0, 0, 0}, {3})}).ok());
  EXPECT_FALSE(t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), I64({0, 0}, {2})},
                      Attrs({{"reduction", AttrValue::String("max")}})).ok());
  EXPECT_FALSE(t.Run1("NegativeLogLikelihoodLoss", {LogProbs(), I64({0, 0}, {2}), F({1, 1}, {2})}).ok());
}

TEST(SoftmaxCrossEntropy, LossAndLogProb) {
  auto t = MakeTester();
  Tensor scores = F({0, 0, 0, 1, 2, 3}, {2, 3});
  auto r = t.Run("SoftmaxCrossEntropyLoss", {scores, I64({1, 2}, {2})}, {}, 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const double lse = std::log(std::exp(1.) + std::exp(2.) + std::exp(3.));
  EXPECT_NEAR((*r)[0].tensor.data<float>()[0], (std::log(3.) + (lse - 3)) / 2, 1e-6);
  EXPECT_EQ((*r)[1].tensor.dims(), (Dims{2, 3}));
  EXPECT_NEAR_VEC(AsDoubles((*r)[1].tensor),
                  (std::vector<double>{-std::log(3.), -std::log(3.), -std::log(3.), 1 - lse, 2 - lse, 3 - lse}), 1e-6);
  auto d = t.Run1("SoftmaxCrossEntropyLoss", {Tensor::FromVector<double>({0, 0}, {1, 2}), I64({0}, {1})},
                  Attrs({{"reduction", AttrValue::String("none")}}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dtype(), DataType::kDouble);
  EXPECT_NEAR(d->data<double>()[0], std::log(2.), 1e-12);
}

TEST(Loss, InferenceWithUnknownDims) {
  auto t = MakeTester();
  Shape x;
  x.AddDim(kUnknownDim, "n");
  x.AddDim(5);
  x.AddDim(kUnknownDim);
  auto o = InferOnly(t, "SoftmaxCrossEntropyLoss",
                     {TensorDesc(DataType::kFloat, x), TensorDesc(DataType::kInt64, Shape::UnknownRank())},
                     Attrs({{"reduction", AttrValue::String("none")}}), 2);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ((*o)[0].shape.ToString(), "[n,?]");
  EXPECT_EQ((*o)[1].shape.ToString(), "[n,5,?]");
  auto m = InferOnly(t, "NegativeLogLikelihoodLoss",
                     {TensorDesc(DataType::kFloat, x), TensorDesc(DataType::kInt64, Shape::UnknownRank())}, {});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)[0].shape.rank(), 0);
}

}  // namespace
}  // namespace ge::ref::reduce_test
