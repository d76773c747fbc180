// The where kernel: equal to ref bit for bit for same-shape, scalar, causal-mask and random broadcast patterns over
// word sizes 1/2/4/8 (NaN payloads and -0 move untouched), empty outputs, large outputs on a pool; a non-bool
// condition and dims that vary between runs stay on ref.
#include <cmath>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/where_kernel.h"

namespace ge::exec::testing {
namespace {

Tensor RandomBool(const Dims& dims, std::mt19937& rng) {
  Tensor t = Tensor::Create(DataType::kBool, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<bool>()[i] = (rng() & 1) != 0;
  return t;
}

OpCase WhereCase(const Tensor& c, const Tensor& x, const Tensor& y) { return OpCase("Where", {c, x, y}); }

TEST(WhereKernel, NamedCasesMatchRefExactly) {
  std::mt19937 rng(61);
  const Dims s = {2, 3, 4};
  ExpectBitExact(
      WhereCase(RandomBool(s, rng), RandomTensor(DataType::kFloat, s, rng), RandomTensor(DataType::kFloat, s, rng)),
      "exec.where");
  // A decoder's causal mask: [1,1,L,L] over [1,H,L,L] scores, a scalar -inf fill.
  Tensor mask = Tensor::Create(DataType::kBool, {1, 1, 7, 7}).value();
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) mask.data<bool>()[i * 7 + j] = j <= i;
  Tensor fill = Tensor::FromVector<float>({-std::numeric_limits<float>::infinity()}, {});
  ExpectBitExact(WhereCase(mask, RandomTensor(DataType::kFloat, {1, 4, 7, 7}, rng), fill), "exec.where");
  // Scalars and rank differences on each operand.
  ExpectBitExact(WhereCase(RandomBool({}, rng), RandomTensor(DataType::kFloat, {5}, rng),
                           RandomTensor(DataType::kFloat, {3, 1}, rng)),
                 "exec.where");
  ExpectBitExact(WhereCase(RandomBool({3, 1, 5}, rng), RandomTensor(DataType::kFloat, {1}, rng),
                           RandomTensor(DataType::kFloat, {4, 1}, rng)),
                 "exec.where");
  // NaN payloads and signed zeros are moved, never computed.
  Tensor special =
      Tensor::FromVector<float>({std::nanf("0x123"), -0.0f, std::numeric_limits<float>::infinity(), 1}, {4});
  Tensor zeros = Tensor::FromVector<float>({0, 0, 0, 0}, {4});
  ExpectBitExact(WhereCase(Tensor::FromVector<bool>({true, true, false, true}, {4}), special, zeros), "exec.where");
  for (DataType dt : {DataType::kUint8, DataType::kFloat16, DataType::kInt32, DataType::kInt64, DataType::kDouble}) {
    ExpectBitExact(WhereCase(RandomBool({2, 1, 6}, rng), RandomTensor(dt, {2, 5, 1}, rng), RandomTensor(dt, {6}, rng)),
                   "exec.where");
  }
  ExpectBitExact(WhereCase(RandomBool({0, 3}, rng), RandomTensor(DataType::kFloat, {1, 3}, rng),
                           RandomTensor(DataType::kFloat, {0, 1}, rng)),
                 "exec.where");  // empty
}

TEST(WhereKernel, RandomBroadcastsMatchRefExactly) {
  std::mt19937 rng(62);
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 1 + iter % 6;
    Dims out;
    for (int i = 0; i < rank; ++i) out.push_back(std::uniform_int_distribution<int64_t>(1, 5)(rng));
    auto operand = [&](void) {
      const int r = std::uniform_int_distribution<int>(0, rank)(rng);
      Dims d(out.end() - r, out.end());
      for (int64_t& e : d) {
        if (rng() % 3 == 0) e = 1;
      }
      return d;
    };
    const Dims dc = operand(), dx = operand(), dy = operand();
    // Keep the output's dims reachable: give x the full dims half of the time.
    const Dims dx_full = iter % 2 ? out : dx;
    ExpectBitExact(WhereCase(RandomBool(dc, rng), RandomTensor(DataType::kFloat, dx_full, rng),
                             RandomTensor(DataType::kFloat, dy, rng)),
                   "exec.where");
  }
}

TEST(WhereKernel, LargeOutputsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(63);
  ExpectBitExact(WhereCase(RandomBool({1, 1, 256, 256}, rng), RandomTensor(DataType::kFloat, {1, 8, 256, 256}, rng),
                           Tensor::FromVector<float>({-1e9f}, {})),
                 "exec.where", pool->get());
  ExpectBitExact(WhereCase(RandomBool({300, 1}, rng), RandomTensor(DataType::kFloat, {300, 400}, rng),
                           RandomTensor(DataType::kFloat, {400}, rng)),
                 "exec.where", pool->get());
}

TEST(WhereKernel, OtherRequestsStayOnRef) {
  std::mt19937 rng(64);
  auto p = PrepareCase(WhereCase(RandomBool({2, 3}, rng), RandomTensor(DataType::kFloat, {2, 3}, rng),
                                 RandomTensor(DataType::kFloat, {2, 3}, rng)));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{true, false}, {}, {}};
  EXPECT_EQ(PrepareWhere(r), nullptr);
  r = (*p)->request;
  r.input_descs[0].dtype = DataType::kUint8;
  EXPECT_EQ(PrepareWhere(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
