// precision_mode allow_bf16 on the dnnl engine: convolutions, matmuls and attention computed in bf16 stay within
// bf16 tolerance of the f32 reference, name a bf16 implementation where the CPU has AVX-512 BF16, and the same
// cases without allow_bf16 keep f32 kernels and the f32 tolerance.
#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::dnnl_kernels::testing {
namespace {

constexpr double kBf16Tol = 1e-2;

std::string ImplOf(const Case& c) {
  auto p = PrepareCase(c);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  if (!p.ok() || (*p)->kernel == nullptr) return "";
  return (*p)->kernel->impl_name();
}

// c in both modes: f32 at the f32 tolerance on an f32 kernel; bf16 at kBf16Tol on a bf16 kernel (when the CPU has one).
void ExpectBothModes(Case c, bool expect_bf16 = true) {
  c.allow_bf16 = false;
  ExpectDnnlMatchesRef(c);
  const std::string f32_impl = ImplOf(c);
  EXPECT_EQ(f32_impl.find("bf16"), std::string::npos) << f32_impl;
  c.allow_bf16 = true;
  ExpectDnnlMatchesRef(c, kBf16Tol);
  const std::string impl = ImplOf(c);
  const bool want = expect_bf16 && CpuHasBf16();
  EXPECT_EQ(impl.size() > 5 && impl.compare(impl.size() - 5, 5, " bf16") == 0, want) << impl;
}

ir::AttrMap ConvAttrs(int64_t group = 1) {
  return Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"group", AV::Int(group)}});
}

TEST(DnnlBf16, Conv) {
  std::mt19937 rng(71);
  ExpectBothModes(Case("Conv", {RandomTensor({1, 32, 14, 14}, rng), RandomTensor({64, 32, 3, 3}, rng, -0.5, 0.5),
                                RandomTensor({64}, rng)},
                       {false, true, true}, ConvAttrs()));
  ExpectBothModes(Case("Conv", {RandomTensor({2, 16, 9, 9}, rng), RandomTensor({16, 1, 3, 3}, rng)}, {false, true},
                       ConvAttrs(16)));  // depthwise
  ExpectBothModes(Case("Conv", {RandomTensor({1, 64, 7, 7}, rng), RandomTensor({32, 64, 1, 1}, rng)}, {false, true}));
  // Weights that are not constant: no bf16 copy, f32 in both modes.
  ExpectBothModes(Case("Conv", {RandomTensor({1, 8, 6, 6}, rng), RandomTensor({8, 8, 3, 3}, rng)}, {}, ConvAttrs()),
                  false);
}

TEST(DnnlBf16, FusedConvWithSumAndActivation) {
  std::mt19937 rng(72);
  ir::AttrMap a = ConvAttrs();
  a.Set("activation", AV::String("Relu"));
  ExpectBothModes(Case("FusedConv",
                       {RandomTensor({1, 32, 8, 8}, rng), RandomTensor({32, 32, 3, 3}, rng, -0.5, 0.5),
                        RandomTensor({32}, rng), RandomTensor({1, 32, 8, 8}, rng)},
                       {false, true, true, false}, a, "ge"));
}

TEST(DnnlBf16, ConvTranspose) {
  std::mt19937 rng(73);
  ExpectBothModes(Case("ConvTranspose", {RandomTensor({1, 16, 6, 6}, rng), RandomTensor({16, 8, 3, 3}, rng)},
                       {false, true}, Attrs({{"strides", AV::Ints({2, 2})}})));
}

TEST(DnnlBf16, MatMulAndGemm) {
  std::mt19937 rng(74);
  // oneDNN's matmuls (below AVX-512 the default for constant weights is ge's float32 packed SGEMM).
  auto on_dnnl = [](ir::AttrMap a) {
    a.Set(exec::kKernelVariantAttr, AV::String("dnnl"));
    return a;
  };
  ExpectBothModes(
      Case("MatMul", {RandomTensor({2, 16, 96}, rng), RandomTensor({96, 64}, rng)}, {false, true}, on_dnnl({})));
  ExpectBothModes(Case("FusedMatMul", {RandomTensor({16, 128}, rng), RandomTensor({128, 32}, rng), RandomTensor({32}, rng)},
                       {false, true, true}, on_dnnl(Attrs({{"activation", AV::String("Gelu")}})), "ge"));
  ExpectBothModes(Case("Gemm", {RandomTensor({64, 8}, rng), RandomTensor({48, 64}, rng), RandomTensor({48}, rng)},
                       {false, true, true}, on_dnnl(Attrs({{"transA", AV::Int(1)}, {"transB", AV::Int(1)}}))));
  ExpectBothModes(Case("MatMul", {RandomTensor({3, 5, 7}, rng), RandomTensor({3, 7, 4}, rng)}), false);
}

TEST(DnnlBf16, Attention) {
  std::mt19937 rng(75);
  const Tensor qkv = RandomTensor({9, 2, 3 * 32}, rng);
  ExpectBothModes(Case("Attention", {qkv, qkv, qkv}, {},
                       Attrs({{"num_heads", AV::Int(2)}, {"head_size", AV::Int(16)}, {"q_offset", AV::Int(0)},
                              {"k_offset", AV::Int(32)}, {"v_offset", AV::Int(64)}, {"scale", AV::Float(0.25f)}}),
                       "ge"));
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
