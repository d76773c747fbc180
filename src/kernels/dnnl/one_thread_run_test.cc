// A kernel prepared for two threads and run while the pool grants one (rt::ContentionGovernor under contention)
// must still do all of its work: every primitive kind the engine makes, in the layouts the compiler gives it, is
// run at full width and at one thread (outputs poisoned with NaN first) and the two results compared.
#include <cmath>
#include <limits>

#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/dnnl/omp_threads.h"
#include "kernels/exec/kernel_variant.h"

extern "C" int omp_get_num_threads(void);

namespace ge::dnnl_kernels::testing {
namespace {

std::unique_ptr<rt::ThreadPool> Pool(rt::ContentionPolicy policy) {
  return std::move(rt::ThreadPool::Create(2, rt::PoolBackend::kDefault, policy)).value();
}

void Poison(std::vector<Tensor>& outs) {
  for (Tensor& t : outs) {
    if (!t.valid() || t.dtype() != DataType::kFloat) continue;
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = std::numeric_limits<float>::quiet_NaN();
  }
}

void ExpectOneThreadRunMatches(Case c) {
  c.threads = 2;
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  ASSERT_NE((*p)->kernel, nullptr) << name << ": declined";
  SCOPED_TRACE(name + " as " + (*p)->kernel->impl_name());
  if (std::getenv("GE_DNNL_TEST_VERBOSE")) std::printf("%s -> %s\n", name.c_str(), (*p)->kernel->impl_name());
  auto full = Pool(rt::ContentionPolicy::kFullThreads);
  auto one = Pool(rt::ContentionPolicy::kOneThread);
  Poison((*p)->outputs);
  ASSERT_TRUE((*p)->Run(full.get()).ok());
  std::vector<Tensor> want;
  for (const Tensor& t : (*p)->outputs) want.push_back(t.valid() ? t.Clone().value() : Tensor());
  for (int round = 0; round < 2; ++round) {  // and back: full width after a one-thread run
    rt::ThreadPool* pool = round == 0 ? one.get() : full.get();
    Poison((*p)->outputs);
    ASSERT_TRUE((*p)->Run(pool).ok());
    for (size_t i = 0; i < want.size(); ++i) {
      if (want[i].valid()) ExpectNear((*p)->outputs[i], want[i], 1e-5, name + " round " + std::to_string(round));
    }
  }
}

ir::AttrMap OnDnnl(ir::AttrMap a = ir::AttrMap()) {
  a.Set(exec::kKernelVariantAttr, AV::String("dnnl"));
  return a;
}

Case Conv(const Dims& x, const Dims& w, ir::AttrMap a, Format f, std::mt19937& rng) {
  Case c("Conv", {RandomTensor(x, rng), RandomTensor(w, rng, -1, 1), RandomTensor({w[0]}, rng)}, {false, true, true},
         OnDnnl(std::move(a)));
  c.input_formats = {f};
  c.output_formats = {f};
  return c;
}

// What the runs above rely on: after a one-thread run the calling thread's next region asking for two threads
// (as oneDNN's primitives do) gets a team of one, and after a full-width run it gets two again.
TEST(DnnlOneThreadRun, ExplicitTwoThreadRegionsGetTheGrantedTeam) {
#ifndef _OPENMP
  GTEST_SKIP() << "this build has no OpenMP";
#endif
  std::mt19937 rng(90);
  Case c("Relu", {RandomTensor({1, 64, 8, 8}, rng)});
  c.threads = 2;
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  auto team = [] {
    int n = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp master
      n = omp_get_num_threads();
    }
    return n;
  };
  auto one = Pool(rt::ContentionPolicy::kOneThread);
  ASSERT_TRUE((*p)->Run(one.get()).ok());
  EXPECT_EQ(team(), 1);
  auto full = Pool(rt::ContentionPolicy::kFullThreads);
  ASSERT_TRUE((*p)->Run(full.get()).ok());
  EXPECT_EQ(team(), 2);
}

TEST(DnnlOneThreadRun, Convolutions) {
  std::mt19937 rng(91);
  const auto pads1 = Attrs({{"pads", AV::Ints({1, 1, 1, 1})}});
  for (Format f : {Format::kNCHW, Format::kNHWC, Format::kNC1HWC0}) {
    ExpectOneThreadRunMatches(Conv({1, 64, 28, 28}, {64, 64, 3, 3}, pads1, f, rng));
    ExpectOneThreadRunMatches(Conv({2, 32, 17, 17}, {64, 32, 1, 1}, ir::AttrMap(), f, rng));
    ExpectOneThreadRunMatches(Conv({1, 64, 30, 30}, {128, 64, 3, 3},
                                   Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"strides", AV::Ints({2, 2})}}), f, rng));
    ExpectOneThreadRunMatches(Conv({1, 96, 14, 14}, {96, 1, 3, 3},
                                   Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"group", AV::Int(96)}}), f, rng));
  }
  // 1-D and a large-channel 1x1 (a reduction over many input channels).
  Case c1("Conv", {RandomTensor({1, 48, 200}, rng), RandomTensor({48, 48, 5}, rng, -1, 1)}, {false, true},
          Attrs({{"pads", AV::Ints({2, 2})}}));
  ExpectOneThreadRunMatches(c1);
  ExpectOneThreadRunMatches(Conv({1, 1024, 7, 7}, {256, 1024, 1, 1}, ir::AttrMap(), Format::kNHWC, rng));
  // Transposed.
  Case ct("ConvTranspose", {RandomTensor({1, 32, 14, 14}, rng), RandomTensor({32, 16, 4, 4}, rng, -1, 1)},
          {false, true}, Attrs({{"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}}));
  ExpectOneThreadRunMatches(ct);
}

TEST(DnnlOneThreadRun, MatMulsAndGemm) {
  std::mt19937 rng(92);
  for (bool const_b : {true, false}) {
    ExpectOneThreadRunMatches(
        Case("MatMul", {RandomTensor({128, 512}, rng), RandomTensor({512, 256}, rng)}, {false, const_b}, OnDnnl()));
    ExpectOneThreadRunMatches(
        Case("MatMul", {RandomTensor({1, 4096}, rng), RandomTensor({4096, 64}, rng)}, {false, const_b}, OnDnnl()));
    ExpectOneThreadRunMatches(
        Case("MatMul", {RandomTensor({8, 64, 64}, rng), RandomTensor({8, 64, 96}, rng)}, {false, const_b}, OnDnnl()));
  }
  ExpectOneThreadRunMatches(
      Case("Gemm", {RandomTensor({16, 768}, rng), RandomTensor({1000, 768}, rng), RandomTensor({1000}, rng)},
           {false, true, true}, OnDnnl(Attrs({{"transB", AV::Int(1)}}))));
  ExpectOneThreadRunMatches(
      Case("FusedMatMul", {RandomTensor({64, 256}, rng), RandomTensor({256, 512}, rng), RandomTensor({512}, rng)},
           {false, true, true}, OnDnnl(Attrs({{"activation", AV::String("Gelu")}})), "ge"));
}

TEST(DnnlOneThreadRun, PoolingNormsSoftmaxEltwiseBinaryConcat) {
  std::mt19937 rng(93);
  for (Format f : {Format::kNCHW, Format::kNHWC}) {
    Case mp(
        "MaxPool", {RandomTensor({2, 32, 56, 56}, rng)}, {},
        Attrs({{"kernel_shape", AV::Ints({3, 3})}, {"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}}));
    mp.input_formats = {f};
    mp.output_formats = {f};
    ExpectOneThreadRunMatches(mp);
    Case gap("GlobalAveragePool", {RandomTensor({2, 256, 7, 7}, rng)});
    gap.input_formats = {f};
    gap.output_formats = {f};
    ExpectOneThreadRunMatches(gap);
  }
  ExpectOneThreadRunMatches(Case("Softmax", {RandomTensor({64, 1000}, rng)}, {}, Attrs({{"axis", AV::Int(-1)}})));
  ExpectOneThreadRunMatches(Case("LayerNormalization",
                                 {RandomTensor({4, 128, 768}, rng), RandomTensor({768}, rng), RandomTensor({768}, rng)},
                                 {false, true, true}, Attrs({{"axis", AV::Int(-1)}})));
  ExpectOneThreadRunMatches(Case("BatchNormalization",
                                 {RandomTensor({2, 64, 28, 28}, rng), RandomTensor({64}, rng), RandomTensor({64}, rng),
                                  RandomTensor({64}, rng), RandomTensor({64}, rng, 0.5, 2)},
                                 {false, true, true, true, true}));
  ExpectOneThreadRunMatches(Case("Relu", {RandomTensor({4, 64, 56, 56}, rng)}));
  ExpectOneThreadRunMatches(Case("Add", {RandomTensor({4, 64, 56, 56}, rng), RandomTensor({4, 64, 56, 56}, rng)}));
  ExpectOneThreadRunMatches(Case("Mul", {RandomTensor({4, 64, 56, 56}, rng), RandomTensor({1, 64, 1, 1}, rng)}));
  ExpectOneThreadRunMatches(Case("Concat", {RandomTensor({2, 64, 28, 28}, rng), RandomTensor({2, 32, 28, 28}, rng)}, {},
                                 Attrs({{"axis", AV::Int(1)}})));
}

TEST(DnnlOneThreadRun, Attention) {
  std::mt19937 rng(94);
  const Tensor qkv = RandomTensor({128, 2, 3 * 128}, rng);
  ExpectOneThreadRunMatches(Case("Attention", {qkv, qkv, qkv}, {},
                                 Attrs({{"num_heads", AV::Int(4)},
                                        {"head_size", AV::Int(32)},
                                        {"q_offset", AV::Int(0)},
                                        {"k_offset", AV::Int(128)},
                                        {"v_offset", AV::Int(256)},
                                        {"scale", AV::Float(0.17f)}}),
                                 "ge"));
}

// An LSTM whose steps are large enough to be prepared for both threads (rnn_kernels.cc).
TEST(DnnlOneThreadRun, Lstm) {
  std::mt19937 rng(95);
  const int64_t seq = 3, batch = 8, input = 32, hidden = 512;
  Case c("LSTM",
         {RandomTensor({seq, batch, input}, rng, -1, 1), RandomTensor({1, 4 * hidden, input}, rng, -0.2, 0.2),
          RandomTensor({1, 4 * hidden, hidden}, rng, -0.2, 0.2)},
         {false, true, true}, Attrs({{"hidden_size", AV::Int(hidden)}}));
  c.num_outputs = 3;
  ExpectOneThreadRunMatches(c);
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
