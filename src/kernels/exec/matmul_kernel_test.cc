// The packed AVX2 SGEMM kernel against the reference kernels: MatMul with batch dims folded into M, Gemm with
// transB and a bias C times beta, FusedMatMul / FusedGemm with a bias and Relu; row and column tails (M not a
// multiple of 6, N not of 16); what it declines.
#include "kernels/exec/matmul_kernel.h"

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/packed_gemm.h"

namespace ge::exec::testing {
namespace {

constexpr double kTol = 1e-5;

TEST(PackedGemmKernel, MatMulAndGemmMatchRef) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(51);
  // MatMul: A [2, 7, 33] @ B [33, 37] (batch folded into 14 rows).
  ExpectMatchesRef(OpCase("MatMul", {RandomTensor(DataType::kFloat, {2, 7, 33}, rng),
                                     RandomTensor(DataType::kFloat, {33, 37}, rng)},
                          {false, true}),
                   "exec.packed_gemm_avx2", kTol);
  for (int64_t m : {1, 6, 13}) {
    for (bool tb : {false, true}) {
      ir::AttrMap a;
      a.Set("transB", ir::AttrValue::Int(tb));
      a.Set("beta", ir::AttrValue::Float(0.5f));
      const Dims bd = tb ? Dims{40, 24} : Dims{24, 40};
      ExpectMatchesRef(OpCase("Gemm", {RandomTensor(DataType::kFloat, {m, 24}, rng),
                                       RandomTensor(DataType::kFloat, bd, rng),
                                       RandomTensor(DataType::kFloat, {40}, rng)},
                              {false, true, true}, a),
                       "exec.packed_gemm_avx2", kTol);
    }
  }
}

TEST(PackedGemmKernel, FusedBiasAndRelu) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(52);
  ir::AttrMap relu;
  relu.Set("activation", ir::AttrValue::String("Relu"));
  OpCase mm("FusedMatMul", {RandomTensor(DataType::kFloat, {5, 20}, rng), RandomTensor(DataType::kFloat, {20, 17}, rng),
                            RandomTensor(DataType::kFloat, {17}, rng)},
            {false, true, false}, relu, 1, 1);
  mm.domain = "ge";
  ExpectMatchesRef(mm, "exec.packed_gemm_avx2", kTol);
  OpCase gemm("FusedGemm", {RandomTensor(DataType::kFloat, {9, 16}, rng), RandomTensor(DataType::kFloat, {16, 32}, rng)},
              {false, true}, relu, 1, 1);
  gemm.domain = "ge";
  ExpectMatchesRef(gemm, "exec.packed_gemm_avx2", kTol);
}

TEST(PackedGemmKernel, Declines) {
  std::mt19937 rng(53);
  // Non-constant weights and transA stay on ref.
  auto p = PrepareCase(OpCase("MatMul", {RandomTensor(DataType::kFloat, {3, 4}, rng),
                                         RandomTensor(DataType::kFloat, {4, 5}, rng)}));
  ASSERT_TRUE(p.ok());
  EXPECT_STRNE((*p)->kernel->impl_name(), "exec.packed_gemm_avx2");
  ir::AttrMap ta;
  ta.Set("transA", ir::AttrValue::Int(1));
  auto q = PrepareCase(OpCase("Gemm", {RandomTensor(DataType::kFloat, {4, 3}, rng),
                                       RandomTensor(DataType::kFloat, {4, 5}, rng)},
                              {false, true}, ta));
  ASSERT_TRUE(q.ok());
  EXPECT_STRNE((*q)->kernel->impl_name(), "exec.packed_gemm_avx2");
}

}  // namespace
}  // namespace ge::exec::testing
