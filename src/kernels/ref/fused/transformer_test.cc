// ge::LayerNormalization and ge::Attention: inference, and the reference kernels against a direct computation in
// double (LayerNorm also against ONNX LayerNormalization's kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester FusedTester() { return OpTester(ops::RegisterFusedOps, RegisterFusedRefKernels); }

Tensor Random(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(rng);
  return t;
}

ir::AttrMap AttentionAttrs(int64_t heads, int64_t size, int64_t oq, int64_t ok, int64_t ov, float scale) {
  ir::AttrMap a;
  a.Set("num_heads", ir::AttrValue::Int(heads));
  a.Set("head_size", ir::AttrValue::Int(size));
  a.Set("q_offset", ir::AttrValue::Int(oq));
  a.Set("k_offset", ir::AttrValue::Int(ok));
  a.Set("v_offset", ir::AttrValue::Int(ov));
  a.Set("scale", ir::AttrValue::Float(scale));
  return a;
}

TEST(GeLayerNormalization, MatchesTheDefinition) {
  OpTester t = FusedTester();
  const Tensor x = Random({3, 2, 8}, 1), g = Random({8}, 2), b = Random({8}, 3);
  ir::AttrMap a;
  a.Set("epsilon", ir::AttrValue::Float(1e-3f));
  auto outs = t.Run("LayerNormalization", {x, g, b}, a, 1, 1, "ge");
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  const Tensor& y = (*outs)[0].tensor;
  ASSERT_EQ(y.dims(), x.dims());
  Tensor want = Tensor::Create(DataType::kFloat, x.dims()).value();
  for (int64_t r = 0; r < 6; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < 8; ++c) mean += x.data<float>()[r * 8 + c] / 8.0;
    for (int c = 0; c < 8; ++c) var += std::pow(x.data<float>()[r * 8 + c] - mean, 2) / 8.0;
    for (int c = 0; c < 8; ++c) {
      want.data<float>()[r * 8 + c] = static_cast<float>(
          (x.data<float>()[r * 8 + c] - mean) / std::sqrt(var + 1e-3) * g.data<float>()[c] + b.data<float>()[c]);
    }
  }
  EXPECT_TRUE(TensorsMatch(y, want, 1e-5));
}

TEST(GeAttention, MatchesTheDefinition) {
  OpTester t = FusedTester();
  const int64_t s = 4, batch = 2, heads = 2, size = 3, c = 3 * heads * size;
  const Tensor qkv = Random({s, batch, c}, 4);
  auto outs = t.Run("Attention", {qkv, qkv, qkv}, AttentionAttrs(heads, size, 0, 6, 12, 0.5f), 1, 1, "ge");
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  const Tensor& y = (*outs)[0].tensor;
  ASSERT_EQ(y.dims(), (Dims{s, batch, heads * size}));
  auto at = [&](int64_t i, int64_t b, int64_t off) { return static_cast<double>(qkv.data<float>()[(i * batch + b) * c + off]); };
  Tensor want_y = Tensor::Create(DataType::kFloat, y.dims()).value();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t i = 0; i < s; ++i) {
        std::vector<double> p(s);
        double sum = 0;
        for (int64_t j = 0; j < s; ++j) {
          double dot = 0;
          for (int64_t d = 0; d < size; ++d) dot += 0.5 * at(i, b, h * size + d) * at(j, b, 6 + h * size + d);
          p[j] = std::exp(dot);
          sum += p[j];
        }
        for (int64_t d = 0; d < size; ++d) {
          double want = 0;
          for (int64_t j = 0; j < s; ++j) want += p[j] / sum * at(j, b, 12 + h * size + d);
          want_y.data<float>()[(i * batch + b) * heads * size + h * size + d] = static_cast<float>(want);
        }
      }
    }
  }
  EXPECT_TRUE(TensorsMatch(y, want_y, 1e-5));
}

TEST(GeAttention, InferenceErrors) {
  OpTester t = FusedTester();
  const Tensor q = Random({4, 1, 8}, 5);
  // heads past the end of the input, and a missing num_heads
  EXPECT_FALSE(t.Run("Attention", {q, q, q}, AttentionAttrs(2, 4, 0, 4, 0, 1.f), 1, 1, "ge").ok());
  EXPECT_FALSE(t.Run("Attention", {q, q, q}, AttentionAttrs(0, 4, 0, 0, 0, 1.f), 1, 1, "ge").ok());
  // K and V of different lengths
  EXPECT_FALSE(t.Run("Attention", {q, Random({5, 1, 8}, 6), q}, AttentionAttrs(2, 4, 0, 0, 0, 1.f), 1, 1, "ge").ok());
}

}  // namespace
}  // namespace ge::ref
