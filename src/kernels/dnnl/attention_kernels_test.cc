// ge::Attention and ge::LayerNormalization on the dnnl engine against their reference kernels.
#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

ir::AttrMap AttentionAttrs(int64_t heads, int64_t size, int64_t oq, int64_t ok, int64_t ov, float scale) {
  return Attrs({{"num_heads", AV::Int(heads)}, {"head_size", AV::Int(size)}, {"q_offset", AV::Int(oq)},
                {"k_offset", AV::Int(ok)}, {"v_offset", AV::Int(ov)}, {"scale", AV::Float(scale)}});
}

TEST(DnnlAttention, PackedQkv) {
  std::mt19937 rng(51);
  for (int64_t batch : {1, 3}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    const Tensor qkv = RandomTensor({7, batch, 3 * 16}, rng);
    Case c("Attention", {qkv, qkv, qkv}, {}, AttentionAttrs(4, 4, 0, 16, 32, 0.5f), "ge");
    c.threads = 2;
    ExpectDnnlMatchesRef(c);
  }
}

TEST(DnnlAttention, SeparateInputsAndLengths) {
  std::mt19937 rng(52);
  // Q over 5 positions, K and V over 9; V wider than the heads; scale 1.
  Case c("Attention", {RandomTensor({5, 2, 12}, rng), RandomTensor({9, 2, 12}, rng), RandomTensor({9, 2, 20}, rng)},
         {}, AttentionAttrs(3, 4, 0, 0, 6, 1.f), "ge");
  ExpectDnnlMatchesRef(c);
}

TEST(DnnlAttention, DeclinesFloat64) {
  Tensor d = Tensor::Create(DataType::kDouble, {4, 1, 8}).value();
  ExpectDeclined(Case("Attention", {d, d, d}, {}, AttentionAttrs(2, 4, 0, 0, 0, 1.f), "ge"));
}

TEST(DnnlGeLayerNorm, LastAxis) {
  std::mt19937 rng(54);
  ExpectDnnlMatchesRef(Case("LayerNormalization",
                            {RandomTensor({2, 5, 32}, rng), RandomTensor({32}, rng), RandomTensor({32}, rng)},
                            {false, true, true}, Attrs({{"axis", AV::Int(-1)}, {"epsilon", AV::Float(1e-5f)}}),
                            "ge"));
  ExpectDnnlMatchesRef(Case("LayerNormalization", {RandomTensor({3, 16}, rng), RandomTensor({16}, rng)}, {true, true},
                            Attrs({{"axis", AV::Int(-1)}}), "ge"));
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
