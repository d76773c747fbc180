// MaxPool over plain layouts (exec.max_pool_plain): bit for bit against the reference kernel at every ISA build of
// the loop, over 1-D, 2-D and 3-D window geometries (kernels 1-7, strides 1-3, dilations, pads, ceil_mode,
// auto_pad), row lengths around the vector widths, special values (NaN, -0, infinities, all-NaN and all -inf
// windows, windows without taps) and large shapes on a thread pool; requests it leaves to others.
#include <cstring>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/max_pool_plain_kernel.h"

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

void Check(const Tensor& x, const ir::AttrMap& attrs, rt::IntraOpPool* pool = nullptr) {
  ref::testing::OpTester t = MakeTester();
  auto want = t.Run("MaxPool", {x}, attrs, 1);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  ir::Graph g("g");
  TensorDesc xd(DataType::kFloat, Shape(x.dims()));
  TensorDesc yd(DataType::kFloat, Shape(w.dims()));
  ir::Node* node = g.AddNode("MaxPool", "pool", {g.AddInput("x", xd)}, {g.AddValue("y", yd)});
  node->attrs() = attrs;
  PrepareRequest r;
  r.node = node;
  r.input_descs = {xd};
  r.const_inputs = {nullptr};
  r.output_descs = {yd};
  for (IsaLevel isa : {IsaLevel::kNone, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    SCOPED_TRACE(IsaLevelName(isa));
    r.max_isa = isa;
    std::unique_ptr<PreparedKernel> k = PrepareMaxPoolPlain(r);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->impl_name(), "exec.max_pool_plain");
    Tensor y = Tensor::Create(DataType::kFloat, w.dims()).value();
    auto binding = k->NewBinding();
    ASSERT_TRUE(binding.ok());
    (*binding)->io.inputs[0] = const_cast<void*>(x.raw_data());
    (*binding)->io.outputs[0] = y.raw_data();
    rt::TaskContext ctx;
    ctx.pool = pool;
    ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
    ExpectTensorNear(y, w, 0.0, "exact");
    // Bits too: which zero (-0 or +0) a window keeps is the first one's, as in the reference kernel.
    EXPECT_EQ(std::memcmp(y.raw_data(), w.raw_data(), static_cast<size_t>(w.numel()) * sizeof(float)), 0);
  }
}

Tensor Random(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, -4, 4);
}

TEST(MaxPoolPlainKernel, OneDimWindowsMatchRefExactly) {
  uint32_t seed = 1;
  for (int64_t len : {1, 2, 7, 15, 16, 17, 31, 33, 64, 101}) {
    SCOPED_TRACE("length " + std::to_string(len));
    Check(Random({1, 3, len}, seed++), Window({3}, {2}, {1, 1}));  // the sweep's k3 s2
    Check(Random({2, 5, len}, seed++), Window({3}, {1}, {1, 1}));
    if (len >= 2) Check(Random({1, 4, len}, seed++), Window({2}, {2}, {}, {}, 1));
    Check(Random({1, 2, len}, seed++), Window({1}));
    Check(Random({1, 3, len}, seed++), Window({3}, {3}, {1, 2}, {}, 1));  // stride 3: gathered lanes
    Check(Random({1, 3, len}, seed++), Window({2}, {1}, {}, {}, 0, "SAME_UPPER"));
    if (len >= 5) {
      Check(Random({1, 3, len}, seed++), Window({3}, {2}, {2, 0}, {2}));  // dilated
      Check(Random({1, 3, len}, seed++), Window({5}, {5}, {}, {}, 0, "SAME_LOWER"));
    }
  }
}

TEST(MaxPoolPlainKernel, TwoAndThreeDimWindowsMatchRefExactly) {
  uint32_t seed = 100;
  for (int64_t c : {1, 3, 17}) {
    SCOPED_TRACE("channels " + std::to_string(c));
    Check(Random({1, c, 9, 35}, seed++), Window({3, 3}, {1, 1}, {1, 1, 1, 1}));
    Check(Random({2, c, 10, 37}, seed++), Window({3, 3}, {2, 2}, {}, {}, 1));
    Check(Random({1, c, 8, 19}, seed++), Window({2, 2}, {2, 2}));
    Check(Random({1, c, 12, 40}, seed++), Window({3, 2}, {1, 3}, {2, 0, 1, 1}, {2, 3}));
    Check(Random({1, c, 7, 8}, seed++), Window({7, 7}, {1, 1}, {3, 3, 3, 3}));
    Check(Random({1, c, 5, 6, 33}, seed++), Window({3, 3, 3}, {2, 2, 2}, {1, 1, 1, 1, 1, 1}));
    Check(Random({1, c, 4, 5, 18}, seed++), Window({2, 3, 2}, {1, 2, 2}, {}, {}, 1));
    Check(Random({1, c, 6, 6, 20}, seed++), Window({2, 2, 3}, {2, 1, 1}, {0, 1, 0, 1, 0, 2}, {2, 1, 2}));
  }
}

TEST(MaxPoolPlainKernel, SpecialValuesMatchRefExactly) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> row = {nan, nan,  1.f,  nan, nan,  2.f, -3.f, nan,  nan,  -0.f, 0.f,  -inf, -inf, -inf, -inf,
                            0.f, -0.f, -inf, inf, -1.f, nan, 5.f,  -inf, inf,  nan,  -0.f, 7.f,  nan,  nan,  nan,
                            nan, nan,  nan,  nan, nan,  nan, -inf, -inf, -inf, -inf, -inf, -inf, 0.f,  -0.f, 0.f};
  const int64_t n = static_cast<int64_t>(row.size());
  Tensor x = Tensor::FromVector<float>(row, {1, 1, n});
  Check(x, Window({2}));
  Check(x, Window({3}, {2}, {1, 1}));
  Check(x, Window({3}, {1}, {1, 1}));
  Check(x, Window({4}, {3}, {2, 2}, {}, 1));
  Check(x, Window({1}));
  Check(Tensor::FromVector<float>(row, {1, 1, 5, 9}), Window({2, 2}, {1, 2}, {1, 1, 1, 1}));
  // Windows with no tap inside the input (pads larger than the extent at the ends): the lowest float, as ref.
  Check(Random({1, 5, 2}, 99), Window({2}, {2}, {2, 2}));
  Check(Random({1, 5, 2, 2}, 98), Window({2, 2}, {2, 2}, {2, 2, 2, 2}));
}

TEST(MaxPoolPlainKernel, LargeShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  Check(Random({1, 64, 1000}, 50), Window({3}, {2}, {1, 1}), pool->get());
  Check(Random({8, 128, 999}, 51), Window({2}, {2}), pool->get());
  Check(Random({1, 64, 112, 112}, 52), Window({3, 3}, {2, 2}, {1, 1, 1, 1}), pool->get());
  Check(Random({1, 16, 8, 56, 56}, 53), Window({1, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1}), pool->get());
}

TEST(MaxPoolPlainKernel, OtherRequestsAreLeftToOthers) {
  ir::Graph g("g");
  TensorDesc xd(DataType::kFloat, Shape({1, 4, 12}));
  TensorDesc yd(DataType::kFloat, Shape({1, 4, 6}));
  ir::Node* node = g.AddNode("MaxPool", "pool", {g.AddInput("x", xd)}, {g.AddValue("y", yd)});
  node->attrs() = Window({2}, {2});
  PrepareRequest r;
  r.node = node;
  r.input_descs = {xd};
  r.const_inputs = {nullptr};
  r.output_descs = {yd};
  EXPECT_NE(PrepareMaxPoolPlain(r), nullptr);
  PrepareRequest nhwc = r;
  nhwc.input_descs[0].format = nhwc.output_descs[0].format = Format::kNHWC;
  EXPECT_EQ(PrepareMaxPoolPlain(nhwc), nullptr);
  PrepareRequest half = r;
  half.input_descs[0].dtype = half.output_descs[0].dtype = DataType::kFloat16;
  EXPECT_EQ(PrepareMaxPoolPlain(half), nullptr);
  PrepareRequest wrong = r;
  wrong.output_descs[0].shape = Shape({1, 4, 5});  // not the window's output dims
  EXPECT_EQ(PrepareMaxPoolPlain(wrong), nullptr);
  node->attrs() = Window({2, 2});  // a 2-D window on a 1-D row
  EXPECT_EQ(PrepareMaxPoolPlain(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
