#include <gtest/gtest.h>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

class TextTest : public ::testing::Test {
 protected:
  TextTest() : t_(ops::RegisterMiscOps, RegisterMiscRefKernels) {}
  OpTester t_;
};

Tensor S(std::vector<std::string> v, Dims d) { return Tensor::FromVector<std::string>(v, d); }
std::vector<std::string> Strs(const Tensor& t) {
  return std::vector<std::string>(t.data<std::string>(), t.data<std::string>() + t.numel());
}

TEST_F(TextTest, StringNormalizer) {
  ir::AttrMap a;
  a.Set("case_change_action", ir::AttrValue::String("LOWER"));
  a.Set("is_case_sensitive", ir::AttrValue::Int(1));
  a.Set("stopwords", ir::AttrValue::Strings({"monday"}));
  auto y = t_.Run1("StringNormalizer", {S({"monday", "tuesday", "wednesday", "thursday"}, {4})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(Strs(*y), (std::vector<std::string>{"tuesday", "wednesday", "thursday"}));
  ir::AttrMap b;
  b.Set("case_change_action", ir::AttrValue::String("UPPER"));
  b.Set("stopwords", ir::AttrValue::Strings({"MONDAY"}));  // case-insensitive by default
  y = t_.Run1("StringNormalizer", {S({"Monday", "tuesday", "wednesday", "MONDAY"}, {1, 4})}, b);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{1, 2}));
  EXPECT_EQ(Strs(*y), (std::vector<std::string>{"TUESDAY", "WEDNESDAY"}));
  y = t_.Run1("StringNormalizer", {S({"monday", "MONDAY"}, {2})}, b);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(Strs(*y), (std::vector<std::string>{""}));
  EXPECT_FALSE(t_.Run1("StringNormalizer", {S({"a", "b"}, {2, 1})}, b).ok());
  b.Set("case_change_action", ir::AttrValue::String("TITLE"));
  EXPECT_FALSE(t_.Run1("StringNormalizer", {S({"a"}, {1})}, b).ok());
}

ir::AttrMap TfIdfAttrs(int64_t min_n, int64_t max_n, int64_t skip) {
  ir::AttrMap a;
  a.Set("mode", ir::AttrValue::String("TF"));
  a.Set("min_gram_length", ir::AttrValue::Int(min_n));
  a.Set("max_gram_length", ir::AttrValue::Int(max_n));
  a.Set("max_skip_count", ir::AttrValue::Int(skip));
  a.Set("ngram_counts", ir::AttrValue::Ints({0, 4}));
  a.Set("ngram_indexes", ir::AttrValue::Ints({0, 1, 2, 3, 4, 5, 6}));
  a.Set("pool_int64s", ir::AttrValue::Ints({2, 3, 5, 4, 5, 6, 7, 8, 6, 7}));
  return a;
}

TEST_F(TextTest, TfIdfVectorizerSpecExamples) {
  Tensor x = Tensor::FromVector<int32_t>({1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}, {12});
  auto y = t_.Run1("TfIdfVectorizer", {x}, TfIdfAttrs(2, 2, 0));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 0, 0, 0, 1, 1, 1}, {7}), 0));
  y = t_.Run1("TfIdfVectorizer", {x}, TfIdfAttrs(1, 2, 5));
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 3, 1, 0, 1, 3, 1}, {7}), 0));
  Tensor xb = Tensor::FromVector<int64_t>({1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}, {2, 6});
  y = t_.Run1("TfIdfVectorizer", {xb}, TfIdfAttrs(2, 2, 5));
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}, {2, 7}), 0));
}

TEST_F(TextTest, TfIdfVectorizerStringsAndWeights) {
  ir::AttrMap a;
  a.Set("mode", ir::AttrValue::String("TFIDF"));
  a.Set("min_gram_length", ir::AttrValue::Int(1));
  a.Set("max_gram_length", ir::AttrValue::Int(1));
  a.Set("max_skip_count", ir::AttrValue::Int(0));
  a.Set("ngram_counts", ir::AttrValue::Ints({0}));
  a.Set("ngram_indexes", ir::AttrValue::Ints({1, 0}));
  a.Set("pool_strings", ir::AttrValue::Strings({"a", "b"}));
  a.Set("weights", ir::AttrValue::Floats({0.5f, 2.0f}));
  auto y = t_.Run1("TfIdfVectorizer", {S({"a", "b", "a", "c"}, {4})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({2, 1}, {2}), 0));
  a.Set("mode", ir::AttrValue::String("IDF"));
  y = t_.Run1("TfIdfVectorizer", {S({"a", "b", "a", "c"}, {4})}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({2, 0.5}, {2}), 0));
  a.Set("ngram_indexes", ir::AttrValue::Ints({0, 1, 2}));  // more indexes than pool n-grams
  EXPECT_FALSE(t_.Run1("TfIdfVectorizer", {S({"a"}, {1})}, a).ok());
}

TEST_F(TextTest, TfIdfInferenceWithUnknownBatch) {
  ops::InferContext ctx;
  ir::AttrMap attrs = TfIdfAttrs(2, 2, 0);
  ctx.attrs = &attrs;
  ctx.op_type = "TfIdfVectorizer";
  TensorDesc x(DataType::kInt32, Shape({kUnknownDim, kUnknownDim}));
  ctx.inputs = {&x};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(t_.op_registry().Find("", "TfIdfVectorizer")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim, 7}));
  EXPECT_EQ(ctx.outputs[0].dtype, DataType::kFloat);
}

}  // namespace
}  // namespace ge::ref
