// Concurrent executions of one ModelV2 (execution_context.h): an attention-like model with a symbolic length run
// from 2-4 threads at different lengths gives, bit for bit, the outputs one thread gets; the context pool makes a
// context only when executions overlap, never more than the maximum, and Unload waits for running executions.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "base/compare.h"
#include "ir/text_parser.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

// Rotary-free decoder block in miniature: projections, causal-free attention over a symbolic length, residual.
constexpr char kAttention[] = R"(opset "" 17
graph g(%x: float32[?,16], %wq: float32[16,16], %wk: float32[16,16], %wv: float32[16,16]) {
  q: %q = MatMul(%x, %wq)
  k: %k = MatMul(%x, %wk)
  v: %v = MatMul(%x, %wv)
  t: %kt = Transpose(%k) {perm = [1, 0]}
  s: %scores = MatMul(%q, %kt)
  sm: %p = Softmax(%scores) {axis = -1}
  o: %o = MatMul(%p, %v)
  r: %y = Add(%o, %x)
  n: %z = Relu(%y)
  return %z, %p
})";

Tensor RandomInput(Dims dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

bool BitIdentical(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.dims() == b.dims() && std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

struct Case {
  std::vector<Value> inputs;
  std::vector<Value> want;
};

class ModelV2Concurrency : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    rt::DeviceOptions dopt;
    dopt.intra_op_threads = 1;
    device_ = std::move(rt::CpuDevice::Create(dopt)).value();
  }
  // One kernel per shape (no shape-agnostic kernel later replaced by a specialized one): a context's results then
  // do not depend on the shapes it ran before, so every context must match the single-thread model bit for bit.
  ModelV2Options Options(int max_concurrent) const {
    ModelV2Options o;
    o.device = device_.get();
    o.shape_agnostic_kernels = false;
    o.max_concurrent_executions = max_concurrent;
    return o;
  }
  std::unique_ptr<rt::Device> device_;
};

TEST_P(ModelV2Concurrency, ThreadsAtDifferentLengthsMatchOneThreadBitForBit) {
  const int threads = GetParam();
  auto single = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), Options(1))).value();
  auto shared = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), Options(threads))).value();
  EXPECT_EQ(shared->execution_contexts(), 1u);  // made when executions first overlap

  std::mt19937_64 rng(11);
  const Value wq(RandomInput({16, 16}, rng)), wk(RandomInput({16, 16}, rng)), wv(RandomInput({16, 16}, rng));
  std::vector<Case> cases;
  for (int64_t len : {1, 7, 16, 33, 64, 3, 128, 20}) {
    Case c;
    c.inputs = {Value(RandomInput({len, 16}, rng)), wq, wk, wv};
    ASSERT_TRUE(single->Execute(c.inputs, &c.want).ok());
    cases.push_back(std::move(c));
  }

  std::atomic<int> mismatches{0}, failures{0}, ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<Value> got;  // reused across runs, as callers do
      ++ready;
      while (ready.load() < threads) std::this_thread::yield();  // start together, so that executions overlap
      for (int i = 0; i < 200; ++i) {
        const Case& c = cases[(static_cast<size_t>(i) * (t + 1) + t) % cases.size()];  // each thread its own order
        Status s = shared->Execute(c.inputs, &got);
        if (!s.ok()) {
          ADD_FAILURE() << "thread " << t << ": " << s.ToString();
          ++failures;
          return;
        }
        for (size_t o = 0; o < c.want.size(); ++o) {
          if (got.size() != c.want.size() || !BitIdentical(got[o].tensor, c.want[o].tensor)) ++mismatches;
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  RecordProperty("execution_contexts", static_cast<int>(shared->execution_contexts()));
  EXPECT_GE(shared->execution_contexts(), 1u);
  EXPECT_LE(shared->execution_contexts(), static_cast<size_t>(threads));
  // Statistics sum over the contexts: every context prepared kernels of its own.
  EXPECT_GE(shared->kernels_prepared(), single->kernels_prepared());
  EXPECT_TRUE(shared->Unload().ok());
}

INSTANTIATE_TEST_SUITE_P(Threads, ModelV2Concurrency, ::testing::Values(2, 3, 4));

TEST(ModelV2ConcurrencyOptions, DefaultKernelsStayCloseAcrossContexts) {
  // Shape-agnostic kernels (the default) may be swapped for specialized ones per context; values agree to rounding.
  rt::DeviceOptions dopt;
  dopt.intra_op_threads = 1;
  auto device = std::move(rt::CpuDevice::Create(dopt)).value();
  ModelV2Options o;
  o.device = device.get();
  o.max_concurrent_executions = 1;
  auto single = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o)).value();
  o.max_concurrent_executions = 2;
  auto shared = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o)).value();
  std::mt19937_64 rng(3);
  const Value w(RandomInput({16, 16}, rng));
  std::vector<Case> cases;
  for (int64_t len : {5, 40, 5, 5, 5, 90}) {
    Case c;
    c.inputs = {Value(RandomInput({len, 16}, rng)), w, w, w};
    ASSERT_TRUE(single->Execute(c.inputs, &c.want).ok());
    cases.push_back(std::move(c));
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 2; ++t) {
    pool.emplace_back([&] {
      std::vector<Value> got;
      for (int i = 0; i < 40; ++i) {
        const Case& c = cases[static_cast<size_t>(i) % cases.size()];
        if (!shared->Execute(c.inputs, &got).ok()) {
          ++failures;
          return;
        }
        for (size_t k = 0; k < c.want.size(); ++k) {
          if (!CompareTensors(got[k].tensor, c.want[k].tensor, Tolerance{1e-5, 1e-5}, "out").ok()) ++failures;
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ModelV2ConcurrencyOptions, ZeroConcurrentExecutionsIsRefused) {
  ModelV2Options o;
  o.max_concurrent_executions = 0;
  auto m = ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("max_concurrent_executions"), std::string::npos) << m.status().ToString();
}

TEST(ModelV2ConcurrencyOptions, ProfiledModelKeepsOneContext) {
  ModelV2Options o;
  o.profile = true;
  o.max_concurrent_executions = 4;
  auto m = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o)).value();
  std::mt19937_64 rng(1);
  const Value w(RandomInput({16, 16}, rng));
  std::vector<Value> in = {Value(RandomInput({9, 16}, rng)), w, w, w};
  std::vector<std::thread> pool;
  std::atomic<int> failures{0};
  for (int t = 0; t < 3; ++t) {
    pool.emplace_back([&] {
      std::vector<Value> got;
      for (int i = 0; i < 20; ++i) failures += m->Execute(in, &got).ok() ? 0 : 1;
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(m->execution_contexts(), 1u);
  ASSERT_FALSE(m->Profile().empty());
  EXPECT_EQ(m->Profile()[0].runs, 60u);
}

TEST(ModelV2ConcurrencyOptions, UnloadWaitsForRunningExecutionsAndRefusesLaterOnes) {
  ModelV2Options o;
  o.max_concurrent_executions = 3;
  auto m = std::move(ModelV2::Load(std::move(ir::ParseModelText(kAttention)).value(), o)).value();
  std::mt19937_64 rng(2);
  const Value w(RandomInput({16, 16}, rng));
  std::vector<Value> in = {Value(RandomInput({64, 16}, rng)), w, w, w};
  std::atomic<bool> go{true};
  std::atomic<int> unexpected{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 3; ++t) {
    pool.emplace_back([&] {
      std::vector<Value> got;
      while (go.load()) {
        Status s = m->Execute(in, &got);
        if (s.ok()) continue;
        if (s.code() != StatusCode::kFailedPrecondition || s.message().find("unloaded") == std::string::npos) {
          ++unexpected;
        }
        return;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(m->Unload().ok());
  go = false;
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(unexpected.load(), 0);
  std::vector<Value> got;
  EXPECT_EQ(m->Execute(in, &got).code(), StatusCode::kFailedPrecondition);
}

TEST(ModelV2ConcurrencyOptions, StreamBoundRunsOnTwoStreamsMatchTheSyncRun) {
  constexpr char kStatic[] = R"(opset "" 17
graph g(%x: float32[8,16], %w: float32[16,16]) {
  m: %h: float32[8,16] = MatMul(%x, %w)
  r: %y: float32[8,16] = Relu(%h)
  return %y
})";
  rt::DeviceOptions dopt;
  dopt.intra_op_threads = 1;
  auto device = std::move(rt::CpuDevice::Create(dopt)).value();
  ModelV2Options o;
  o.device = device.get();
  o.max_concurrent_executions = 2;
  auto m = std::move(ModelV2::Load(std::move(ir::ParseModelText(kStatic)).value(), o)).value();
  std::mt19937_64 rng(4);
  const Tensor x = RandomInput({8, 16}, rng), w = RandomInput({16, 16}, rng);
  std::vector<Value> want;
  ASSERT_TRUE(m->Execute({Value(x), Value(w)}, &want).ok());
  auto s1 = std::move(device->CreateStream()).value();
  auto s2 = std::move(device->CreateStream()).value();
  std::vector<std::vector<float>> out(40, std::vector<float>(8 * 16));
  const std::vector<DataBuffer> in = {DataBuffer{const_cast<void*>(x.raw_data()), x.nbytes()},
                                      DataBuffer{const_cast<void*>(w.raw_data()), w.nbytes()}};
  for (size_t i = 0; i < out.size(); ++i) {
    rt::Stream& stream = i % 2 == 0 ? *s1 : *s2;
    Status s = m->ExecuteAsync(in, {DataBuffer{out[i].data(), out[i].size() * sizeof(float)}}, stream);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  ASSERT_TRUE(s1->Synchronize().ok());
  ASSERT_TRUE(s2->Synchronize().ok());
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(std::memcmp(out[i].data(), want[0].tensor.raw_data(), want[0].tensor.nbytes()), 0) << "run " << i;
  }
  EXPECT_LE(m->execution_contexts(), 2u);
}

// The pool on its own, with a counting factory: deterministic, no timing.
std::unique_ptr<ExecutionContext> EmptyContext() { return std::make_unique<ExecutionContext>(); }

TEST(ContextPool, MakesContextsOnlyWhenAllAreLeasedAndNeverMoreThanTheMaximum) {
  std::atomic<int> made{0};
  ContextPool pool(2, [&]() -> StatusOr<std::unique_ptr<ExecutionContext>> {
    ++made;
    return EmptyContext();
  });
  pool.Add(EmptyContext());
  {
    auto a = pool.Acquire();
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(made.load(), 0);
    auto b = pool.Acquire();  // the first is leased: a second context is made
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(made.load(), 1);
    EXPECT_NE(&**a, &**b);
    // A third waits for a lease to end (the maximum is 2).
    std::atomic<bool> got{false};
    std::thread waiter([&] {
      auto c = pool.Acquire();
      EXPECT_TRUE(c.ok());
      got = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(got.load());
    { auto released = std::move(*a); }
    waiter.join();
    EXPECT_TRUE(got.load());
  }
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_EQ(made.load(), 1);
  {
    auto again = pool.Acquire();  // idle contexts are reused
    ASSERT_TRUE(again.ok());
  }
  EXPECT_EQ(made.load(), 1);
  pool.Close();
  EXPECT_EQ(pool.Acquire().status().code(), StatusCode::kFailedPrecondition);
}

TEST(ContextPool, AnAffinityKeyGetsTheContextItLeasedLast) {
  ContextPool pool(2, [] { return StatusOr<std::unique_ptr<ExecutionContext>>(EmptyContext()); });
  pool.Add(EmptyContext());
  int stream_a = 0, stream_b = 0;
  ExecutionContext *for_a = nullptr, *for_b = nullptr;
  {
    auto a = pool.Acquire(&stream_a);
    auto b = pool.Acquire(&stream_b);  // a second context
    ASSERT_TRUE(a.ok() && b.ok());
    for_a = &**a;
    for_b = &**b;
  }
  // One lease at a time, alternating keys: the most recently returned context is always the other key's, yet each
  // key gets its own.
  for (int i = 0; i < 3; ++i) {
    for (auto [key, want] : {std::pair{&stream_b, for_b}, std::pair{&stream_a, for_a}}) {
      auto lease = pool.Acquire(key);
      ASSERT_TRUE(lease.ok());
      EXPECT_EQ(&**lease, want);
    }
  }
  auto plain = pool.Acquire();  // no key: the most recently returned (a's)
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(&**plain, for_a);
}

TEST(ContextPool, AFailingFactoryLeavesThePoolAsItWas) {
  bool fail = true;
  ContextPool pool(2, [&]() -> StatusOr<std::unique_ptr<ExecutionContext>> {
    if (fail) return ResourceExhausted("no memory for another context");
    return EmptyContext();
  });
  pool.Add(EmptyContext());
  auto a = pool.Acquire();
  ASSERT_TRUE(a.ok());
  auto b = pool.Acquire();
  EXPECT_EQ(b.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(pool.size(), 1u);
  fail = false;
  auto c = pool.Acquire();
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(pool.size(), 2u);
}

TEST(ContextPool, CloseWaitsForLeases) {
  ContextPool pool(1, [] { return StatusOr<std::unique_ptr<ExecutionContext>>(EmptyContext()); });
  pool.Add(EmptyContext());
  auto lease = std::make_unique<ContextPool::Lease>(std::move(pool.Acquire()).value());
  std::atomic<bool> closed{false};
  std::thread closer([&] {
    pool.Close();
    closed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(closed.load());
  lease.reset();
  closer.join();
  EXPECT_TRUE(closed.load());
}

}  // namespace
}  // namespace ge::runtime::v2
