// The slice kernel: constant starts/ends/axes/steps (negative indices, steps > 1 and < 0, axis subsets, clamping,
// opset < 10 attributes) equal ref bit for bit over word sizes 1/2/4/8; large slices use the pool; non-constant
// operands and unsupported dtypes stay on ref.
#include <cstring>

#include "kernels/exec/exec_test_util.h"

namespace ge::exec::testing {
namespace {

Tensor I64(const std::vector<int64_t>& v) { return Tensor::FromVector<int64_t>(v, {static_cast<int64_t>(v.size())}); }
Tensor I32(const std::vector<int32_t>& v) { return Tensor::FromVector<int32_t>(v, {static_cast<int64_t>(v.size())}); }

// opset 10+: starts, ends, then axes and steps when non-empty, all constant.
OpCase SliceCase(const Tensor& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                 const std::vector<int64_t>& axes = {}, const std::vector<int64_t>& steps = {}) {
  std::vector<Tensor> in = {x, I64(starts), I64(ends)};
  if (!axes.empty() || !steps.empty()) in.push_back(axes.empty() ? Tensor() : I64(axes));
  if (!steps.empty()) in.push_back(I64(steps));
  std::vector<bool> consts(in.size(), true);
  consts[0] = false;
  return OpCase("Slice", in, consts);
}

TEST(SliceKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(41);
  Tensor x = RandomTensor(DataType::kFloat, {1, 116, 14, 14}, rng);
  ExpectBitExact(SliceCase(x, {0}, {58}, {1}), "exec.slice");  // shufflenet channel halves
  ExpectBitExact(SliceCase(x, {58}, {116}, {1}), "exec.slice");
  ExpectBitExact(SliceCase(x, {-3, 2}, {-1, 100}, {-1, 2}), "exec.slice");               // negative starts/ends
  ExpectBitExact(SliceCase(x, {1, 0}, {100, 14}, {1, 3}, {3, 2}), "exec.slice");         // steps > 1
  ExpectBitExact(SliceCase(x, {-1}, {-1000}, {3}, {-1}), "exec.slice");                  // reversed W
  ExpectBitExact(SliceCase(x, {100, 13, 13}, {0, -100, -100}, {1, 2, 3}, {-7, -1, -1}), "exec.slice");
  ExpectBitExact(SliceCase(x, {-1000, 5}, {1000, INT64_MAX}, {0, 2}), "exec.slice");     // clamped
  ExpectBitExact(SliceCase(x, {5}, {3}, {1}), "exec.slice");                             // empty
  ExpectBitExact(SliceCase(x, {0, 0, 0, 0}, {1, 116, 14, 14}), "exec.slice");            // whole: one memcpy
  ExpectBitExact(SliceCase(RandomTensor(DataType::kInt8, {9}, rng), {7}, {-20}, {0}, {-2}), "exec.slice");
  ExpectBitExact(SliceCase(RandomTensor(DataType::kInt16, {4, 10}, rng), {1, 2}, {3, 9}), "exec.slice");
  ExpectBitExact(SliceCase(RandomTensor(DataType::kInt64, {3, 4, 5}, rng), {1}, {4}, {-1}), "exec.slice");
  ExpectBitExact(SliceCase(RandomTensor(DataType::kDouble, {6, 1, 5}, rng), {5, 0}, {-7, 1}, {0, 1}, {-2, 1}),
                 "exec.slice");
  // int32 operands.
  ExpectBitExact(OpCase("Slice", {x, I32({2}), I32({9}), I32({2}), I32({3})}, {false, true, true, true, true}),
                 "exec.slice");
}

TEST(SliceKernel, RandomSlicesMatchRefExactly) {
  std::mt19937 rng(42);
  const DataType types[] = {DataType::kFloat, DataType::kUint8, DataType::kFloat16, DataType::kInt64};
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 1 + iter % 5;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, 9)(rng));
    std::vector<int64_t> axes(rank);
    for (int i = 0; i < rank; ++i) axes[i] = i;
    std::shuffle(axes.begin(), axes.end(), rng);
    axes.resize(std::uniform_int_distribution<int>(1, rank)(rng));
    std::vector<int64_t> starts, ends, steps;
    std::uniform_int_distribution<int64_t> idx(-12, 12), step(-3, 3);
    for (size_t i = 0; i < axes.size(); ++i) {
      starts.push_back(idx(rng));
      ends.push_back(idx(rng));
      int64_t s = step(rng);
      steps.push_back(s == 0 ? 1 : s);
      if (iter % 3 == 0) axes[i] -= rank;  // negative axes
    }
    Tensor x = RandomTensor(types[iter % 4], dims, rng);
    ExpectBitExact(SliceCase(x, starts, ends, axes, steps), "exec.slice");
  }
}

TEST(SliceKernel, AttributesBeforeOpset10) {
  std::mt19937 rng(43);
  Tensor x = RandomTensor(DataType::kFloat, {5, 6, 7}, rng);
  ir::AttrMap a;
  a.Set("starts", ir::AttrValue::Ints({1, -4}));
  a.Set("ends", ir::AttrValue::Ints({1000, -1}));
  a.Set("axes", ir::AttrValue::Ints({0, 2}));
  ExpectBitExact(OpCase("Slice", {x}, {}, a, 1, 9), "exec.slice");
  ir::AttrMap b;
  b.Set("starts", ir::AttrValue::Ints({2}));
  b.Set("ends", ir::AttrValue::Ints({4}));
  ExpectBitExact(OpCase("Slice", {x}, {}, b, 1, 1), "exec.slice");
}

TEST(SliceKernel, LargeSlicesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(44);
  Tensor x = RandomTensor(DataType::kFloat, {1, 232, 28, 28}, rng);
  ExpectBitExact(SliceCase(x, {116}, {232}, {1}), "exec.slice", pool->get());
  ExpectBitExact(SliceCase(x, {0, 1}, {232, 28}, {1, 3}, {1, 2}), "exec.slice", pool->get());
  ExpectBitExact(SliceCase(RandomTensor(DataType::kUint8, {700, 900}, rng), {-1, 3}, {-1000, 800}, {0, 1}, {-1, 1}),
                 "exec.slice", pool->get());
}

TEST(SliceKernel, NonConstantOperandsStayOnRef) {
  std::mt19937 rng(45);
  Tensor x = RandomTensor(DataType::kFloat, {4, 6}, rng);
  // Inference cannot size such a slice; the planned dims stand in for what a static model would know.
  const std::vector<TensorDesc> planned = {TensorDesc(DataType::kFloat, Shape(Dims{2, 6}))};
  auto p = PrepareCase(OpCase("Slice", {x, I64({1}), I64({3})}, {false, false, true}), planned);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "ref");
  ASSERT_TRUE((*p)->Run().ok());
  auto steps = PrepareCase(
      OpCase("Slice", {x, I64({1}), I64({3}), I64({1}), I64({2})}, {false, true, true, true, false}),
      {TensorDesc(DataType::kFloat, Shape(Dims{4, 1}))});
  ASSERT_TRUE(steps.ok()) << steps.status().ToString();
  EXPECT_STREQ((*steps)->kernel->impl_name(), "ref");
  Tensor c = Tensor::Create(DataType::kComplex128, {4}).value();
  std::memset(c.raw_data(), 0, c.nbytes());
  auto cplx = PrepareCase(SliceCase(c, {1}, {3}));
  ASSERT_TRUE(cplx.ok()) << cplx.status().ToString();
  EXPECT_STREQ((*cplx)->kernel->impl_name(), "ref");
}

}  // namespace
}  // namespace ge::exec::testing
