// The instance norm kernel against the reference kernel (double arithmetic throughout) within 1e-6 relative: 2-D to
// 5-D inputs, odd channel counts, constant and non-constant scale and B, epsilon, means far above the spread, an
// audio-length GroupNorm plane on a pool, NaN and inf in a plane, each ISA build of the loops; requests left to ref.
#include <cmath>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/instance_norm_kernel.h"

namespace ge::exec::testing {
namespace {

constexpr double kRtol = 1e-6;

ir::AttrMap Epsilon(float eps) {
  ir::AttrMap a;
  a.Set("epsilon", ir::AttrValue::Float(eps));
  return a;
}

OpCase NormCase(const Dims& dims, std::mt19937& rng, bool const_params = true, double lo = -3, double hi = 3,
                ir::AttrMap attrs = ir::AttrMap()) {
  const int64_t c = dims[1];
  return OpCase("InstanceNormalization",
                {RandomTensor(DataType::kFloat, dims, rng, lo, hi), RandomTensor(DataType::kFloat, {c}, rng),
                 RandomTensor(DataType::kFloat, {c}, rng)},
                {false, const_params, const_params}, std::move(attrs));
}

// Runs c on the kernel for each loop build the CPU has (AVX-512, AVX2, baseline) and compares with ref.
void ExpectAllBuildsMatchRef(const OpCase& c, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    SCOPED_TRACE(IsaLevelName(isa));
    auto p = PrepareCase(c);
    ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
    EXPECT_STREQ((*p)->kernel->impl_name(), "exec.instance_norm") << name;
    (*p)->request.max_isa = isa;
    (*p)->kernel = PrepareInstanceNorm((*p)->request);
    ASSERT_NE((*p)->kernel, nullptr);
    auto binding = (*p)->kernel->NewBinding();
    ASSERT_TRUE(binding.ok());
    (*binding)->io = (*p)->binding->io;
    (*p)->binding = std::move(*binding);
    for (int run = 0; run < 2; ++run) {  // a second run on the same binding: nothing carried over
      ASSERT_TRUE((*p)->Run(pool).ok()) << name;
      ExpectTensorNear((*p)->outputs[0], (*want)[0].tensor, kRtol, name + " run " + std::to_string(run));
    }
  }
}

TEST(InstanceNormKernel, ShapesMatchRef) {
  std::mt19937 rng(71);
  for (const Dims& d : std::vector<Dims>{{1, 3, 7},
                                         {2, 5, 13, 11},
                                         {2, 3, 4, 5, 6},
                                         {3, 7, 1},
                                         {1, 1, 17},
                                         {2, 9, 31},
                                         {1, 3, 15, 16},
                                         {3, 5},
                                         {2, 4, 0, 3}}) {
    ExpectAllBuildsMatchRef(NormCase(d, rng));
    ExpectAllBuildsMatchRef(NormCase(d, rng, /*const_params=*/false));
  }
  ExpectAllBuildsMatchRef(NormCase({2, 3, 19}, rng, true, -3, 3, Epsilon(0.1f)));
  ExpectAllBuildsMatchRef(NormCase({2, 3, 19}, rng, true, -3, 3, Epsilon(0.f)));
}

// Means a thousand times the spread, and tiny values: the statistics lose nothing the reference keeps.
TEST(InstanceNormKernel, LargeMeansAndSmallScales) {
  std::mt19937 rng(72);
  ExpectAllBuildsMatchRef(NormCase({2, 3, 257}, rng, true, 1000, 1003));
  ExpectAllBuildsMatchRef(NormCase({1, 4, 33, 9}, rng, false, -20000, -19999));
  ExpectAllBuildsMatchRef(NormCase({1, 5, 100}, rng, true, -1e-6, 1e-6));
  ExpectAllBuildsMatchRef(NormCase({1, 2, 64}, rng, true, 2, 2));  // constant planes: zero variance
}

TEST(InstanceNormKernel, NanAndInfinityAsRef) {
  std::mt19937 rng(73);
  OpCase c = NormCase({2, 3, 40}, rng);
  float* x = c.inputs[0].data<float>();
  x[5] = std::numeric_limits<float>::quiet_NaN();  // plane 0
  x[45] = std::numeric_limits<float>::infinity();  // plane 1
  x[85] = std::numeric_limits<float>::infinity();  // plane 2: inf and -inf
  x[86] = -std::numeric_limits<float>::infinity();
  c.inputs[1].data<float>()[1] = std::numeric_limits<float>::quiet_NaN();  // channel 1's scale (planes 1 and 4)
  ExpectAllBuildsMatchRef(c);
}

// Style transfer's and audio encoders' shapes on a pool: GroupNorm as [1, groups, L] with a long L.
TEST(InstanceNormKernel, LargeShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(74);
  ExpectAllBuildsMatchRef(NormCase({1, 32, 64, 64}, rng), pool->get());
  ExpectAllBuildsMatchRef(NormCase({1, 512, 16000}, rng, false), pool->get());
  ExpectAllBuildsMatchRef(NormCase({3, 33, 45, 47}, rng), pool->get());
  // Fewer planes than threads: each plane's sums in chunks (GroupNorm with one group, a 3-channel image).
  ExpectAllBuildsMatchRef(NormCase({1, 1, 300000}, rng), pool->get());
  ExpectAllBuildsMatchRef(NormCase({1, 3, 256, 256}, rng, false), pool->get());
  ExpectAllBuildsMatchRef(NormCase({1, 2, 70001}, rng, true, 500, 501), pool->get());
  ExpectAllBuildsMatchRef(NormCase({2, 3, 40000}, rng), pool->get());
  ExpectAllBuildsMatchRef(NormCase({1, 2, 70001}, rng));  // chunks without a pool
}

TEST(InstanceNormKernel, OtherRequestsStayOnRef) {
  std::mt19937 rng(75);
  const OpCase c = NormCase({1, 3, 8}, rng);  // outlives the request, which points at its constants
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{false, false, true}, {}, {}};
  EXPECT_EQ(PrepareInstanceNorm(r), nullptr);
  r = (*p)->request;
  r.input_descs[0].format = Format::kNHWC;
  EXPECT_EQ(PrepareInstanceNorm(r), nullptr);
  OpCase dbl("InstanceNormalization",
             {RandomTensor(DataType::kDouble, {1, 3, 8}, rng), RandomTensor(DataType::kDouble, {3}, rng),
              RandomTensor(DataType::kDouble, {3}, rng)},
             {false, true, true});
  ExpectMatchesRef(dbl, "ref", 0);
}

}  // namespace
}  // namespace ge::exec::testing
