// ge's GRU against the reference kernels: linear_before_reset 0 and 1, every direction, with and without B and
// initial_h, hidden sizes that leave partial panels (1, 7, 129) and full ones (64), inputs of 1, 3 and 100, sequences
// of 1, 5 and 37, batch 1 and 3, a bidirectional node on a thread pool, NaN propagation; its constants packed,
// mapped back bit-identically; what it declines.
#include "kernels/exec/gru_kernel.h"

#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/rnn_test_util.h"

namespace ge::exec::testing {
namespace {

constexpr char kImpl[] = "exec.gru";

TEST(GruKernel, MatchesRefOverShapesAndForms) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(71);
  int variant = 0;
  for (bool lbr : {false, true}) {
    for (const char* dir : {"forward", "reverse", "bidirectional"}) {
      for (int64_t hidden : {1, 7, 64, 129}) {
        for (int64_t input : {1, 3, 100}) {
          ++variant;
          RnnForm f;
          f.direction = dir;
          f.lbr = lbr;
          f.bias = variant % 3 != 1;
          f.initial = variant % 2 == 0;
          const int64_t seq = variant % 3 == 0 ? 1 : variant % 3 == 1 ? 5 : 37;
          const int64_t batch = variant % 4 == 3 ? 3 : 1;
          SCOPED_TRACE(std::string(dir) + " lbr " + std::to_string(lbr) + " hidden " + std::to_string(hidden) +
                       " input " + std::to_string(input) + " seq " + std::to_string(seq) + " batch " +
                       std::to_string(batch));
          ExpectRnnMatchesRef(GruCase(seq, batch, input, hidden, f, rng), kImpl);
        }
      }
    }
  }
}

TEST(GruKernel, OnAThreadPool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(72);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  for (bool lbr : {false, true}) {
    RnnForm f;
    f.direction = "bidirectional";
    f.lbr = lbr;
    ExpectRnnMatchesRef(GruCase(60, 1, 64, 128, f, rng), kImpl, pool->get());
    ExpectRnnMatchesRef(GruCase(9, 4, 20, 33, f, rng), kImpl, pool->get());
    f.direction = "forward";  // the projection split over the pool by steps
    ExpectRnnMatchesRef(GruCase(37, 2, 100, 64, f, rng), kImpl, pool->get());
  }
}

TEST(GruKernel, NaNPropagatesAsInRef) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(73);
  for (bool lbr : {false, true}) {
    RnnForm f;
    f.lbr = lbr;
    OpCase c = GruCase(6, 1, 5, 20, f, rng);
    c.inputs[0].data<float>()[2 * 5 + 1] = std::nanf("");  // step 2
    ExpectRnnMatchesRef(c, kImpl);
  }
}

TEST(GruKernel, PackedConstantsMapBackBitIdentically) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(74);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  for (bool lbr : {false, true}) {
    for (const char* dir : {"forward", "bidirectional"}) {
      for (int64_t hidden : {7, 129}) {
        RnnForm f;
        f.direction = dir;
        f.lbr = lbr;
        f.bias = hidden == 7;
        ExpectPackedRoundTrip(GruCase(5, 2, 3, hidden, f, rng), PrepareGru, kImpl, pool->get());
      }
    }
  }
}

TEST(GruKernel, Declines) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(75);
  auto impl = [](const OpCase& c) {
    auto p = PrepareCase(c);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? std::string((*p)->kernel->impl_name()) : std::string();
  };
  OpCase clip = GruCase(4, 1, 8, 8, RnnForm(), rng);
  clip.attrs.Set("clip", ir::AttrValue::Float(2.f));
  EXPECT_NE(impl(clip), kImpl);
  OpCase graph_r = GruCase(4, 1, 8, 8, RnnForm(), rng);
  graph_r.is_const[2] = false;
  EXPECT_NE(impl(graph_r), kImpl);
  OpCase relu = GruCase(4, 1, 8, 8, RnnForm(), rng);
  relu.attrs.Set("activations", ir::AttrValue::Strings({"Sigmoid", "Relu"}));
  EXPECT_NE(impl(relu), kImpl);
  RnnForm no_initial;
  no_initial.initial = false;
  OpCase layout = GruCase(4, 1, 8, 8, no_initial, rng);
  layout.attrs.Set("layout", ir::AttrValue::Int(1));
  EXPECT_NE(impl(layout), kImpl);
}

}  // namespace
}  // namespace ge::exec::testing
