// The transpose kernel: random shapes and perms of every word size equal ref bit for bit (rank 1, unit dims,
// identity perms, the channel shuffle, tiled and untiled inner loops), in-place identity is a no-op, large
// transposes use the pool, and what it does not cover stays on ref.
#include <cstdio>
#include <cstring>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec::testing {
namespace {

// Random bytes for integer and bool dtypes; ordinary values for floating ones (ref moves them as floats, which may
// quiet a signalling NaN).
Tensor RandomBits(DataType dt, const Dims& dims, std::mt19937& rng) {
  if (IsFloatingPoint(dt)) return RandomTensor(dt, dims, rng);
  Tensor t = Tensor::Create(dt, dims).value();
  auto* p = static_cast<uint8_t*>(t.raw_data());
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t i = 0; i < t.nbytes(); ++i) {
    p[i] = static_cast<uint8_t>(dt == DataType::kBool ? byte(rng) & 1 : byte(rng));
  }
  return t;
}

TEST(TransposeKernel, RandomShapesAndPermsMatchRefExactly) {
  std::mt19937 rng(31);
  const DataType types[] = {DataType::kFloat, DataType::kUint8, DataType::kBool, DataType::kFloat16,
                            DataType::kInt16, DataType::kInt64, DataType::kDouble, DataType::kInt32};
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 1 + iter % 6;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, rank <= 2 ? 40 : 7)(rng));
    std::vector<int64_t> perm(rank);
    for (int i = 0; i < rank; ++i) perm[i] = i;
    if (iter % 7 != 0) std::shuffle(perm.begin(), perm.end(), rng);
    const DataType dt = types[iter % 8];
    ir::AttrMap attrs = iter % 11 == 5 ? ir::AttrMap() : Perm(perm);  // no perm: reversed axes
    ExpectBitExact(OpCase("Transpose", {RandomBits(dt, dims, rng)}, {}, attrs), "exec.transpose");
  }
}

TEST(TransposeKernel, NamedCases) {
  std::mt19937 rng(32);
  auto run = [&](DataType dt, const Dims& dims, const std::vector<int64_t>& perm) {
    ExpectBitExact(OpCase("Transpose", {RandomBits(dt, dims, rng)}, {}, Perm(perm)), "exec.transpose");
  };
  run(DataType::kFloat, {1, 2, 58, 28, 28}, {0, 2, 1, 3, 4});  // shufflenet channel shuffle
  run(DataType::kFloat, {1, 2, 24, 7, 7}, {0, 2, 1, 3, 4});
  run(DataType::kFloat, {17}, {0});
  run(DataType::kInt8, {1, 1, 1}, {2, 0, 1});
  run(DataType::kFloat, {3, 1, 4, 1, 5}, {4, 3, 2, 1, 0});
  run(DataType::kFloat, {2, 3, 4}, {0, 1, 2});              // identity
  run(DataType::kFloat, {1, 5, 1, 6}, {2, 0, 3, 1});        // identity once unit dims go
  run(DataType::kFloat, {37, 53}, {1, 0});                  // tiled with ragged edges
  run(DataType::kUint8, {64, 48}, {1, 0});
  run(DataType::kFloat16, {33, 17, 3}, {2, 0, 1});
  run(DataType::kInt64, {5, 19, 23}, {0, 2, 1});
  run(DataType::kFloat, {2, 3, 16, 16}, {0, 2, 3, 1});      // NCHW -> NHWC
  run(DataType::kFloat, {2, 16, 16, 3}, {0, 3, 1, 2});      // NHWC -> NCHW
  run(DataType::kFloat, {2, 3, 4, 5, 2, 3, 2, 2}, {7, 1, 5, 3, 0, 6, 2, 4});  // rank 8
  run(DataType::kFloat, {0, 3, 4}, {2, 0, 1});                                 // empty
  ExpectBitExact(OpCase("Transpose", {Tensor::Scalar<float>(2.5f)}), "exec.transpose");
}

TEST(TransposeKernel, PlanMergesAndDropsAxes) {
  // [1,2,C,H,W] perm [0,2,1,3,4]: rows of H*W elements over outer [C, 2].
  GatherPlan p = BuildGatherPlan({{1, 2 * 8 * 35}, {8, 35}, {2, 8 * 35}, {5, 7}, {7, 1}}, 0, 4);
  EXPECT_EQ(p.inner, GatherPlan::Inner::kRun);
  EXPECT_EQ(p.n, 35);
  EXPECT_EQ(p.outer_rank, 2);
  GatherPlan id = BuildGatherPlan({{1, 6}, {2, 3}, {3, 1}}, 0, 4);
  EXPECT_TRUE(id.contiguous());
  EXPECT_EQ(id.n, 6);
  GatherPlan t = BuildGatherPlan({{4, 1}, {6, 4}}, 0, 4);
  EXPECT_EQ(t.inner, GatherPlan::Inner::kTile);
  EXPECT_EQ(t.outer_rank, 0);
}

TEST(TransposeKernel, IdentityInPlaceIsANoOp) {
  std::mt19937 rng(33);
  auto p =
      PrepareCase(OpCase("Transpose", {RandomTensor(DataType::kFloat, {1, 4, 1, 6}, rng)}, {}, Perm({2, 1, 0, 3})));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Tensor buf = (*p)->inputs[0];
  Tensor before = buf.Clone().value();
  (*p)->binding->io.outputs[0] = buf.raw_data();
  ASSERT_TRUE((*p)->Run().ok());
  EXPECT_EQ(std::memcmp(buf.raw_data(), before.raw_data(), buf.nbytes()), 0);
}

TEST(TransposeKernel, NonIdentityInPlaceIsAnError) {
  std::mt19937 rng(34);
  auto p = PrepareCase(OpCase("Transpose", {RandomTensor(DataType::kFloat, {4, 6}, rng)}));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  (*p)->binding->io.outputs[0] = (*p)->inputs[0].raw_data();
  EXPECT_FALSE((*p)->Run().ok());
}

TEST(TransposeKernel, LargeTransposesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(35);
  auto run = [&](DataType dt, const Dims& dims, const std::vector<int64_t>& perm) {
    ExpectBitExact(OpCase("Transpose", {RandomBits(dt, dims, rng)}, {}, Perm(perm)), "exec.transpose", pool->get());
  };
  run(DataType::kFloat, {1000, 1003}, {1, 0});            // one tile strip, split along m
  run(DataType::kFloat, {1, 2, 116, 28, 28}, {0, 2, 1, 3, 4});
  run(DataType::kUint8, {3, 300, 301}, {0, 2, 1});
  run(DataType::kInt64, {2, 200, 300}, {1, 2, 0});
  run(DataType::kFloat, {300000}, {0});                   // one long run, split
}

TEST(TransposeKernel, UnsupportedStaysOnRef) {
  std::mt19937 rng(36);
  Tensor c = Tensor::Create(DataType::kComplex128, {2, 3}).value();
  std::memset(c.raw_data(), 0, c.nbytes());
  auto p = PrepareCase(OpCase("Transpose", {c}));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "ref");
  Dims nine(9, 2);
  auto big = PrepareCase(OpCase("Transpose", {RandomTensor(DataType::kFloat, nine, rng)}));
  ASSERT_TRUE(big.ok()) << big.status().ToString();
  EXPECT_STREQ((*big)->kernel->impl_name(), "ref");
}

}  // namespace
}  // namespace ge::exec::testing
