// The resize kernel: bit-identical to the reference kernel for nearest (every nearest_mode), linear and cubic (every
// coordinate transformation, exclude_outside, cubic_coeff_a, tf_crop_and_resize with extrapolation) over 2x, 0.5x,
// odd scales and sizes inputs, rank 1 to 5, NaN and inf sources, unit leading axes, outputs wider than a column
// tile and large tensors on a pool; a resized leading axis and non-constant scales stay on ref.
#include <cmath>
#include <limits>

#include "kernels/exec/exec_test_util.h"

namespace ge::exec::testing {
namespace {

using ir::AttrValue;

struct ResizeAttrs {
  std::string mode = "nearest";
  std::string coord = "half_pixel";
  std::string nearest = "round_prefer_floor";
  int64_t exclude_outside = 0;
  float extrapolation = 0;
};

ir::AttrMap AttrsOf(const ResizeAttrs& a) {
  ir::AttrMap m;
  m.Set("mode", AttrValue::String(a.mode));
  m.Set("coordinate_transformation_mode", AttrValue::String(a.coord));
  m.Set("nearest_mode", AttrValue::String(a.nearest));
  m.Set("exclude_outside", AttrValue::Int(a.exclude_outside));
  m.Set("extrapolation_value", AttrValue::Float(a.extrapolation));
  return m;
}

// Resize-13+ with constant scales (sizes empty) or constant sizes (scales empty); roi only when given.
OpCase ResizeCase(const Tensor& x, const std::vector<float>& scales, const std::vector<int64_t>& sizes,
                  const ResizeAttrs& a, const std::vector<float>& roi = {}, int64_t opset = 19) {
  const int64_t rank = static_cast<int64_t>(scales.empty() ? sizes.size() : scales.size());
  Tensor roi_t = roi.empty() ? Tensor() : Tensor::FromVector<float>(roi, {2 * rank});
  Tensor scales_t = scales.empty() ? Tensor() : Tensor::FromVector<float>(scales, {rank});
  Tensor sizes_t = sizes.empty() ? Tensor() : Tensor::FromVector<int64_t>(sizes, {rank});
  return OpCase("Resize", {x, roi_t, scales_t, sizes_t}, {false, true, true, true}, AttrsOf(a), 1, opset);
}

const char* const kCoords[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"};
const char* const kNearestModes[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};

TEST(ResizeKernel, NearestEveryModeMatchesRefExactly) {
  std::mt19937 rng(71);
  Tensor x = RandomTensor(DataType::kFloat, {1, 3, 7, 9}, rng);
  for (const char* coord : kCoords) {
    for (const char* nearest : kNearestModes) {
      ResizeAttrs a;
      a.coord = coord;
      a.nearest = nearest;
      ExpectBitExact(ResizeCase(x, {}, {1, 3, 15, 20}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 2, 2}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 0.5f, 0.5f}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 1.7f, 0.6f}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 3, 1}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {}, {1, 3, 1, 1}, a), "exec.resize");
    }
  }
}

TEST(ResizeKernel, LinearAndCubicEveryCoordinateModeMatchRefExactly) {
  std::mt19937 rng(72);
  Tensor x = RandomTensor(DataType::kFloat, {1, 3, 7, 9}, rng);
  for (const char* coord : kCoords) {
    for (int64_t exclude : {0, 1, 2, 3}) {
      ResizeAttrs a;
      a.mode = exclude < 2 ? "linear" : "cubic";
      exclude %= 2;
      a.coord = coord;
      a.exclude_outside = exclude;
      ExpectBitExact(ResizeCase(x, {}, {1, 3, 15, 20}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 2, 2}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 0.5f, 0.5f}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 1.7f, 0.6f}, {}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {1, 1, 1, 2.5f}, {}, a), "exec.resize");  // rows unchanged
      ExpectBitExact(ResizeCase(x, {1, 1, 3, 1}, {}, a), "exec.resize");     // columns unchanged
      ExpectBitExact(ResizeCase(x, {1, 1, 1, 1}, {}, a), "exec.resize");     // nothing changes
      ExpectBitExact(ResizeCase(x, {}, {1, 3, 1, 1}, a), "exec.resize");
      ExpectBitExact(ResizeCase(x, {}, {1, 3, 1, 20}, a), "exec.resize");
    }
  }
}

TEST(ResizeKernel, RandomShapesAndAttributesMatchRefExactly) {
  std::mt19937 rng(79);
  const char* const modes[] = {"nearest", "linear", "cubic"};
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 2 + iter % 3;
    Dims in, sizes;
    for (int k = 0; k < rank; ++k) {
      const bool spatial = k >= rank - 2;
      in.push_back(std::uniform_int_distribution<int64_t>(1, spatial ? 9 : 3)(rng));
      sizes.push_back(spatial ? std::uniform_int_distribution<int64_t>(1, 20)(rng) : in.back());
    }
    ResizeAttrs a;
    a.mode = modes[rng() % 3];
    a.coord = kCoords[rng() % 4];
    a.nearest = kNearestModes[rng() % 4];
    a.exclude_outside = static_cast<int64_t>(rng() % 2);
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, in, rng), {}, sizes, a), "exec.resize");
  }
}

TEST(ResizeKernel, TfModesMatchRefExactly) {
  std::mt19937 rng(73);
  Tensor x = RandomTensor(DataType::kFloat, {2, 2, 5, 6}, rng);
  for (const char* mode : {"nearest", "linear", "cubic"}) {
    ResizeAttrs a;
    a.mode = mode;
    a.coord = "tf_crop_and_resize";
    a.extrapolation = 7.5f;
    // The crop runs past the input on both spatial axes: extrapolated rows and columns.
    ExpectBitExact(ResizeCase(x, {}, {2, 2, 9, 11}, a, {0, 0, -0.3f, 0.2f, 1, 1, 1.4f, 0.9f}), "exec.resize");
    ExpectBitExact(ResizeCase(x, {}, {2, 2, 4, 3}, a, {0, 0, 0.1f, 0.1f, 1, 1, 0.8f, 0.7f}), "exec.resize");
    // tf_half_pixel_for_nn exists up to opset 12, where roi is a required input. It shifts every axis by half a
    // pixel, so in linear mode the reference blends neighbouring batch items and channels: ref runs that.
    a.coord = "tf_half_pixel_for_nn";
    const OpCase c("Resize",
                   {x, Tensor::FromVector<float>({}, {0}), Tensor::FromVector<float>({1, 1, 1.6f, 2.3f}, {4})},
                   {false, true, true}, AttrsOf(a), 1, 11);
    ExpectBitExact(c, a.mode == "nearest" ? "exec.resize" : "ref");
  }
}

TEST(ResizeKernel, OtherRanksAndWideRows) {
  std::mt19937 rng(74);
  for (const char* mode : {"nearest", "linear", "cubic"}) {
    ResizeAttrs a;
    a.mode = mode;
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {11}, rng), {2.5f}, {}, a), "exec.resize");
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {4, 6}, rng), {}, {9, 5}, a), "exec.resize");
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {3, 4, 6}, rng), {1, 2, 2}, {}, a), "exec.resize");
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {2, 2, 3, 4, 6}, rng), {1, 1, 1, 0.5f, 3}, {}, a),
                   "exec.resize");
    // Output rows wider than one column tile.
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {1, 2, 3, 700}, rng), {}, {1, 2, 5, 2300}, a),
                   "exec.resize");
    // Empty output.
    ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {1, 2, 3, 4}, rng), {}, {1, 2, 0, 4}, a), "exec.resize");
  }
}

TEST(ResizeKernel, UpsampleAndOlderOpsets) {
  std::mt19937 rng(75);
  Tensor x = RandomTensor(DataType::kFloat, {1, 2, 5, 7}, rng);
  for (const char* mode : {"nearest", "linear"}) {
    ResizeAttrs a;
    a.mode = mode;
    ir::AttrMap m;
    m.Set("mode", AttrValue::String(mode));
    Tensor up = Tensor::FromVector<float>({1, 1, 2, 3}, {4});
    ExpectBitExact(OpCase("Upsample", {x, up}, {false, true}, m, 1, 9), "exec.resize");
    Tensor down = Tensor::FromVector<float>({1, 1, 0.6f, 0.5f}, {4});
    ExpectBitExact(OpCase("Resize", {x, down}, {false, true}, m, 1, 10), "exec.resize");
    ExpectBitExact(ResizeCase(x, {1, 1, 1.5f, 2}, {}, a, {}, 13), "exec.resize");
  }
}

// Values exactly as ref's, NaN where ref has NaN (the sign of a NaN made from inf - inf follows operand order).
TEST(ResizeKernel, NanAndInfSourcesAsRef) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::FromVector<float>({1, inf, 3, -inf, std::nanf(""), 6, -0.0f, 8, 9, 10, inf, 12}, {1, 1, 3, 4});
  for (const char* coord : kCoords) {
    for (const char* mode : {"nearest", "linear", "cubic"}) {
      ResizeAttrs a;
      a.mode = mode;
      a.coord = coord;
      ExpectMatchesRef(ResizeCase(x, {}, {1, 1, 5, 7}, a), "exec.resize", 0);  // align_corners: integral taps
      ExpectMatchesRef(ResizeCase(x, {1, 1, 2, 2}, {}, a), "exec.resize", 0);
      ExpectMatchesRef(ResizeCase(x, {}, {1, 1, 2, 3}, a), "exec.resize", 0);
      ExpectBitExact(ResizeCase(x, {1, 1, 1, 1}, {}, a), "exec.resize");  // -0 kept, or +0 (pytorch_half_pixel)
      ExpectMatchesRef(ResizeCase(x, {1, 1, 1, 2}, {}, a), "exec.resize", 0);
    }
  }
}

TEST(ResizeKernel, CubicCoefficientsAndUnitLeadingAxes) {
  std::mt19937 rng(78);
  for (const char* coord : kCoords) {
    ResizeAttrs a;
    a.mode = "cubic";
    a.coord = coord;
    ir::AttrMap m = AttrsOf(a);
    m.Set("cubic_coeff_a", AttrValue::Float(-0.5f));
    Tensor x = RandomTensor(DataType::kFloat, {1, 2, 6, 5}, rng);
    Tensor scales = Tensor::FromVector<float>({1, 1, 2.5f, 0.7f}, {4});
    ExpectBitExact(OpCase("Resize", {x, Tensor(), scales}, {false, true, true}, m, 1, 19), "exec.resize");
    // Unit batch and channel axes: pytorch_half_pixel gives them a pass of four taps at -0.5 each.
    Tensor unit = RandomTensor(DataType::kFloat, {1, 1, 6, 5}, rng);
    unit.data<float>()[3] = -0.0f;
    ExpectBitExact(OpCase("Resize", {unit, Tensor(), scales}, {false, true, true}, m, 1, 19), "exec.resize");
    ExpectBitExact(ResizeCase(unit, {1, 1, 1, 1}, {}, a), "exec.resize");
    unit.data<float>()[7] = std::numeric_limits<float>::infinity();  // NaN through the unit axes' negative taps
    ExpectMatchesRef(OpCase("Resize", {unit, Tensor(), scales}, {false, true, true}, m, 1, 19), "exec.resize", 0);
    ExpectMatchesRef(ResizeCase(unit, {1, 1, 1, 1}, {}, a), "exec.resize", 0);
  }
}

TEST(ResizeKernel, LargeTensorsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(76);
  ResizeAttrs linear;
  linear.mode = "linear";
  ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {1, 5, 64, 64}, rng), {}, {1, 5, 512, 512}, linear),
                 "exec.resize", pool->get());
  ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {2, 16, 31, 33}, rng), {1, 1, 2, 2}, {}, linear),
                 "exec.resize", pool->get());
  ResizeAttrs nearest;
  ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {1, 16, 64, 64}, rng), {1, 1, 2, 2}, {}, nearest),
                 "exec.resize", pool->get());
  ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {1, 16, 63, 65}, rng), {1, 1, 1.5f, 2.5f}, {}, nearest),
                 "exec.resize", pool->get());
  ResizeAttrs cubic;
  cubic.mode = "cubic";
  cubic.coord = "pytorch_half_pixel";
  ExpectBitExact(ResizeCase(RandomTensor(DataType::kFloat, {2, 8, 40, 40}, rng), {1, 1, 3, 3}, {}, cubic),
                 "exec.resize", pool->get());
}

TEST(ResizeKernel, UnsupportedCasesStayOnRef) {
  std::mt19937 rng(77);
  Tensor x = RandomTensor(DataType::kFloat, {1, 3, 4, 5}, rng);
  ResizeAttrs a;
  ExpectMatchesRef(ResizeCase(x, {1, 2, 2, 2}, {}, a), "ref", 0);  // channels resized
  OpCase varying = ResizeCase(x, {1, 1, 2, 2}, {}, a);
  varying.is_const = {false, true, false, true};
  auto p = PrepareCase(varying);
  if (p.ok()) {  // inference may leave the dims unknown without constant scales
    EXPECT_STREQ((*p)->kernel->impl_name(), "ref");
  }
  ExpectMatchesRef(ResizeCase(RandomTensor(DataType::kDouble, {1, 1, 3, 3}, rng), {1, 1, 2, 2}, {}, a), "ref", 0);
}

}  // namespace
}  // namespace ge::exec::testing
