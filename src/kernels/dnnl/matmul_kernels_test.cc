#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/exec/agnostic_test_util.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::dnnl_kernels::testing {
namespace {

// These test oneDNN's matmuls: below AVX-512 the engine's default for constant weights is ge's packed SGEMM
// (dnnl_engine_test.cc), so the cases ask for the "dnnl" variant.
ir::AttrMap OnDnnl(ir::AttrMap a = ir::AttrMap()) {
  a.Set(exec::kKernelVariantAttr, AV::String("dnnl"));
  return a;
}

Case MatMulCase(const Dims& a, const Dims& b, bool const_b, std::mt19937& rng) {
  return Case("MatMul", {RandomTensor(a, rng), RandomTensor(b, rng)}, {false, const_b}, OnDnnl());
}

TEST(DnnlMatMul, TwoDAndBatchedBroadcasting) {
  std::mt19937 rng(21);
  ExpectDnnlMatchesRef(MatMulCase({5, 7}, {7, 3}, false, rng));
  ExpectDnnlMatchesRef(MatMulCase({5, 7}, {7, 3}, true, rng));
  ExpectDnnlMatchesRef(MatMulCase({2, 3, 5, 7}, {7, 4}, true, rng));      // B 2-D: A's batch folds into M
  ExpectDnnlMatchesRef(MatMulCase({2, 3, 5, 7}, {3, 7, 4}, false, rng));  // B batch broadcast over A's
  ExpectDnnlMatchesRef(MatMulCase({2, 1, 5, 7}, {1, 4, 7, 6}, false, rng));
  ExpectDnnlMatchesRef(MatMulCase({1, 5, 7}, {3, 7, 6}, true, rng));      // A broadcast over B's batch
  ExpectDnnlMatchesRef(MatMulCase({4, 5, 7}, {4, 7, 6}, false, rng));
  // 1-D operands.
  ExpectDnnlMatchesRef(MatMulCase({7}, {7, 3}, true, rng));
  ExpectDnnlMatchesRef(MatMulCase({2, 5, 7}, {7}, false, rng));
  ExpectDnnlMatchesRef(MatMulCase({7}, {2, 7, 3}, false, rng));
  ExpectDnnlMatchesRef(MatMulCase({7}, {7}, false, rng));  // a scalar result
  ExpectDnnlMatchesRef(MatMulCase({64, 96}, {96, 128}, true, rng));
}

TEST(DnnlMatMul, Declines) {
  Tensor ai = Tensor::Create(DataType::kInt32, {2, 3}).value();
  Tensor bi = Tensor::Create(DataType::kInt32, {3, 2}).value();
  ExpectDeclined(Case("MatMul", {ai, bi}));
}

Case GemmCase(const Dims& a, const Dims& b, const Dims& c, bool ta, bool tb, float alpha, float beta, bool const_b,
              bool const_c, std::mt19937& rng) {
  std::vector<Tensor> in = {RandomTensor(a, rng), RandomTensor(b, rng)};
  if (!c.empty() || const_c) in.push_back(RandomTensor(c, rng));
  ir::AttrMap attrs = OnDnnl(Attrs({{"transA", AV::Int(ta)}, {"transB", AV::Int(tb)}}));
  if (alpha != 1.f) attrs.Set("alpha", AV::Float(alpha));
  if (beta != 1.f) attrs.Set("beta", AV::Float(beta));
  return Case("Gemm", in, {false, const_b, const_c}, attrs);
}

TEST(DnnlGemm, TransposesAndC) {
  std::mt19937 rng(23);
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (bool cb : {false, true}) {
        SCOPED_TRACE(std::to_string(ta) + std::to_string(tb) + std::to_string(cb));
        const Dims a = ta ? Dims{9, 6} : Dims{6, 9}, b = tb ? Dims{5, 9} : Dims{9, 5};
        ExpectDnnlMatchesRef(GemmCase(a, b, {5}, ta, tb, 1.f, 1.f, cb, true, rng));
        ExpectDnnlMatchesRef(GemmCase(a, b, {}, ta, tb, 0.5f, 1.f, cb, false, rng));
      }
    }
  }
  // C shapes: row (bias), full, scalar, one-element row; alpha and beta.
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {1, 5}, false, false, 1.f, 1.f, true, false, rng));
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {6, 5}, false, false, 1.f, 1.f, true, false, rng));
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {}, false, false, 1.f, 1.f, true, true, rng));
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {1}, false, false, 1.f, 1.f, true, false, rng));
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {5, 9}, {5}, false, true, 1.f, 0.25f, false, true, rng));    // scaled bias
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {5}, false, false, 1.f, 0.25f, false, false, rng));  // post-op
  ExpectDnnlMatchesRef(GemmCase({9, 6}, {9, 5}, {6, 5}, true, false, 2.f, -1.5f, true, false, rng));
  ExpectDnnlMatchesRef(GemmCase({9, 6}, {9, 5}, {1, 1}, true, false, 0.5f, 3.f, true, true, rng));
  ExpectDnnlMatchesRef(GemmCase({6, 9}, {9, 5}, {5}, false, false, 1.f, 0.f, true, true, rng));  // beta 0: no C
  ExpectDnnlMatchesRef(GemmCase({1, 512}, {1000, 512}, {1000}, false, true, 1.f, 1.f, true, true, rng));
}

TEST(DnnlGemm, DeclinesColumnC) {
  std::mt19937 rng(24);
  ExpectDeclined(GemmCase({6, 9}, {9, 5}, {6, 1}, false, false, 1.f, 1.f, true, false, rng));
}

TEST(DnnlFusedGemm, ActivationsAndC) {
  std::mt19937 rng(25);
  for (const char* act : {"Relu", "Tanh", "Gelu", "Silu", "HardSigmoid", ""}) {
    SCOPED_TRACE(act);
    Case c = GemmCase({6, 9}, {5, 9}, {5}, false, true, 1.f, 1.f, true, true, rng);
    c.op = "FusedGemm";
    c.domain = "ge";
    c.attrs.Set("activation", AV::String(act));
    ExpectDnnlMatchesRef(c);
    Case d = GemmCase({9, 6}, {9, 5}, {6, 5}, true, false, 0.5f, 2.f, false, false, rng);
    d.op = "FusedGemm";
    d.domain = "ge";
    d.attrs.Set("activation", AV::String(act));
    ExpectDnnlMatchesRef(d);
  }
}

TEST(DnnlFusedMatMul, BiasAndActivation) {
  std::mt19937 rng(26);
  for (const char* act : {"", "Relu", "Gelu", "LeakyRelu"}) {
    SCOPED_TRACE(act);
    ir::AttrMap a = OnDnnl(Attrs({{"activation", AV::String(act)}}));
    ExpectDnnlMatchesRef(Case("FusedMatMul", {RandomTensor({2, 3, 5, 8}, rng), RandomTensor({8, 6}, rng),
                                              RandomTensor({6}, rng)},
                              {false, true, true}, a, "ge"));
    ExpectDnnlMatchesRef(Case("FusedMatMul", {RandomTensor({3, 5, 8}, rng), RandomTensor({3, 8, 6}, rng)},
                              {false, false}, a, "ge"));
  }
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing

namespace ge::dnnl_kernels::testing {
namespace {

// With varying M, K or N (runtime v2's unknown dims) one oneDNN matmul with runtime dims serves every shape.
TEST(DnnlMatMul, ShapeAgnosticServesEveryLength) {
  std::mt19937 rng(29);
  const kernels::EngineList engines = {CreateDnnlEngine()};
  // Folded: A [1, L, 16] x constant B [16, 8] (L varies; A's batch folds into M).
  exec::testing::AgnosticCase folded{"MatMul", {}, {{1, -1, 16}, {16, 8}}, {Tensor(), RandomTensor({16, 8}, rng)},
                                     {{{1, 3, 16}, {16, 8}}, {{1, 1, 16}, {16, 8}}, {{1, 70, 16}, {16, 8}}}};
  EXPECT_NE(exec::testing::ExpectAgnosticMatchesRef(folded, engines, "dnnl", 1e-4).find("dnnl.matmul"),
            std::string::npos);
  // Batched attention shapes: Q [2, L, 8] x K^T [2, 8, L], then weights [2, L, L] x V [2, L, 8].
  exec::testing::AgnosticCase scores{"MatMul", {}, {{2, -1, 8}, {2, 8, -1}}, {},
                                     {{{2, 5, 8}, {2, 8, 5}}, {{2, 1, 8}, {2, 8, 1}}, {{2, 33, 8}, {2, 8, 33}}}};
  EXPECT_NE(exec::testing::ExpectAgnosticMatchesRef(scores, engines, "dnnl", 1e-4).find("dnnl.matmul"),
            std::string::npos);
  exec::testing::AgnosticCase mix{"MatMul", {}, {{2, -1, -1}, {2, -1, 8}}, {},
                                  {{{2, 5, 5}, {2, 5, 8}}, {{2, 9, 9}, {2, 9, 8}}, {{2, 1, 1}, {2, 1, 8}}}};
  EXPECT_NE(exec::testing::ExpectAgnosticMatchesRef(mix, engines, "dnnl", 1e-4).find("dnnl.matmul"),
            std::string::npos);
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
