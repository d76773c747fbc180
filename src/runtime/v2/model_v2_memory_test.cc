// ModelV2's run-time memory on a device under shape churn: an attention-like graph with a symbolic length run at
// random lengths keeps matching the interpreter, values above 4 KiB come from the arena, nothing of a run stays in
// the arena between runs, and once the warm-up has seen the longest length the arena maps nothing more and its
// touched bytes stay put (byte counts, memory_stats()).
#include <gtest/gtest.h>

#include <random>

#include "base/compare.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

constexpr char kAttention[] = R"(opset "" 17
graph g(%x: float32[?,16], %w: float32[16,64]) {
  m: %h = MatMul(%x, %w)
  r: %a = Relu(%h)
  t: %at = Transpose(%a) {perm = [1, 0]}
  s: %scores = MatMul(%a, %at)
  sm: %p = Softmax(%scores) {axis = -1}
  o: %y = MatMul(%p, %a)
  return %y
})";

Tensor RandomInput(Dims dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

TEST(ModelV2Memory, ShapeChurnStopsGrowingOnceTheLongestLengthRan) {
  rt::DeviceOptions dopt;
  dopt.intra_op_threads = 1;
  auto device = std::move(rt::CpuDevice::Create(dopt)).value();
  auto oracle_model = std::move(ir::ParseModelText(kAttention)).value();
  auto oracle = std::move(Interpreter::Create(oracle_model.get())).value();
  ModelV2Options o;
  o.device = device.get();
  auto model = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o)).value();

  std::mt19937_64 rng(5);
  const Value w(RandomInput({16, 64}, rng));
  std::uniform_int_distribution<int64_t> len(1, 256);
  std::vector<Value> got, want;
  auto run = [&](int64_t n, bool check) {
    std::vector<Value> in = {Value(RandomInput({n, 16}, rng)), w};
    ASSERT_TRUE(model->Execute(in, &got).ok());
    if (!check) return;
    ASSERT_TRUE(oracle->Run(in, &want).ok());
    Status s = CompareTensors(got[0].tensor, want[0].tensor, Tolerance{1e-4, 1e-4}, "y");
    EXPECT_TRUE(s.ok()) << n << ": " << s.ToString();
  };
  // Warm-up: 19 random lengths and the longest (its scores are 256 KiB).
  for (int i = 0; i < 19; ++i) run(len(rng), true);
  run(256, true);
  const ModelV2::MemoryStats warm = model->memory_stats();
  EXPECT_GT(warm.arena_peak_in_use_bytes, 256u * 256 * 4);
  EXPECT_EQ(warm.arena_in_use_bytes, 0u);
  for (int i = 0; i < 500; ++i) run(len(rng), i % 50 == 0);
  const ModelV2::MemoryStats end = model->memory_stats();
  EXPECT_EQ(end.arena_in_use_bytes, 0u);
  EXPECT_EQ(end.arena_segments, 1u);
  EXPECT_LE(end.arena_bytes, warm.arena_bytes);
  EXPECT_LE(end.arena_touched_bytes, warm.arena_touched_bytes + warm.arena_touched_bytes / 20)
      << warm.arena_touched_bytes << " bytes touched after warm-up, " << end.arena_touched_bytes << " at the end";
  EXPECT_LE(end.arena_bytes, 2 * end.arena_peak_in_use_bytes + (size_t{2} << 20));
  // The small values' cache stays within its cap (three times its peak in use).
  EXPECT_LE(end.cached_bytes + end.in_use_bytes, end.cap_bytes);
}

}  // namespace
}  // namespace ge::runtime::v2
