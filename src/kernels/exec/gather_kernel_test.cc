// The gather kernel: equal to ref bit for bit for embedding lookups, every axis, negative and repeated indices,
// int32/int64 indices, scalar and empty indices, word sizes 1/2/4/8 and a large table on a pool; an index out of
// range fails the run with ref's message and writes nothing; dims that vary between runs stay on ref.
#include <cstring>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/gather_kernel.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap Axis(int64_t axis) {
  ir::AttrMap a;
  a.Set("axis", ir::AttrValue::Int(axis));
  return a;
}

Tensor Indices(const std::vector<int64_t>& v, const Dims& dims) { return Tensor::FromVector<int64_t>(v, dims); }

OpCase GatherCase(const Tensor& data, const Tensor& indices, int64_t axis = 0) {
  return OpCase("Gather", {data, indices}, {false, false}, Axis(axis));
}

TEST(GatherKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(71);
  Tensor table = RandomTensor(DataType::kFloat, {50, 16}, rng);
  ExpectBitExact(GatherCase(table, Indices({3, 0, 49, 3, -1, -50, 7}, {1, 7})), "exec.gather");  // embedding
  ExpectBitExact(GatherCase(table, Indices({5}, {})), "exec.gather");                            // scalar index
  ExpectBitExact(GatherCase(table, Indices({}, {0, 2})), "exec.gather");                         // no indices
  Tensor x = RandomTensor(DataType::kFloat, {3, 4, 5}, rng);
  ExpectBitExact(GatherCase(x, Indices({1, -1, 0}, {3}), 1), "exec.gather");
  ExpectBitExact(GatherCase(x, Indices({4, 4, 0, 2}, {2, 2}), -1), "exec.gather");
  ExpectBitExact(GatherCase(x, Tensor::FromVector<int32_t>({2, -3}, {2}), 0), "exec.gather");  // int32 indices
  for (DataType dt : {DataType::kUint8, DataType::kFloat16, DataType::kInt64, DataType::kDouble, DataType::kBool}) {
    Tensor d = dt == DataType::kBool ? Tensor::Create(dt, {6, 3}).value() : RandomTensor(dt, {6, 3}, rng);
    if (dt == DataType::kBool) std::memset(d.raw_data(), 1, d.nbytes());
    ExpectBitExact(GatherCase(d, Indices({5, 1, 1}, {3})), "exec.gather");
  }
}

TEST(GatherKernel, RandomGathersMatchRefExactly) {
  std::mt19937 rng(72);
  for (int iter = 0; iter < 200; ++iter) {
    const int rank = 1 + iter % 4;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, 6)(rng));
    const int axis = std::uniform_int_distribution<int>(0, rank - 1)(rng);
    const int irank = iter % 3;
    Dims idims;
    for (int i = 0; i < irank; ++i) idims.push_back(std::uniform_int_distribution<int64_t>(1, 4)(rng));
    std::vector<int64_t> idx(static_cast<size_t>(NumElements(idims)));
    for (int64_t& i : idx) i = std::uniform_int_distribution<int64_t>(-dims[axis], dims[axis] - 1)(rng);
    ExpectBitExact(GatherCase(RandomTensor(DataType::kFloat, dims, rng), Indices(idx, idims), axis), "exec.gather");
  }
}

TEST(GatherKernel, LargeTableOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(73);
  std::vector<int64_t> idx(256);
  for (int64_t& i : idx) i = std::uniform_int_distribution<int64_t>(-1000, 999)(rng);
  ExpectBitExact(GatherCase(RandomTensor(DataType::kFloat, {1000, 768}, rng), Indices(idx, {1, 256})), "exec.gather",
                 pool->get());
}

TEST(GatherKernel, AnIndexOutOfRangeFailsTheRunAndWritesNothing) {
  std::mt19937 rng(74);
  for (int64_t bad : {int64_t{10}, int64_t{-11}, INT64_MAX, INT64_MIN}) {
    auto p = PrepareCase(GatherCase(RandomTensor(DataType::kFloat, {10, 4}, rng), Indices({1, bad, 2}, {3})));
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_STREQ((*p)->kernel->impl_name(), "exec.gather");
    Tensor& out = (*p)->outputs[0];
    std::memset(out.raw_data(), 0x7f, out.nbytes());
    const Status s = (*p)->Run();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("indices value " + std::to_string(bad) + " is out of range [-10, 10)"),
              std::string::npos)
        << s.ToString();
    for (int64_t i = 0; i < out.nbytes(); ++i) ASSERT_EQ(static_cast<const uint8_t*>(out.raw_data())[i], 0x7f);
  }
}

TEST(GatherKernel, VaryingDimsStayOnRef) {
  std::mt19937 rng(75);
  auto p = PrepareCase(GatherCase(RandomTensor(DataType::kFloat, {10, 4}, rng), Indices({1, 2}, {1, 2})));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{}, {false, true}};
  EXPECT_EQ(PrepareGather(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
