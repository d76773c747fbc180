// The split kernel: every output equal to ref's bit for bit over axes (first, middle, last, negative), the split
// sizes as an input, an attribute (opset 11), equal parts, word sizes 1/2/4/8,
// empty parts; large inputs on a pool; dims that vary between runs stay on ref.
#include <cstring>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/split_kernel.h"

namespace ge::exec::testing {
namespace {

Tensor I64(const std::vector<int64_t>& v) { return Tensor::FromVector<int64_t>(v, {static_cast<int64_t>(v.size())}); }

ir::AttrMap Axis(int64_t axis) {
  ir::AttrMap a;
  a.Set("axis", ir::AttrValue::Int(axis));
  return a;
}

// Split by the constant sizes `split` (opset 13 input) along `axis`.
OpCase SplitCase(const Tensor& x, int64_t axis, const std::vector<int64_t>& split) {
  return OpCase("Split", {x, I64(split)}, {false, true}, Axis(axis), static_cast<int>(split.size()));
}

void ExpectAllOutputsBitExact(const OpCase& c, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.split") << name;
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  ASSERT_EQ(want->size(), (*p)->outputs.size()) << name;
  for (size_t i = 0; i < want->size(); ++i) {
    const Tensor& w = (*want)[i].tensor;
    const Tensor& g = (*p)->outputs[i];
    ASSERT_EQ(g.dims(), w.dims()) << name << " output " << i;
    EXPECT_EQ(std::memcmp(g.raw_data(), w.raw_data(), g.nbytes()), 0) << name << " output " << i;
  }
}

TEST(SplitKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(51);
  Tensor qkv = RandomTensor(DataType::kFloat, {1, 7, 768}, rng);
  ExpectAllOutputsBitExact(SplitCase(qkv, 2, {256, 256, 256}));  // a decoder's fused q/k/v projection
  ExpectAllOutputsBitExact(SplitCase(qkv, -1, {100, 0, 668}));   // an empty part
  ExpectAllOutputsBitExact(SplitCase(qkv, 1, {3, 4}));
  ExpectAllOutputsBitExact(SplitCase(qkv, 0, {1}));  // one output: a copy
  Tensor x = RandomTensor(DataType::kFloat, {4, 6, 5}, rng);
  ExpectAllOutputsBitExact(OpCase("Split", {x}, {}, Axis(1), 3));  // equal parts, no sizes
  ir::AttrMap sizes = Axis(-3);
  sizes.Set("split", ir::AttrValue::Ints({1, 3}));
  ExpectAllOutputsBitExact(OpCase("Split", {x}, {}, sizes, 2, 11));  // opset 11: sizes as an attribute
  for (DataType dt : {DataType::kUint8, DataType::kFloat16, DataType::kInt64, DataType::kDouble}) {
    ExpectAllOutputsBitExact(SplitCase(RandomTensor(dt, {3, 9, 2}, rng), 1, {2, 5, 2}));
  }
}

TEST(SplitKernel, RandomSplitsMatchRefExactly) {
  std::mt19937 rng(52);
  for (int iter = 0; iter < 200; ++iter) {
    const int rank = 1 + iter % 5;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, 7)(rng));
    const int axis = std::uniform_int_distribution<int>(0, rank - 1)(rng);
    std::vector<int64_t> split;
    int64_t left = dims[axis];
    while (left > 0) {
      const int64_t s = std::uniform_int_distribution<int64_t>(0, left)(rng);
      split.push_back(s);
      left -= s;
    }
    Tensor x = RandomTensor(iter % 2 ? DataType::kFloat : DataType::kInt32, dims, rng);
    ExpectAllOutputsBitExact(SplitCase(x, iter % 3 == 0 ? axis - rank : axis, split));
  }
}

TEST(SplitKernel, LargeInputsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(53);
  ExpectAllOutputsBitExact(SplitCase(RandomTensor(DataType::kFloat, {1, 256, 3072}, rng), 2, {1024, 1024, 1024}),
                           pool->get());
  ExpectAllOutputsBitExact(SplitCase(RandomTensor(DataType::kFloat, {512, 300}, rng), 0, {100, 412}), pool->get());
}

TEST(SplitKernel, VaryingDimsStayOnRef) {
  std::mt19937 rng(54);
  OpCase c = SplitCase(RandomTensor(DataType::kFloat, {1, 5, 6}, rng), 2, {2, 4});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{false, true, false}, {}};
  EXPECT_EQ(PrepareSplit(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
