// The concat and expand kernels: every output equal to ref's bit for bit over axes (first, middle, last, negative),
// word sizes 1/2/4/8, empty inputs, broadcast patterns (leading, inner, outer, none); large tensors on a pool;
// dims that vary between runs stay on ref.
#include <cstring>

#include "kernels/exec/concat_kernel.h"
#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/expand_kernel.h"

namespace ge::exec::testing {
namespace {

Tensor I64(const std::vector<int64_t>& v) { return Tensor::FromVector<int64_t>(v, {static_cast<int64_t>(v.size())}); }

ir::AttrMap Axis(int64_t axis) {
  ir::AttrMap a;
  a.Set("axis", ir::AttrValue::Int(axis));
  return a;
}

void ExpectSameAsRef(const OpCase& c, const char* impl, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), impl) << name;
  // Poisoned output: a byte the kernel forgets to write shows.
  std::memset((*p)->outputs[0].raw_data(), 0xA5, (*p)->outputs[0].nbytes());
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  const Tensor& g = (*p)->outputs[0];
  ASSERT_EQ(g.dims(), w.dims()) << name;
  EXPECT_EQ(std::memcmp(g.raw_data(), w.raw_data(), g.nbytes()), 0) << name;
}

TEST(ConcatKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(61);
  // A rotary embedding's rotate_half: cat(-x2, x1) on the last axis.
  Tensor a = RandomTensor(DataType::kFloat, {1, 4, 128, 16}, rng),
         b = RandomTensor(DataType::kFloat, {1, 4, 128, 16}, rng);
  ExpectSameAsRef(OpCase("Concat", {a, b}, {}, Axis(-1)), "exec.concat");
  // An interleaved rotary embedding's stack of two halves along a new last axis: one word per input per row,
  // odd row counts included (the vector loop's tail).
  for (int64_t t : {1, 3, 4, 128}) {
    ExpectSameAsRef(OpCase("Concat",
                           {RandomTensor(DataType::kFloat, {1, 2, t, 16, 1}, rng),
                            RandomTensor(DataType::kFloat, {1, 2, t, 16, 1}, rng)},
                           {}, Axis(4)),
                    "exec.concat");
  }
  // Short runs of 1, 2 and 8 byte words, and 16-byte runs into rows that are not a multiple of 16 bytes.
  ExpectSameAsRef(
      OpCase("Concat", {RandomTensor(DataType::kUint8, {9, 3}, rng), RandomTensor(DataType::kUint8, {9, 1}, rng)}, {},
             Axis(1)),
      "exec.concat");
  ExpectSameAsRef(
      OpCase("Concat", {RandomTensor(DataType::kFloat, {9, 4}, rng), RandomTensor(DataType::kFloat, {9, 1}, rng)}, {},
             Axis(1)),
      "exec.concat");
  ExpectSameAsRef(
      OpCase("Concat", {RandomTensor(DataType::kInt64, {9, 2}, rng), RandomTensor(DataType::kInt64, {9, 2}, rng)}, {},
             Axis(-1)),
      "exec.concat");
  // A key cache grown by one step along the sequence axis.
  Tensor past = RandomTensor(DataType::kFloat, {1, 2, 37, 32}, rng),
         now = RandomTensor(DataType::kFloat, {1, 2, 1, 32}, rng);
  ExpectSameAsRef(OpCase("Concat", {past, now}, {}, Axis(2)), "exec.concat");
  Tensor c = RandomTensor(DataType::kFloat, {3, 5}, rng), d = RandomTensor(DataType::kFloat, {2, 5}, rng);
  ExpectSameAsRef(OpCase("Concat", {c, d, c}, {}, Axis(0)), "exec.concat");
  Tensor empty = RandomTensor(DataType::kFloat, {3, 0}, rng);
  ExpectSameAsRef(OpCase("Concat", {c, empty, c}, {}, Axis(1)), "exec.concat");
  ExpectSameAsRef(OpCase("Concat", {c}, {}, Axis(1)), "exec.concat");                // one input: a copy
  ExpectSameAsRef(OpCase("Concat", {c, d}, {false, true}, Axis(0)), "exec.concat");  // a constant input
  for (DataType dt : {DataType::kUint8, DataType::kFloat16, DataType::kInt64, DataType::kDouble}) {
    ExpectSameAsRef(OpCase("Concat", {RandomTensor(dt, {2, 3, 4}, rng), RandomTensor(dt, {2, 1, 4}, rng)}, {}, Axis(1)),
                    "exec.concat");
  }
}

TEST(ConcatKernel, RandomConcatsMatchRefExactly) {
  std::mt19937 rng(62);
  for (int iter = 0; iter < 200; ++iter) {
    const int rank = 1 + iter % 5;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, 6)(rng));
    const int axis = std::uniform_int_distribution<int>(0, rank - 1)(rng);
    const int n = std::uniform_int_distribution<int>(1, 4)(rng);
    std::vector<Tensor> in;
    for (int i = 0; i < n; ++i) {
      Dims di = dims;
      di[axis] = std::uniform_int_distribution<int64_t>(0, 5)(rng);
      in.push_back(RandomTensor(iter % 2 ? DataType::kFloat : DataType::kInt32, di, rng));
    }
    ExpectSameAsRef(OpCase("Concat", in, {}, Axis(iter % 3 == 0 ? axis - rank : axis)), "exec.concat");
  }
}

TEST(ConcatKernel, LargeInputsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(63);
  Tensor a = RandomTensor(DataType::kFloat, {1, 256, 1000}, rng),
         b = RandomTensor(DataType::kFloat, {1, 128, 1000}, rng);
  ExpectSameAsRef(OpCase("Concat", {a, b}, {}, Axis(1)), "exec.concat", pool->get());  // one row per input
  Tensor c = RandomTensor(DataType::kFloat, {512, 300}, rng), d = RandomTensor(DataType::kFloat, {512, 7}, rng);
  ExpectSameAsRef(OpCase("Concat", {c, d}, {}, Axis(1)), "exec.concat", pool->get());  // many rows
}

TEST(ConcatKernel, VaryingDimsStayOnRef) {
  std::mt19937 rng(64);
  OpCase c("Concat", {RandomTensor(DataType::kFloat, {1, 5, 6}, rng), RandomTensor(DataType::kFloat, {1, 5, 2}, rng)},
           {}, Axis(2));
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{false, true, false}, {}};
  EXPECT_EQ(PrepareConcat(r), nullptr);
}

TEST(ExpandKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(65);
  // Grouped-query attention's repeat of the key heads: [1, 2, 1, T, D] -> [1, 2, 4, T, D].
  ExpectSameAsRef(
      OpCase("Expand", {RandomTensor(DataType::kFloat, {1, 2, 1, 33, 16}, rng), I64({1, 2, 4, 33, 16})}, {false, true}),
      "exec.expand");
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kFloat, {3, 1}, rng), I64({2, 3, 5})}, {false, true}),
                  "exec.expand");  // a new leading axis and an inner broadcast
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kFloat, {1, 5}, rng), I64({4, 1})}, {false, true}),
                  "exec.expand");  // the shape smaller than the input along an axis: broadcast both ways
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kInt64, {2, 3}, rng), I64({2, 3})}, {false, true}),
                  "exec.expand");  // nothing to broadcast: a copy
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kUint8, {1}, rng), I64({7, 9})}, {false, true}),
                  "exec.expand");  // a scalar fill
}

TEST(ExpandKernel, RandomBroadcastsMatchRefExactly) {
  std::mt19937 rng(66);
  for (int iter = 0; iter < 200; ++iter) {
    const int rank = 1 + iter % 5;
    std::vector<int64_t> shape;
    Dims in;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = std::uniform_int_distribution<int64_t>(1, 5)(rng);
      shape.push_back(d);
      if (i >= iter % 2) in.push_back(std::uniform_int_distribution<int>(0, 1)(rng) ? d : 1);
    }
    if (in.empty()) in.push_back(1);
    const DataType dt = iter % 3 == 0 ? DataType::kDouble : (iter % 3 == 1 ? DataType::kFloat : DataType::kInt16);
    ExpectSameAsRef(OpCase("Expand", {RandomTensor(dt, in, rng), I64(shape)}, {false, true}), "exec.expand");
  }
}

TEST(ExpandKernel, LargeOutputsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(67);
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kFloat, {1, 4, 1, 256, 64}, rng), I64({1, 4, 4, 256, 64})},
                         {false, true}),
                  "exec.expand", pool->get());
  ExpectSameAsRef(OpCase("Expand", {RandomTensor(DataType::kFloat, {300, 1}, rng), I64({300, 1000})}, {false, true}),
                  "exec.expand", pool->get());
}

}  // namespace
}  // namespace ge::exec::testing
