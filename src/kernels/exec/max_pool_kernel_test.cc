// MaxPool over NHWC (exec.max_pool): bit for bit against the reference kernel at every ISA build of the loop, over
// window geometries (kernels 1-7, strides, dilations, pads, ceil_mode, auto_pad), channel counts around the vector
// widths, batch 2, special values (NaN, -0, infinities, all-NaN and all -inf windows, windows without taps) and
// GoogLeNet's shapes on a thread pool; requests it leaves to others.
#include <cstring>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/max_pool_kernel.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap Window(std::vector<int64_t> kernel, std::vector<int64_t> strides = {}, std::vector<int64_t> pads = {},
                   std::vector<int64_t> dilations = {}, int64_t ceil_mode = 0, const char* auto_pad = nullptr) {
  ir::AttrMap a;
  a.Set("kernel_shape", ir::AttrValue::Ints(std::move(kernel)));
  if (!strides.empty()) a.Set("strides", ir::AttrValue::Ints(std::move(strides)));
  if (!pads.empty()) a.Set("pads", ir::AttrValue::Ints(std::move(pads)));
  if (!dilations.empty()) a.Set("dilations", ir::AttrValue::Ints(std::move(dilations)));
  if (ceil_mode != 0) a.Set("ceil_mode", ir::AttrValue::Int(ceil_mode));
  if (auto_pad != nullptr) a.Set("auto_pad", ir::AttrValue::String(auto_pad));
  return a;
}

// The node's NHWC request for x (NCHW values) and the reference kernel's output.
void Check(const Tensor& x, const ir::AttrMap& attrs, rt::IntraOpPool* pool = nullptr) {
  ref::testing::OpTester t = MakeTester();
  auto want = t.Run("MaxPool", {x}, attrs, 1);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  ir::Graph g("g");
  TensorDesc xd(DataType::kFloat, Shape(x.dims()));
  xd.format = Format::kNHWC;
  TensorDesc yd(DataType::kFloat, Shape(w.dims()));
  yd.format = Format::kNHWC;
  ir::Node* node = g.AddNode("MaxPool", "pool", {g.AddInput("x", xd)}, {g.AddValue("y", yd)});
  node->attrs() = attrs;
  PrepareRequest r;
  r.node = node;
  r.input_descs = {xd};
  r.const_inputs = {nullptr};
  r.output_descs = {yd};
  const Tensor stored = PermuteNchwNhwc(x, true);
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    SCOPED_TRACE(IsaLevelName(isa));
    r.max_isa = isa;
    std::unique_ptr<PreparedKernel> k = PrepareMaxPoolNhwc(r);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->impl_name(), "exec.max_pool");
    Tensor y = Tensor::Create(DataType::kFloat, w.dims()).value();
    auto binding = k->NewBinding();
    ASSERT_TRUE(binding.ok());
    (*binding)->io.inputs[0] = const_cast<void*>(stored.raw_data());
    (*binding)->io.outputs[0] = y.raw_data();
    rt::TaskContext ctx;
    ctx.pool = pool;
    ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
    const Tensor got = PermuteNchwNhwc(y, false);
    ExpectTensorNear(got, w, 0.0, "exact");
    // Bits too: which zero (-0 or +0) a window keeps is the first one's, as in the reference kernel.
    EXPECT_EQ(std::memcmp(got.raw_data(), w.raw_data(), static_cast<size_t>(w.numel()) * sizeof(float)), 0);
  }
}

Tensor Random(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, -4, 4);
}

TEST(MaxPoolNhwcKernel, WindowGeometriesMatchRefExactly) {
  uint32_t seed = 1;
  for (int64_t c : {1, 3, 8, 16, 17, 40}) {
    SCOPED_TRACE("channels " + std::to_string(c));
    Check(Random({1, c, 9, 11}, seed++), Window({3, 3}, {1, 1}, {1, 1, 1, 1}));           // GoogLeNet's branch pool
    Check(Random({2, c, 10, 9}, seed++), Window({3, 3}, {2, 2}));                         // stem pool, batch 2
    Check(Random({1, c, 10, 10}, seed++), Window({3, 3}, {2, 2}, {}, {}, 1));             // ceil_mode
    Check(Random({1, c, 8, 7}, seed++), Window({2, 2}, {2, 2}));                          // 2x2 stride 2
    Check(Random({1, c, 7, 9}, seed++), Window({1, 1}));                                  // one tap
    Check(Random({1, c, 12, 12}, seed++), Window({3, 2}, {1, 3}, {2, 0, 1, 1}, {2, 3}));  // dilated, uneven
    Check(Random({1, c, 7, 8}, seed++), Window({7, 7}, {1, 1}, {3, 3, 3, 3}));  // window as large as the image
    Check(Random({1, c, 9, 6}, seed++), Window({3, 3}, {2, 2}, {}, {}, 0, "SAME_UPPER"));
    Check(Random({1, c, 9, 6}, seed++), Window({4, 4}, {3, 3}, {}, {}, 0, "SAME_LOWER"));
    Check(Random({1, c, 5, 6}, seed++), Window({2, 3}, {1, 2}, {}, {}, 1, "VALID"));
  }
}

TEST(MaxPoolNhwcKernel, SpecialValuesMatchRefExactly) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // Channel 0: NaNs among numbers and an all-NaN corner; channel 1: -0 beside +0, -inf windows; channel 2: +inf.
  Tensor x = Tensor::FromVector<float>({nan,  nan,  1.f,  nan,  nan,  2.f,  -3.f, nan,  nan,   // c0
                                        -0.f, 0.f,  -inf, -inf, -inf, -inf, 0.f,  -0.f, -inf,  // c1
                                        inf,  -1.f, nan,  5.f,  -inf, inf,  nan,  -0.f, 7.f},  // c2
                                       {1, 3, 3, 3});
  Check(x, Window({2, 2}));
  Check(x, Window({2, 2}, {1, 1}, {1, 1, 1, 1}));
  Check(x, Window({1, 1}));
  Check(x, Window({3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 1));
  // Windows with no tap inside the image (pads larger than the extent at the ends): the lowest float, as ref.
  Check(Random({1, 5, 2, 2}, 99), Window({2, 2}, {2, 2}, {2, 2, 2, 2}));
}

TEST(MaxPoolNhwcKernel, GoogLeNetShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  Check(Random({1, 192, 28, 28}, 50), Window({3, 3}, {1, 1}, {1, 1, 1, 1}), pool->get());
  Check(Random({1, 64, 112, 112}, 51), Window({3, 3}, {2, 2}, {}, {}, 1), pool->get());
  Check(Random({1, 832, 7, 7}, 52), Window({3, 3}, {1, 1}, {1, 1, 1, 1}), pool->get());
}

TEST(MaxPoolNhwcKernel, OtherRequestsAreLeftToOthers) {
  ir::Graph g("g");
  TensorDesc xd(DataType::kFloat, Shape({1, 4, 6, 6}));
  xd.format = Format::kNHWC;
  TensorDesc yd(DataType::kFloat, Shape({1, 4, 3, 3}));
  yd.format = Format::kNHWC;
  ir::Node* node = g.AddNode("MaxPool", "pool", {g.AddInput("x", xd)}, {g.AddValue("y", yd)});
  node->attrs() = Window({2, 2}, {2, 2});
  PrepareRequest r;
  r.node = node;
  r.input_descs = {xd};
  r.const_inputs = {nullptr};
  r.output_descs = {yd};
  EXPECT_NE(PrepareMaxPoolNhwc(r), nullptr);
  PrepareRequest plain = r;
  plain.input_descs[0].format = plain.output_descs[0].format = Format::kND;
  EXPECT_EQ(PrepareMaxPoolNhwc(plain), nullptr);  // plain layout: oneDNN or ref
  PrepareRequest half = r;
  half.input_descs[0].dtype = half.output_descs[0].dtype = DataType::kFloat16;
  EXPECT_EQ(PrepareMaxPoolNhwc(half), nullptr);
  PrepareRequest wrong = r;
  wrong.output_descs[0].shape = Shape({1, 4, 2, 2});  // not the window's output dims
  EXPECT_EQ(PrepareMaxPoolNhwc(wrong), nullptr);
  node->attrs() = Window({2, 2, 2});  // a 3-D window on a 2-D image
  EXPECT_EQ(PrepareMaxPoolNhwc(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
