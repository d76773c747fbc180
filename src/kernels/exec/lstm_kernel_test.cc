// ge's LSTM against the reference kernels: directions, optional B / initial states / peepholes, hidden sizes that
// leave partial R panels (1, 7, 40, 129, 200) and full ones (64, 256), inputs of 1, 3 and 100, sequences of 1, 5
// and 37, batch 1 and more, a long sequence with both directions on a thread pool, one direction's steps split over
// a pool, NaN propagation; its constants packed, mapped back bit-identically; what it declines (clip, non-constant
// weights, other activations).
#include "kernels/exec/lstm_kernel.h"

#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/rnn_test_util.h"

namespace ge::exec::testing {
namespace {

constexpr char kImpl[] = "exec.lstm";

TEST(LstmKernel, MatchesRef) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(61);
  for (const char* dir : {"forward", "reverse", "bidirectional"}) {
    for (int64_t hidden : {7, 40, 64}) {
      for (int variant = 0; variant < 3; ++variant) {
        RnnForm f;
        f.direction = dir;
        f.bias = variant != 1;
        f.initial = variant != 2;
        f.peephole = variant == 1;
        SCOPED_TRACE(std::string(dir) + " hidden " + std::to_string(hidden) + " variant " + std::to_string(variant));
        ExpectRnnMatchesRef(LstmCase(variant == 2 ? 1 : 6, 1, 13, hidden, f, rng), kImpl);
      }
    }
  }
}

TEST(LstmKernel, MatchesRefOverShapesAndBatches) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(65);
  int variant = 0;
  for (const char* dir : {"forward", "reverse", "bidirectional"}) {
    for (int64_t hidden : {1, 7, 64, 129}) {
      for (int64_t input : {1, 3, 100}) {
        ++variant;
        RnnForm f;
        f.direction = dir;
        f.bias = variant % 3 != 1;
        f.initial = variant % 2 == 0;
        f.peephole = variant % 5 == 0;
        const int64_t seq = variant % 3 == 0 ? 1 : variant % 3 == 1 ? 5 : 37;
        const int64_t batch = variant % 4 == 3 ? 1 : variant % 4 + 1;
        SCOPED_TRACE(std::string(dir) + " hidden " + std::to_string(hidden) + " input " + std::to_string(input) +
                     " seq " + std::to_string(seq) + " batch " + std::to_string(batch));
        ExpectRnnMatchesRef(LstmCase(seq, batch, input, hidden, f, rng), kImpl);
      }
    }
  }
}

TEST(LstmKernel, LongSequenceBothDirectionsOnPool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(62);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  RnnForm f;
  f.direction = "bidirectional";
  ExpectRnnMatchesRef(LstmCase(100, 1, 64, 128, f, rng), kImpl, pool->get());
  ExpectRnnMatchesRef(LstmCase(40, 8, 32, 64, f, rng), kImpl, pool->get());
}

TEST(LstmKernel, OneDirectionsStepsSplitOverThePool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(64);
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  // batch x 4H x H at least kParallelStepMacs: each step's panels are shared by the pool's threads; 200 leaves a
  // partial last panel.
  for (int64_t hidden : {200, 256}) {
    for (int variant = 0; variant < 3; ++variant) {
      RnnForm f;
      f.direction = variant == 2 ? "reverse" : "forward";
      f.peephole = variant == 1;
      f.initial = variant != 0;
      SCOPED_TRACE("hidden " + std::to_string(hidden) + " variant " + std::to_string(variant));
      ExpectRnnMatchesRef(LstmCase(9, variant == 1 ? 3 : 1, 24, hidden, f, rng), kImpl, pool->get());
    }
  }
}

TEST(LstmKernel, NaNPropagatesAsInRef) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(66);
  OpCase c = LstmCase(6, 1, 5, 20, RnnForm(), rng);
  c.inputs[0].data<float>()[2 * 5 + 1] = std::nanf("");  // step 2
  ExpectRnnMatchesRef(c, kImpl);
}

TEST(LstmKernel, PackedConstantsMapBackBitIdentically) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(67);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  for (const char* dir : {"forward", "bidirectional"}) {
    for (int64_t hidden : {7, 129}) {
      RnnForm f;
      f.direction = dir;
      f.peephole = hidden == 7;
      f.bias = hidden == 7;
      ExpectPackedRoundTrip(LstmCase(5, 2, 3, hidden, f, rng), PrepareLstm, kImpl, pool->get());
    }
  }
}

TEST(LstmKernel, Declines) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(63);
  auto impl = [](const OpCase& c) {
    auto p = PrepareCase(c);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? std::string((*p)->kernel->impl_name()) : std::string();
  };
  OpCase clip = LstmCase(4, 1, 8, 8, RnnForm(), rng);
  clip.attrs.Set("clip", ir::AttrValue::Float(2.f));
  EXPECT_NE(impl(clip), kImpl);
  OpCase graph_w = LstmCase(4, 1, 8, 8, RnnForm(), rng);
  graph_w.is_const[1] = false;
  EXPECT_NE(impl(graph_w), kImpl);
  OpCase relu = LstmCase(4, 1, 8, 8, RnnForm(), rng);
  relu.attrs.Set("activations", ir::AttrValue::Strings({"Sigmoid", "Relu", "Tanh"}));
  EXPECT_NE(impl(relu), kImpl);
}

}  // namespace
}  // namespace ge::exec::testing
