// The copy kernel: data-movement ops equal ref byte for byte, in-place slots are a no-op, large copies use the
// pool, and training-mode Dropout or a requested mask stays on ref.
#include <cstring>

#include "kernels/exec/exec_test_util.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap IntAttr(const char* name, int64_t v) {
  ir::AttrMap m;
  m.Set(name, ir::AttrValue::Int(v));
  return m;
}

TEST(CopyKernel, DataMovementOpsMatchRefExactly) {
  std::mt19937 rng(21);
  Tensor x = RandomTensor(DataType::kFloat, {2, 1, 3, 4}, rng);
  ExpectMatchesRef(OpCase("Identity", {x}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Reshape", {x, Tensor::FromVector<int64_t>({6, -1}, {2})}, {false, true}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Flatten", {x}, {}, IntAttr("axis", 2)), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Squeeze", {x, Tensor::FromVector<int64_t>({1}, {1})}, {false, true}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Squeeze", {x}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Unsqueeze", {x, Tensor::FromVector<int64_t>({0, 5}, {2})}, {false, true}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Dropout", {x}), "exec.copy", 0);
  ExpectMatchesRef(
      OpCase("Dropout", {x, Tensor::Scalar<float>(0.3f), Tensor::Scalar<bool>(false)}, {false, true, true}),
      "exec.copy", 0);
  ExpectMatchesRef(OpCase("Dropout", {x}, {}, ir::AttrMap(), 1, 7), "exec.copy", 0);
  // Other dtypes are plain bytes.
  ExpectMatchesRef(OpCase("Identity", {RandomTensor(DataType::kInt64, {5, 3}, rng)}), "exec.copy", 0);
  ExpectMatchesRef(OpCase("Identity", {Tensor::FromVector<bool>({true, false, true}, {3})}), "exec.copy", 0);
  ExpectMatchesRef(
      OpCase("Reshape", {RandomTensor(DataType::kInt8, {0, 4}, rng), Tensor::FromVector<int64_t>({0, 2, 2}, {3})},
             {false, true}),
      "exec.copy", 0);
}

TEST(CopyKernel, SameSlotIsANoOp) {
  std::mt19937 rng(22);
  OpCase c("Reshape", {RandomTensor(DataType::kFloat, {3, 4}, rng), Tensor::FromVector<int64_t>({12}, {1})},
           {false, true});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Tensor buf = (*p)->inputs[0];
  Tensor before = buf.Clone().value();
  (*p)->binding->io.outputs[0] = buf.raw_data();
  ASSERT_TRUE((*p)->Run().ok());
  EXPECT_EQ(std::memcmp(buf.raw_data(), before.raw_data(), buf.nbytes()), 0);
}

TEST(CopyKernel, LargeCopyOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(23);
  ExpectMatchesRef(OpCase("Identity", {RandomTensor(DataType::kFloat, {1000, 1003}, rng)}), "exec.copy", 0,
                   pool->get());
}

TEST(CopyKernel, TrainingDropoutAndMaskStayOnRef) {
  std::mt19937 rng(24);
  Tensor x = RandomTensor(DataType::kFloat, {64}, rng);
  auto mask = PrepareCase(OpCase("Dropout", {x}, {}, ir::AttrMap(), 2));
  ASSERT_TRUE(mask.ok()) << mask.status().ToString();
  EXPECT_STREQ((*mask)->kernel->impl_name(), "ref");
  ASSERT_TRUE((*mask)->Run().ok());
  ExpectTensorNear((*mask)->outputs[0], x, 0, "dropout data");
  // training_mode not constant: decided at run time by ref.
  auto dyn = PrepareCase(
      OpCase("Dropout", {x, Tensor::Scalar<float>(0.5f), Tensor::Scalar<bool>(true)}, {false, true, false}));
  ASSERT_TRUE(dyn.ok()) << dyn.status().ToString();
  EXPECT_STREQ((*dyn)->kernel->impl_name(), "ref");
  ASSERT_TRUE((*dyn)->Run().ok());
}

TEST(CopyKernel, ShapeAgnosticCopyReadsTheVaryingDimsOfItsDataInput) {
  std::mt19937 rng(25);
  OpCase c("Reshape", {RandomTensor(DataType::kFloat, {3, 8}, rng), Tensor::FromVector<int64_t>({-1, 4}, {2})},
           {false, true});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{true, false}, {}};
  auto k = PrepareKernel(r);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  EXPECT_STREQ((*k)->impl_name(), "exec.copy");
  ASSERT_TRUE((*k)->shape_agnostic());
  EXPECT_EQ((*k)->runtime_input_dims(), (std::vector<std::vector<bool>>{{true, false}, {}}));
}

}  // namespace
}  // namespace ge::exec::testing
