// The reduce kernel against the reference kernel: every op over axes {-1}, {1}, {2, 3}, {0}, all and none, keepdims
// 0 and 1, tiny and [1, 1024, 4096]-like shapes, empty reductions, NaN and inf inputs (Max / Min exactly, sums
// within 1e-6), axes from an input (opset 13 / 18) with noop_with_empty_axes, large tensors on a pool; interleaved
// reduced axes and non-constant axes stay on ref.
#include <cmath>
#include <limits>

#include "kernels/exec/exec_test_util.h"

namespace ge::exec::testing {
namespace {

using ir::AttrValue;

const char* const kOps[] = {"ReduceSum", "ReduceMean",      "ReduceMax",    "ReduceMin", "ReduceL1",
                            "ReduceL2",  "ReduceSumSquare", "ReduceLogSum", "ReduceProd"};

bool Exact(const std::string& op) { return op == "ReduceMax" || op == "ReduceMin"; }

// axes == nullptr: none given (reduce all). ReduceSum at opset 13+ and every op at 18+ take axes as an input.
OpCase ReduceCase(const std::string& op, const Tensor& x, const std::vector<int64_t>* axes, int64_t keepdims,
                  int64_t opset = 13) {
  ir::AttrMap m;
  m.Set("keepdims", AttrValue::Int(keepdims));
  const bool from_input = op == "ReduceSum" ? opset >= 13 : opset >= 18;
  if (!from_input) {
    if (axes != nullptr) m.Set("axes", AttrValue::Ints(*axes));
    return OpCase(op, {x}, {false}, m, 1, opset);
  }
  if (axes == nullptr) return OpCase(op, {x}, {false}, m, 1, opset);
  Tensor a = Tensor::FromVector<int64_t>(*axes, {static_cast<int64_t>(axes->size())});
  return OpCase(op, {x, a}, {false, true}, m, 1, opset);
}

void ExpectReduceMatches(const std::string& op, const Tensor& x, const std::vector<int64_t>* axes, int64_t keepdims,
                         rt::ThreadPool* pool = nullptr, int64_t opset = 13) {
  ExpectMatchesRef(ReduceCase(op, x, axes, keepdims, opset), "exec.reduce", Exact(op) ? 0 : 1e-6, pool);
}

TEST(ReduceKernel, EveryOpOverCommonAxesMatchesRef) {
  std::mt19937 rng(81);
  const std::vector<std::vector<int64_t>> axes_list = {{-1}, {1}, {2, 3}, {0}, {1, 2}, {0, 1, 2, 3}};
  for (const Dims& dims : std::vector<Dims>{{2, 3, 5, 7}, {1, 4, 1, 9}, {3, 1, 2, 1}, {2, 17, 3, 33}}) {
    Tensor x = RandomTensor(DataType::kFloat, dims, rng);
    for (const char* op : kOps) {
      for (int64_t keep : {0, 1}) {
        for (const auto& axes : axes_list) ExpectReduceMatches(op, x, &axes, keep);
        ExpectReduceMatches(op, x, nullptr, keep);
      }
    }
  }
}

// Random dims and axes: interleaved axes go to ref, the rest to exec.reduce; either way the result is ref's.
TEST(ReduceKernel, RandomDimsAndAxesMatchRef) {
  std::mt19937 rng(88);
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 1 + iter % 5;
    Dims dims;
    std::vector<int64_t> axes;
    for (int k = 0; k < rank; ++k) {
      dims.push_back(std::uniform_int_distribution<int64_t>(1, 7)(rng));
      if (rng() % 2) axes.push_back(rng() % 2 ? k : k - rank);
    }
    const char* op = kOps[rng() % (sizeof(kOps) / sizeof(kOps[0]))];
    ExpectMatchesRef(ReduceCase(op, RandomTensor(DataType::kFloat, dims, rng), &axes, static_cast<int64_t>(rng() % 2)),
                     nullptr, Exact(op) ? 0 : 1e-6);
  }
}

TEST(ReduceKernel, OtherRanksAndLongRows) {
  std::mt19937 rng(82);
  for (const char* op : kOps) {
    const std::vector<int64_t> last = {-1}, first = {0}, mid = {1};
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {1}, rng), &last, 1);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {37}, rng), &first, 0);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {}, rng), nullptr, 1);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {5, 1031}, rng), &last, 1);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {1031, 3}, rng), &first, 0);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {3, 7, 1100}, rng), &mid, 1);  // inner over one tile
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {1, 64, 4096}, rng), &last, 0);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {1, 64, 4096}, rng), &mid, 1);
  }
}

TEST(ReduceKernel, EmptyReductionsAndOutputs) {
  std::mt19937 rng(83);
  for (const char* op : kOps) {
    const std::vector<int64_t> ax1 = {1}, ax0 = {0};
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {3, 0}, rng), &ax1, 1);  // no elements per output
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {3, 0, 4}, rng), &ax1, 0);
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {0, 3}, rng), &ax1, 1);  // no outputs
    ExpectReduceMatches(op, RandomTensor(DataType::kFloat, {0, 3}, rng), &ax0, 0);
  }
}

TEST(ReduceKernel, NanAndInfAsRef) {
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  Tensor x =
      Tensor::FromVector<float>({1,     nan,   3,     -2,  // NaN inside a row
                                 inf,   2,     -inf,  0,   // +inf and -inf: a NaN sum
                                 -0.0f, -0.0f, -0.0f, -0.0f, nan, nan, 5, nan, -inf, -inf, -inf, -inf, 4, 3, 2, nan},
                                {6, 4});
  for (const char* op : kOps) {
    for (const std::vector<int64_t>& axes : {std::vector<int64_t>{0}, std::vector<int64_t>{1}}) {
      ExpectReduceMatches(op, x, &axes, 1);
    }
    ExpectReduceMatches(op, x, nullptr, 0);
    // NaN in the vector lanes of a long row and of accumulated rows.
    std::mt19937 rng(84);
    Tensor big = RandomTensor(DataType::kFloat, {4, 100}, rng);
    big.data<float>()[37] = nan;
    big.data<float>()[150] = inf;
    big.data<float>()[399] = nan;
    for (const std::vector<int64_t>& axes : {std::vector<int64_t>{0}, std::vector<int64_t>{1}}) {
      ExpectReduceMatches(op, big, &axes, 0);
    }
  }
}

TEST(ReduceKernel, AxesFromAnInput) {
  std::mt19937 rng(85);
  Tensor x = RandomTensor(DataType::kFloat, {2, 3, 4, 5}, rng);
  const std::vector<int64_t> axes = {2, 3}, none = {};
  for (const char* op : kOps) {
    ExpectReduceMatches(op, x, &axes, 1, nullptr, 18);
    ExpectReduceMatches(op, x, nullptr, 0, nullptr, 18);
    ExpectReduceMatches(op, x, &none, 0, nullptr, 18);  // empty axes: reduce all
    OpCase noop = ReduceCase(op, x, &none, 1, 18);
    noop.attrs.Set("noop_with_empty_axes", AttrValue::Int(1));
    ExpectBitExact(noop, "exec.reduce");
  }
  ExpectReduceMatches("ReduceSum", x, &axes, 0, nullptr, 13);
  OpCase varying = ReduceCase("ReduceSum", x, &axes, 1, 13);
  varying.is_const = {false, false};
  auto p = PrepareCase(varying);
  if (p.ok()) {  // inference may leave the dims unknown without constant axes
    EXPECT_STREQ((*p)->kernel->impl_name(), "ref");
  }
}

TEST(ReduceKernel, InterleavedAxesAndOtherDtypesStayOnRef) {
  std::mt19937 rng(86);
  const std::vector<int64_t> interleaved = {0, 2};
  ExpectMatchesRef(ReduceCase("ReduceSum", RandomTensor(DataType::kFloat, {2, 3, 4}, rng), &interleaved, 1), "ref",
                   1e-6);
  const std::vector<int64_t> last = {-1};
  ExpectMatchesRef(ReduceCase("ReduceMax", RandomTensor(DataType::kDouble, {2, 3}, rng), &last, 1), "ref", 0);
  ExpectMatchesRef(ReduceCase("ReduceLogSumExp", RandomTensor(DataType::kFloat, {2, 3}, rng), &last, 1), "ref", 1e-6);
}

TEST(ReduceKernel, LargeTensorsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(87);
  Tensor rows = RandomTensor(DataType::kFloat, {1, 1024, 4096}, rng);
  Tensor points = RandomTensor(DataType::kFloat, {8, 256, 1024}, rng);
  Tensor flat = RandomTensor(DataType::kFloat, {1 << 20}, rng);
  Tensor wide = RandomTensor(DataType::kFloat, {3, 1 << 18}, rng);
  Tensor narrow = RandomTensor(DataType::kFloat, {1, 2048, 200}, rng);  // one outer row in tiles of 64
  const std::vector<int64_t> last = {-1}, mid = {1}, first = {0};
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceL2"}) {
    ExpectReduceMatches(op, rows, &last, 1, pool->get());
    ExpectReduceMatches(op, rows, &mid, 0, pool->get());
    ExpectReduceMatches(op, points, &last, 1, pool->get());
    ExpectReduceMatches(op, flat, nullptr, 0, pool->get());
    ExpectReduceMatches(op, wide, &first, 0, pool->get());
    ExpectReduceMatches(op, narrow, &mid, 1, pool->get());
  }
}

}  // namespace
}  // namespace ge::exec::testing
