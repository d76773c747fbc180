// Concurrent tensor-form Executes of one dynamic model through the public OfflineModel API: 3 threads at different
// sizes get, bit for bit, what a model loaded for one execution at a time gives; the executions run on runtime v2's
// execution contexts (never more than OfflineModelOptions::max_concurrent_executions).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>

#include "compiler/model_compiler.h"
#include "ge/model.h"
#include "ir/text_parser.h"
#include "runtime/model_manager.h"
#include "runtime/offline_model_internal.h"
#include "runtime/runtime_context.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime {
namespace {

constexpr const char* kModel = R"(opset "" 17
graph g(%x: float32[?,8], %s: float32[1,8]) {
  m: %m = Mul(%x, %s)
  r: %r = Relu(%m)
  rs: %sum = ReduceSum(%r) {keepdims = 1}
  d: %y = Div(%r, %sum)
  t: %t = Transpose(%y) {perm = [1, 0]}
  return %t, %sum
})";

Tensor RandomFloats(const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(0.1f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

std::unique_ptr<OfflineModel> Load(const std::string& path, int max_concurrent) {
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  options.max_concurrent_executions = max_concurrent;
  auto m = OfflineModel::LoadFromFile(path, options);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(*m) : nullptr;
}

size_t ExecutionContexts(OfflineModel& model) {
  auto lease = OfflineModelAccess::context(model).models().Acquire(OfflineModelAccess::model_id(model));
  if (!lease.ok()) return 0;
  const auto* v2 = dynamic_cast<const v2::ModelV2*>(&lease->model());
  return v2 != nullptr ? v2->execution_contexts() : 0;
}

TEST(OfflineModelConcurrentDynamic, ThreadsAtDifferentSizesMatchOneAtATime) {
  auto ir = ir::ParseModelText(kModel);
  ASSERT_TRUE(ir.ok()) << ir.status().ToString();
  compiler::CompileOptions o;
  o.lower_for_runtime_v2 = v2::PlanExecuteGraphsForOm;
  const std::string path = ::testing::TempDir() + "offline_concurrent_dynamic_" + std::to_string(::getpid()) + ".om";
  ASSERT_TRUE(compiler::CompileToOmFile(**ir, o, path).ok());
  auto single = Load(path, 1);
  auto shared = Load(path, 3);
  ASSERT_TRUE(single != nullptr && shared != nullptr);
  ASSERT_TRUE(shared->dynamic());

  std::mt19937_64 rng(17);
  const Tensor scale = RandomFloats({1, 8}, rng);
  struct Case {
    std::vector<Tensor> in, want;
  };
  std::vector<Case> cases;
  for (int64_t n : {1, 4, 33, 7, 100, 2}) {
    Case c;
    c.in = {RandomFloats({n, 8}, rng), scale};
    ASSERT_TRUE(single->Execute(c.in, &c.want).ok());
    cases.push_back(std::move(c));
  }
  std::atomic<int> mismatches{0}, failures{0}, ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 3; ++t) {
    pool.emplace_back([&, t] {
      std::vector<Tensor> got;
      ++ready;
      while (ready.load() < 3) std::this_thread::yield();
      for (int i = 0; i < 150; ++i) {
        const Case& c = cases[static_cast<size_t>(i * (t + 2) + t) % cases.size()];
        if (!shared->Execute(c.in, &got).ok()) {
          ++failures;
          return;
        }
        for (size_t k = 0; k < c.want.size(); ++k) {
          const bool same = got.size() == c.want.size() && got[k].dims() == c.want[k].dims() &&
                            std::memcmp(got[k].raw_data(), c.want[k].raw_data(), c.want[k].nbytes()) == 0;
          if (!same) ++mismatches;
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(ExecutionContexts(*single), 1u);
  const size_t contexts = ExecutionContexts(*shared);
  EXPECT_GE(contexts, 1u);
  EXPECT_LE(contexts, 3u);
  RecordProperty("execution_contexts", static_cast<int>(contexts));
  ModelMemoryStats stats;
  EXPECT_TRUE(shared->memory_stats(&stats));
  EXPECT_TRUE(shared->Unload().ok());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge::runtime
