// KernelCache: least-recently-used eviction at the capacity, keys from descs and tensors.
#include "single_op/kernel_cache.h"

#include <gtest/gtest.h>

namespace ge::single_op {
namespace {

class KernelCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto def = MakeOpDef("Relu", {}, {});
    ASSERT_TRUE(def.ok()) << def.status().ToString();
    def_ = std::move(def).value();
  }
  std::string Key(int64_t n) {
    std::string k;
    AppendKey(OpTensorDesc(DataType::kFloat, {n}), &k);
    return k;
  }
  std::unique_ptr<PreparedOp> Op(int64_t n) {
    auto op = PreparedOp::Create(def_, {OpTensorDesc(DataType::kFloat, {n})});
    EXPECT_TRUE(op.ok()) << op.status().ToString();
    return op.ok() ? std::move(op).value() : nullptr;
  }
  OpDef def_;
};

TEST_F(KernelCacheTest, EvictsTheLeastRecentlyUsed) {
  KernelCache cache(2);
  PreparedOp* one = cache.Insert(Key(1), Op(1));
  cache.Insert(Key(2), Op(2));
  EXPECT_EQ(cache.Find(Key(1)), one);  // 1 is now the most recent
  cache.Insert(Key(3), Op(3));         // evicts 2
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.evictions(), 1u);
  EXPECT_EQ(cache.Find(Key(2)), nullptr);
  EXPECT_NE(cache.Find(Key(1)), nullptr);
  EXPECT_NE(cache.Find(Key(3)), nullptr);
  EXPECT_EQ(cache.hits(), 3u);
  EXPECT_EQ(cache.misses(), 1u);
}

TEST_F(KernelCacheTest, CapacityIsAtLeastOne) {
  KernelCache cache(0);
  EXPECT_EQ(cache.capacity(), 1u);
  cache.Insert(Key(1), Op(1));
  cache.Insert(Key(2), Op(2));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.Find(Key(2)), nullptr);
}

TEST_F(KernelCacheTest, KeysOfDescsAndTensorsAgree) {
  std::string from_desc, from_tensor;
  AppendKey(OpTensorDesc(DataType::kFloat, {2, 3}), &from_desc);
  AppendKey(Tensor::Create(DataType::kFloat, {2, 3}).value(), &from_tensor);
  EXPECT_EQ(from_desc, from_tensor);
  std::string omitted_desc, omitted_tensor;
  AppendKey(OpTensorDesc(), &omitted_desc);
  AppendKey(Tensor(), &omitted_tensor);
  EXPECT_EQ(omitted_desc, omitted_tensor);
  // Different dtype, dims, rank or constant value: different keys.
  auto key = [](const OpTensorDesc& d) {
    std::string k;
    AppendKey(d, &k);
    return k;
  };
  EXPECT_NE(key({DataType::kFloat, {6}}), key({DataType::kInt32, {6}}));
  EXPECT_NE(key({DataType::kFloat, {6}}), key({DataType::kFloat, {6, 1}}));
  EXPECT_NE(key(OpTensorDesc::Constant(Tensor::FromVector<int64_t>({2, 3}, {2}))),
            key(OpTensorDesc::Constant(Tensor::FromVector<int64_t>({3, 2}, {2}))));
  EXPECT_NE(key(OpTensorDesc::Constant(Tensor::FromVector<int64_t>({2, 3}, {2}))), key({DataType::kInt64, {2}}));
}

}  // namespace
}  // namespace ge::single_op
