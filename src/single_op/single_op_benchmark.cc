// Per-call cost of single-op execution (issue 12: an Add of two 16-float tensors through the static form in at most
// 1 µs per call in steady state): the static form on raw buffers and on tensors, the dynamic form on a cached shape
// (descs and tensors), and the dynamic form alternating between two shapes (every call a cache hit on another
// kernel). A measurement, never a test: `make bench-kernels` or bin/ge_single_op_benchmark.
#include <benchmark/benchmark.h>

#include <vector>

#include "ge/single_op.h"

namespace {

constexpr int64_t kN = 16;

std::vector<ge::OpTensorDesc> AddDescs(int64_t n) {
  return {{ge::DataType::kFloat, {n}}, {ge::DataType::kFloat, {n}}};
}

void BM_StaticAdd16_Buffers(benchmark::State& state) {
  auto op = ge::SingleOp::Create("Add", AddDescs(kN));
  if (!op.ok()) return state.SkipWithError(op.status().ToString().c_str());
  std::vector<float> a(kN, 1.f), b(kN, 2.f), c(kN);
  const std::vector<ge::InputBuffer> in = {{a.data(), sizeof(float) * kN}, {b.data(), sizeof(float) * kN}};
  const std::vector<ge::OutputBuffer> out = {{c.data(), sizeof(float) * kN}};
  for (auto _ : state) {
    ge::Status s = (*op)->Run(in, out);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
  state.SetLabel((*op)->kernel_impl());
}
BENCHMARK(BM_StaticAdd16_Buffers);

void BM_StaticAdd16_Tensors(benchmark::State& state) {
  auto op = ge::SingleOp::Create("Add", AddDescs(kN));
  if (!op.ok()) return state.SkipWithError(op.status().ToString().c_str());
  const std::vector<ge::Tensor> in = {ge::Tensor::FromVector(std::vector<float>(kN, 1.f), {kN}),
                                      ge::Tensor::FromVector(std::vector<float>(kN, 2.f), {kN})};
  std::vector<ge::Tensor> out;
  for (auto _ : state) {
    ge::Status s = (*op)->Run(in, &out);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_StaticAdd16_Tensors);

void BM_DynamicAdd16_Descs(benchmark::State& state) {
  auto op = ge::DynamicSingleOp::Create("Add");
  if (!op.ok()) return state.SkipWithError(op.status().ToString().c_str());
  const std::vector<ge::OpTensorDesc> descs = AddDescs(kN);
  std::vector<float> a(kN, 1.f), b(kN, 2.f), c(kN);
  const std::vector<ge::InputBuffer> in = {{a.data(), sizeof(float) * kN}, {b.data(), sizeof(float) * kN}};
  const std::vector<ge::OutputBuffer> out = {{c.data(), sizeof(float) * kN}};
  for (auto _ : state) {
    ge::Status s = (*op)->Run(descs, in, out);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_DynamicAdd16_Descs);

void BM_DynamicAdd16_Tensors(benchmark::State& state) {
  auto op = ge::DynamicSingleOp::Create("Add");
  if (!op.ok()) return state.SkipWithError(op.status().ToString().c_str());
  const std::vector<ge::Tensor> in = {ge::Tensor::FromVector(std::vector<float>(kN, 1.f), {kN}),
                                      ge::Tensor::FromVector(std::vector<float>(kN, 2.f), {kN})};
  std::vector<ge::Tensor> out;
  for (auto _ : state) {
    ge::Status s = (*op)->Run(in, &out);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_DynamicAdd16_Tensors);

// Two shapes in turn ([16] and [8]): each call finds another cached kernel at the head of the LRU list's tail.
void BM_DynamicAdd_TwoShapes(benchmark::State& state) {
  auto op = ge::DynamicSingleOp::Create("Add");
  if (!op.ok()) return state.SkipWithError(op.status().ToString().c_str());
  const std::vector<ge::OpTensorDesc> descs[2] = {AddDescs(kN), AddDescs(kN / 2)};
  std::vector<float> a(kN, 1.f), b(kN, 2.f), c(kN);
  const std::vector<ge::InputBuffer> in = {{a.data(), sizeof(float) * kN}, {b.data(), sizeof(float) * kN}};
  const std::vector<ge::OutputBuffer> out = {{c.data(), sizeof(float) * kN}};
  int i = 0;
  for (auto _ : state) {
    ge::Status s = (*op)->Run(descs[i], in, out);
    i ^= 1;
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_DynamicAdd_TwoShapes);

// What Create costs (graph, inference, engine choice, prepare): the price of a dynamic-form cache miss.
void BM_CreateAdd16(benchmark::State& state) {
  const std::vector<ge::OpTensorDesc> descs = AddDescs(kN);
  for (auto _ : state) {
    auto op = ge::SingleOp::Create("Add", descs);
    benchmark::DoNotOptimize(op);
  }
}
BENCHMARK(BM_CreateAdd16);

}  // namespace
