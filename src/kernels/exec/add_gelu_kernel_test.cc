// exec.add_gelu_f32 (ge::Gelu with B) against the ref kernel, which rounds as the unfused Add and five GELU nodes:
// broadcast patterns, odd sizes, special values, every loop build, a thread pool, and what stays on ref.
#include <limits>

#include "kernels/exec/add_gelu_kernel.h"
#include "kernels/exec/exec_test_util.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

// Within 1e-6 relative, or 2e-7 absolute where ref's 1 + erf cancels (x below about -4): GeluLanes is the closer
// to the exact value there.
const Tolerance kGeluTol{2e-7, 1e-6, true};

OpCase GeluCase(Tensor x, Tensor b) {
  OpCase c{"Gelu", {std::move(x), std::move(b)}};
  c.domain = "ge";
  return c;
}

// Runs c at the loop build for `isa` (kNone: the widest the CPU has) and compares with ref.
void ExpectGeluMatchesRef(const OpCase& c, IsaLevel isa = IsaLevel::kNone, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c) + " at " + IsaLevelName(isa);
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  (*p)->request.max_isa = isa;
  (*p)->kernel = PrepareGelu((*p)->request);
  ASSERT_NE((*p)->kernel, nullptr) << name;
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.add_gelu_f32") << name;
  auto binding = (*p)->kernel->NewBinding();
  ASSERT_TRUE(binding.ok());
  (*binding)->io = (*p)->binding->io;
  (*p)->binding = std::move(*binding);
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  EXPECT_TRUE(TensorsMatch((*p)->outputs[0], (*want)[0].tensor, kGeluTol)) << name;
}

TEST(AddGeluKernel, BroadcastPatternsAndOddSizesMatchRef) {
  std::mt19937 rng(11);
  const std::vector<std::pair<Dims, Dims>> shapes = {
      {{2, 3, 4}, {2, 3, 4}},   {{2, 3, 4}, {4}},   {{2, 3, 4}, {3, 1}}, {{1, 7, 33}, {7, 1}}, {{5}, {}},
      {{3, 1, 5}, {1, 1, 5}},   {{1, 37}, {1, 37}}, {{2, 3, 4}, {1}},    {{0, 5}, {5}},        {{17}, {17}},
      {{2, 5, 3, 7}, {5, 1, 7}}};
  for (const auto& [xd, bd] : shapes) {
    for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
      ExpectGeluMatchesRef(
          GeluCase(RandomTensor(DataType::kFloat, xd, rng, -6, 6), RandomTensor(DataType::kFloat, bd, rng, -2, 2)),
          isa);
    }
  }
}

TEST(AddGeluKernel, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f,
                          -0.0f,
                          1e-30f,
                          -1e-30f,
                          3e-39f,
                          -3e-39f,
                          0.5f,
                          -0.5f,
                          1.2f,
                          -1.2f,
                          5.5f,
                          -5.5f,
                          6.0f,
                          -6.0f,
                          20.0f,
                          -20.0f,
                          100.0f,
                          -100.0f,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::lowest()};
  for (float x = -12.0f; x <= 12.0f; x += 0.00917f) v.push_back(x);
  const Tensor x = Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())});
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    ExpectGeluMatchesRef(GeluCase(x, Tensor::Scalar<float>(0.0f)), isa);
    ExpectGeluMatchesRef(GeluCase(x, Tensor::FromVector<float>({0.25f}, {1})), isa);
  }
}

TEST(AddGeluKernel, LargeTensorsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(12);
  ExpectGeluMatchesRef(
      GeluCase(RandomTensor(DataType::kFloat, {3, 50021}, rng, -5, 5), RandomTensor(DataType::kFloat, {3, 50021}, rng)),
      IsaLevel::kNone, pool->get());
  ExpectGeluMatchesRef(
      GeluCase(RandomTensor(DataType::kFloat, {1, 64, 1999}, rng, -5, 5), RandomTensor(DataType::kFloat, {64, 1}, rng)),
      IsaLevel::kNone, pool->get());
  ExpectGeluMatchesRef(GeluCase(RandomTensor(DataType::kFloat, {7, 9001}, rng, -5, 5), Tensor::Scalar<float>(0.3f)),
                       IsaLevel::kNone, pool->get());
}

TEST(AddGeluKernel, OneInputIsTheUnaryKernelAndFloat64StaysOnRef) {
  std::mt19937 rng(13);
  OpCase one{"Gelu", {RandomTensor(DataType::kFloat, {2, 9}, rng)}};
  one.domain = "ge";
  auto p = PrepareCase(one);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.unary_f32");
  ASSERT_TRUE((*p)->Run().ok());
  auto want = RunRef(one);
  ASSERT_TRUE(want.ok());
  EXPECT_TRUE(TensorsMatch((*p)->outputs[0], (*want)[0].tensor, kGeluTol));
  ExpectMatchesRef(GeluCase(RandomTensor(DataType::kDouble, {2, 9}, rng), RandomTensor(DataType::kDouble, {9}, rng)),
                   "ref", 0);
}

}  // namespace
}  // namespace ge::exec::testing
