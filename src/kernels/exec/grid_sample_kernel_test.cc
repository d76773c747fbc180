// The GridSample kernel against the reference kernel, bit for bit: every mode, padding mode and align_corners over
// grids reaching past the borders (and NaN / inf coordinates, which sample 0), one and several channels, odd sizes;
// RAFT's correlation lookup shape on a pool; what it declines.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/grid_sample_kernel.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap SampleAttrs(const char* mode, const char* pad, int align) {
  ir::AttrMap a;
  a.Set("mode", ir::AttrValue::String(mode));
  a.Set("padding_mode", ir::AttrValue::String(pad));
  a.Set("align_corners", ir::AttrValue::Int(align));
  return a;
}

// A grid of coordinates in [-1.3, 1.3] (past the borders both ways), with a few non-finite ones.
Tensor Grid(int64_t n, int64_t ho, int64_t wo, std::mt19937& rng, bool non_finite) {
  Tensor g = RandomTensor(DataType::kFloat, {n, ho, wo, 2}, rng, -1.3, 1.3);
  if (non_finite && g.numel() >= 6) {
    g.data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
    g.data<float>()[2] = std::numeric_limits<float>::infinity();
    g.data<float>()[5] = -std::numeric_limits<float>::infinity();
  }
  return g;
}

void ExpectSameAsRef(const OpCase& c, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.grid_sample") << name;
  std::memset((*p)->outputs[0].raw_data(), 0xA5, (*p)->outputs[0].nbytes());
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  ASSERT_EQ((*p)->outputs[0].dims(), w.dims()) << name;
  EXPECT_EQ(std::memcmp((*p)->outputs[0].raw_data(), w.raw_data(), w.nbytes()), 0) << name;
}

TEST(GridSampleKernel, EveryModeAndPaddingMatchesRefExactly) {
  std::mt19937 rng(71);
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    for (const char* pad : {"zeros", "border", "reflection"}) {
      for (int align : {0, 1}) {
        SCOPED_TRACE(std::string(mode) + " " + pad + " align " + std::to_string(align));
        Tensor x = RandomTensor(DataType::kFloat, {2, 3, 5, 7}, rng);
        ExpectSameAsRef(OpCase("GridSample", {x, Grid(2, 4, 6, rng, true)}, {}, SampleAttrs(mode, pad, align), 1, 16));
        Tensor one = RandomTensor(DataType::kFloat, {1, 1, 1, 3}, rng);  // a one-pixel-high image
        ExpectSameAsRef(
            OpCase("GridSample", {one, Grid(1, 3, 2, rng, false)}, {}, SampleAttrs(mode, pad, align), 1, 16));
      }
    }
  }
}

TEST(GridSampleKernel, CorrelationLookupOnAPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(72);
  // RAFT: the correlation volume of every pixel of a 12x16 feature map, sampled in a 9x9 window.
  Tensor corr = RandomTensor(DataType::kFloat, {192, 1, 12, 16}, rng);
  ExpectSameAsRef(
      OpCase("GridSample", {corr, Grid(192, 9, 9, rng, false)}, {}, SampleAttrs("bilinear", "zeros", 1), 1, 16),
      pool->get());
  // Many channels, one grid: a spatial transformer.
  Tensor feat = RandomTensor(DataType::kFloat, {1, 64, 33, 29}, rng);
  ExpectSameAsRef(
      OpCase("GridSample", {feat, Grid(1, 31, 35, rng, false)}, {}, SampleAttrs("bilinear", "border", 0), 1, 16),
      pool->get());
}

TEST(GridSampleKernel, Declines) {
  std::mt19937 rng(73);
  // float64 stays on ref.
  OpCase f64("GridSample",
             {RandomTensor(DataType::kDouble, {1, 1, 3, 3}, rng), RandomTensor(DataType::kDouble, {1, 2, 2, 2}, rng)},
             {}, SampleAttrs("bilinear", "zeros", 0), 1, 16);
  auto p = PrepareCase(f64);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STRNE((*p)->kernel->impl_name(), "exec.grid_sample");
  OpCase vary("GridSample", {RandomTensor(DataType::kFloat, {1, 1, 3, 3}, rng), Grid(1, 2, 2, rng, false)}, {},
              SampleAttrs("bilinear", "zeros", 0), 1, 16);
  auto q = PrepareCase(vary);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  PrepareRequest r = (*q)->request;
  r.varying_input_dims = {{false, false, true, false}, {}};
  EXPECT_EQ(PrepareGridSample(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
