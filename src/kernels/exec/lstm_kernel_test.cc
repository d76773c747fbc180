// ge's batch-1 LSTM against the reference kernels: directions, optional B / initial states / peepholes, hidden sizes
// that leave partial R panels (7, 40, 200) and full ones (64, 256), a long sequence with both directions on a thread
// pool, one direction's steps split over a pool;
// what it declines (batch > 1, clip, non-constant weights).
#include "kernels/exec/lstm_kernel.h"

#include <algorithm>
#include <cmath>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/packed_gemm.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

constexpr double kTol = 1e-5;
constexpr char kImpl[] = "exec.lstm_batch1";

// Within kTol relative to the element or, where the cell update cancelled, to the output's largest magnitude.
void ExpectLstmMatchesRef(const OpCase& c, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), kImpl) << name;
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  for (int i = 0; i < c.num_outputs; ++i) {
    const Tensor& w = (*want)[i].tensor;
    double scale = 0;
    for (int64_t j = 0; j < w.numel(); ++j) scale = std::max(scale, std::fabs(w.GetAsDouble(j)));
    EXPECT_TRUE(TensorsMatch((*p)->outputs[i], w, Tolerance{kTol * scale, kTol, true})) << name << " output " << i;
  }
}

struct Form {
  const char* direction = "forward";
  bool bias = true, initial = true, peephole = false;
};

OpCase LstmCase(int64_t seq, int64_t batch, int64_t input, int64_t hidden, const Form& f, std::mt19937& rng) {
  const int64_t dirs = std::string(f.direction) == "bidirectional" ? 2 : 1;
  auto t = [&](const Dims& d, double scale) { return RandomTensor(DataType::kFloat, d, rng, -scale, scale); };
  std::vector<Tensor> in = {t({seq, batch, input}, 1),
                            t({dirs, 4 * hidden, input}, 0.5),
                            t({dirs, 4 * hidden, hidden}, 0.5),
                            f.bias ? t({dirs, 8 * hidden}, 0.5) : Tensor(),
                            Tensor(),
                            f.initial ? t({dirs, batch, hidden}, 1) : Tensor(),
                            f.initial ? t({dirs, batch, hidden}, 1) : Tensor(),
                            f.peephole ? t({dirs, 3 * hidden}, 0.5) : Tensor()};
  while (!in.back().valid()) in.pop_back();
  ir::AttrMap a;
  a.Set("hidden_size", ir::AttrValue::Int(hidden));
  a.Set("direction", ir::AttrValue::String(f.direction));
  return OpCase("LSTM", std::move(in), {false, true, true, true, true, false, false, true}, a, 3);
}

TEST(LstmBatch1Kernel, MatchesRef) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(61);
  for (const char* dir : {"forward", "reverse", "bidirectional"}) {
    for (int64_t hidden : {7, 40, 64}) {
      for (int variant = 0; variant < 3; ++variant) {
        Form f;
        f.direction = dir;
        f.bias = variant != 1;
        f.initial = variant != 2;
        f.peephole = variant == 1;
        SCOPED_TRACE(std::string(dir) + " hidden " + std::to_string(hidden) + " variant " + std::to_string(variant));
        ExpectLstmMatchesRef(LstmCase(variant == 2 ? 1 : 6, 1, 13, hidden, f, rng));
      }
    }
  }
}

TEST(LstmBatch1Kernel, LongSequenceBothDirectionsOnPool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(62);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  Form f;
  f.direction = "bidirectional";
  ExpectLstmMatchesRef(LstmCase(100, 1, 64, 128, f, rng), pool->get());
}

TEST(LstmBatch1Kernel, OneDirectionsStepsSplitOverThePool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(64);
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  // 4H x H at least kParallelStepMacs: each step's panels are shared by the pool's threads; 200 leaves a partial
  // last panel.
  for (int64_t hidden : {200, 256}) {
    for (int variant = 0; variant < 3; ++variant) {
      Form f;
      f.direction = variant == 2 ? "reverse" : "forward";
      f.peephole = variant == 1;
      f.initial = variant != 0;
      SCOPED_TRACE("hidden " + std::to_string(hidden) + " variant " + std::to_string(variant));
      ExpectLstmMatchesRef(LstmCase(9, 1, 24, hidden, f, rng), pool->get());
    }
  }
}

TEST(LstmBatch1Kernel, Declines) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(63);
  auto impl = [](const OpCase& c) {
    auto p = PrepareCase(c);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? std::string((*p)->kernel->impl_name()) : std::string();
  };
  EXPECT_NE(impl(LstmCase(4, 2, 8, 8, Form(), rng)), kImpl);  // batch 2
  OpCase clip = LstmCase(4, 1, 8, 8, Form(), rng);
  clip.attrs.Set("clip", ir::AttrValue::Float(2.f));
  EXPECT_NE(impl(clip), kImpl);
  OpCase graph_w = LstmCase(4, 1, 8, 8, Form(), rng);
  graph_w.is_const[1] = false;
  EXPECT_NE(impl(graph_w), kImpl);
  OpCase relu = LstmCase(4, 1, 8, 8, Form(), rng);
  relu.attrs.Set("activations", ir::AttrValue::Strings({"Sigmoid", "Relu", "Tanh"}));
  EXPECT_NE(impl(relu), kImpl);
}

}  // namespace
}  // namespace ge::exec::testing
