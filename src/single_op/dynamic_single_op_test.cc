// The dynamic form: descs per call against the reference kernels, the cache (hits, misses, the bound under shape
// churn, LRU order), constant shape operands as part of the key, and the tensor form.
#include <gtest/gtest.h>

#include "single_op/single_op_test_util.h"

namespace ge::single_op {
namespace {

using testing::DescsOf;
using testing::RandomFloats;
using testing::RefOutputs;

// Runs `op` on `inputs` through descs + raw buffers, returns the outputs.
std::vector<Tensor> RunDescs(DynamicSingleOp& op, const std::vector<Tensor>& inputs) {
  const std::vector<OpTensorDesc> descs = DescsOf(inputs);
  auto out_descs = op.InferOutputs(descs);
  EXPECT_TRUE(out_descs.ok()) << out_descs.status().ToString();
  if (!out_descs.ok()) return {};
  std::vector<InputBuffer> in;
  for (const Tensor& t : inputs) {
    if (t.valid()) in.push_back({t.raw_data(), t.nbytes()});
  }
  std::vector<Tensor> out;
  std::vector<OutputBuffer> bufs;
  for (const OpTensorDesc& d : *out_descs) {
    out.push_back(Tensor::Create(d.dtype, d.dims).value());
    bufs.push_back({out.back().raw_data(), out.back().nbytes()});
  }
  Status s = op.Run(descs, in, bufs);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(DynamicSingleOp, AddOverShapesMatchesRef) {
  auto op = DynamicSingleOp::Create("Add");
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  const std::vector<std::vector<Dims>> shapes = {{{16}, {16}}, {{2, 8}, {8}}, {{3, 1}, {1, 5}}, {{16}, {16}}};
  uint32_t seed = 100;
  for (const auto& s : shapes) {
    const std::vector<Tensor> in = {RandomFloats(s[0], seed++), RandomFloats(s[1], seed++)};
    const std::vector<Tensor> got = RunDescs(**op, in);
    const std::vector<Tensor> want = RefOutputs("Add", in, {});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(TensorsMatch(got[0], want[0], Tolerance::Exact()));
  }
  // Three distinct shapes prepared once each; InferOutputs and Run of one call share the entry.
  EXPECT_EQ((*op)->cache_size(), 3u);
  EXPECT_EQ((*op)->cache_misses(), 3u);
  EXPECT_EQ((*op)->cache_hits(), 5u);
}

TEST(DynamicSingleOp, ConvWithAttributesOverShapes) {
  const Attrs attrs = {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"strides", std::vector<int64_t>{1, 2}}};
  auto op = DynamicSingleOp::Create("Conv", attrs);
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  for (int64_t hw : {5, 8, 11}) {
    const std::vector<Tensor> in = {RandomFloats({1, 2, hw, hw}, 200 + hw), RandomFloats({3, 2, 3, 3}, 300 + hw)};
    const std::vector<Tensor> got = RunDescs(**op, in);
    const std::vector<Tensor> want = RefOutputs("Conv", in, attrs);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(TensorsMatch(got[0], want[0], Tolerance{1e-5, 1e-4, true})) << hw;
  }
}

TEST(DynamicSingleOp, TensorFormReusesOutputs) {
  auto op = DynamicSingleOp::Create("Softmax", {{"axis", 0}});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  std::vector<Tensor> out;
  for (int rep = 0; rep < 2; ++rep) {
    for (int64_t n : {4, 9}) {
      const Tensor x = RandomFloats({n, 3}, static_cast<uint32_t>(400 + n));
      ASSERT_TRUE((*op)->Run({x}, &out).ok());
      EXPECT_TRUE(TensorsMatch(out[0], RefOutputs("Softmax", {x}, {{"axis", 0}})[0], Tolerance{1e-6, 1e-5, true}));
    }
  }
  const void* data = out[0].raw_data();
  ASSERT_TRUE((*op)->Run({RandomFloats({9, 3}, 1)}, &out).ok());
  EXPECT_EQ(out[0].raw_data(), data);  // same dims: written in place
  EXPECT_EQ((*op)->cache_misses(), 2u);
}

TEST(DynamicSingleOp, TensorFormOmittedInput) {
  auto op = DynamicSingleOp::Create("Clip");
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  const Tensor x = RandomFloats({6}, 500);
  const Tensor lo = Tensor::Scalar<float>(-0.1f);
  std::vector<Tensor> out;
  ASSERT_TRUE((*op)->Run({x, lo}, &out).ok());
  EXPECT_TRUE(TensorsMatch(out[0], RefOutputs("Clip", {x, lo}, {})[0], Tolerance::Exact()));
  const Tensor hi = Tensor::Scalar<float>(0.2f);
  ASSERT_TRUE((*op)->Run({x, Tensor(), hi}, &out).ok());
  EXPECT_TRUE(TensorsMatch(out[0], RefOutputs("Clip", {x, Tensor(), hi}, {})[0], Tolerance::Exact()));
  EXPECT_EQ((*op)->cache_size(), 2u);
}

TEST(DynamicSingleOp, ConstantValuesArePartOfTheKey) {
  auto op = DynamicSingleOp::Create("Reshape");
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  const Tensor x = RandomFloats({16}, 600);
  const InputBuffer in{x.raw_data(), x.nbytes()};
  std::vector<float> y(16);
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 8}}) {
    const std::vector<OpTensorDesc> descs = {{DataType::kFloat, {16}},
                                             OpTensorDesc::Constant(Tensor::FromVector<int64_t>(shape, {2}))};
    auto out = (*op)->InferOutputs(descs);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)[0].dims, shape);
    ASSERT_TRUE((*op)->Run(descs, {in}, {{y.data(), 64}}).ok());
    EXPECT_EQ(y[5], x.data<float>()[5]);
  }
  EXPECT_EQ((*op)->cache_size(), 2u);
}

TEST(DynamicSingleOp, CacheNeverExceedsItsCapacity) {
  SingleOpOptions opt;
  opt.cache_capacity = 4;
  auto op = DynamicSingleOp::Create("Relu", {}, opt);
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->cache_capacity(), 4u);
  std::vector<Tensor> out;
  for (int64_t n = 1; n <= 40; ++n) {
    const Tensor x = RandomFloats({n, 2}, static_cast<uint32_t>(700 + n));
    ASSERT_TRUE((*op)->Run({x}, &out).ok());
    EXPECT_TRUE(TensorsMatch(out[0], RefOutputs("Relu", {x}, {})[0], Tolerance::Exact()));
    EXPECT_LE((*op)->cache_size(), 4u);
  }
  EXPECT_EQ((*op)->cache_size(), 4u);
  EXPECT_EQ((*op)->cache_misses(), 40u);
  // The four most recent shapes are cached; older ones were evicted.
  for (int64_t n = 37; n <= 40; ++n) ASSERT_TRUE((*op)->Run({RandomFloats({n, 2}, 1)}, &out).ok());
  EXPECT_EQ((*op)->cache_misses(), 40u);
  ASSERT_TRUE((*op)->Run({RandomFloats({1, 2}, 1)}, &out).ok());
  EXPECT_EQ((*op)->cache_misses(), 41u);
  EXPECT_EQ((*op)->cache_size(), 4u);
}

TEST(DynamicSingleOp, DefaultCapacity) {
  auto op = DynamicSingleOp::Create("Relu");
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->cache_capacity(), 64u);
  std::vector<Tensor> out;
  for (int64_t n = 1; n <= 100; ++n) ASSERT_TRUE((*op)->Run({RandomFloats({n}, 1)}, &out).ok());
  EXPECT_EQ((*op)->cache_size(), 64u);
}

TEST(DynamicSingleOp, FailedPrepareCachesNothing) {
  auto op = DynamicSingleOp::Create("Add");
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  std::vector<Tensor> out;
  EXPECT_FALSE((*op)->Run({RandomFloats({3}, 1), RandomFloats({4}, 2)}, &out).ok());
  EXPECT_EQ((*op)->cache_size(), 0u);
}

}  // namespace
}  // namespace ge::single_op
