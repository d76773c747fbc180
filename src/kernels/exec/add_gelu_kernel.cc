#include "kernels/exec/add_gelu_kernel.h"

#include <cstring>

#include "kernels/exec/binary_kernel.h"
#include "kernels/exec/broadcast_plan.h"
#include "kernels/exec/fast_math.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/unary_kernel.h"

// Vectors of lanes never cross a call (the loops over them are flattened); GCC reports the ABI note where templates
// are instantiated, at the end of the file.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace ge::exec {
namespace {

// y[i] = gelu(a[i * step_a] + b[i * step_b]) for i < n, steps 0 or 1, in blocks of W lanes (a short tail padded).
template <int W>
inline void AddGeluRun(const float* a, size_t step_a, const float* b, size_t step_b, float* y, size_t n) {
  using V = FloatLanes<W>;
  auto load = [](const float* p, size_t step, size_t count) {
    V v{};
    if (step == 0) return v + *p;
    std::memcpy(&v, p, count * sizeof(float));
    return v;
  };
  size_t i = 0;
  for (; i + W <= n; i += W) {
    const V r = GeluLanes(load(a + i * step_a, step_a, W) + load(b + i * step_b, step_b, W));
    std::memcpy(y + i, &r, sizeof(r));
  }
  if (i < n) {
    const V r = GeluLanes(load(a + i * step_a, step_a, n - i) + load(b + i * step_b, step_b, n - i));
    std::memcpy(y + i, &r, (n - i) * sizeof(float));
  }
}

// One build per LoopIsa, `flatten` so GeluLanes' ISA-specific Fma is inlined (fast_math.h).
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), flatten)) void AddGeluAvx512(const float* a, size_t step_a,
                                                                                          const float* b, size_t step_b,
                                                                                          float* y, size_t n) {
  AddGeluRun<16>(a, step_a, b, step_b, y, n);
}
__attribute__((target("avx2,fma"), flatten)) void AddGeluAvx2(const float* a, size_t step_a, const float* b,
                                                              size_t step_b, float* y, size_t n) {
  AddGeluRun<8>(a, step_a, b, step_b, y, n);
}
__attribute__((flatten)) void AddGeluBaseline(const float* a, size_t step_a, const float* b, size_t step_b, float* y,
                                              size_t n) {
  AddGeluRun<4>(a, step_a, b, step_b, y, n);
}

using AddGeluFn = void (*)(const float*, size_t, const float*, size_t, float*, size_t);

template <LoopIsa kIsa>
constexpr AddGeluFn kAddGelu = kIsa == LoopIsa::kAvx512 ? &AddGeluAvx512
                               : kIsa == LoopIsa::kAvx2 ? &AddGeluAvx2
                                                        : &AddGeluBaseline;

template <LoopIsa kIsa>
Status AddGeluTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const BroadcastPlan& p = BoundKernel<BinaryKernel>(binding).plan();
  const float* a = static_cast<const float*>(binding.io.inputs[0]);
  const float* b = static_cast<const float*>(binding.io.inputs[1]);
  float* y = static_cast<float*>(binding.io.outputs[0]);
  constexpr AddGeluFn run = kAddGelu<kIsa>;
  if (p.kind != BroadcastPlan::Kind::kGeneral) {
    const size_t sa = p.kind == BroadcastPlan::Kind::kScalarA ? 0 : 1;
    const size_t sb = p.kind == BroadcastPlan::Kind::kScalarB ? 0 : 1;
    ParallelRange(ctx, p.numel, [=](size_t lo, size_t hi) { run(a + lo * sa, sa, b + lo * sb, sb, y + lo, hi - lo); });
    return Status::Ok();
  }
  auto rows = [&p, a, b, y](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; ++r) {
      int64_t oa = 0, ob = 0;
      p.RowOffsets(static_cast<int64_t>(r), &oa, &ob);
      run(a + oa, static_cast<size_t>(p.step_a), b + ob, static_cast<size_t>(p.step_b), y + r * p.inner,
          static_cast<size_t>(p.inner));
    }
  };
  if (p.numel >= kParallelMinElements && ctx.pool != nullptr) {
    ctx.pool->ParallelFor(static_cast<size_t>(p.rows), rows,
                          std::max<size_t>(1, kParallelGrain / static_cast<size_t>(p.inner)));
  } else {
    rows(0, static_cast<size_t>(p.rows));
  }
  return Status::Ok();
}

constexpr rt::TaskFn kTasks[] = {&AddGeluTask<LoopIsa::kBaseline>, &AddGeluTask<LoopIsa::kAvx2>,
                                 &AddGeluTask<LoopIsa::kAvx512>};

std::unique_ptr<PreparedKernel> PrepareAddGelu(const PrepareRequest& r) {
  if (HasVaryingDims(r) || r.node->num_outputs() != 1) return nullptr;
  if (!InputPresent(r, 0) || !InputPresent(r, 1) || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& bias = r.input_descs[1];
  const TensorDesc& y = r.output_descs[0];
  if (x.dtype != DataType::kFloat || bias.dtype != x.dtype || y.dtype != x.dtype) return nullptr;
  if (x.shape.dims() != y.shape.dims() || bias.shape.rank() > x.shape.rank()) return nullptr;
  auto plan = PlanBroadcast(x.shape.dims(), bias.shape.dims(), y.shape.dims());
  if (!plan.ok()) return nullptr;  // ref reports it
  const rt::TaskFn fn = kTasks[static_cast<int>(PickLoopIsa(r.max_isa))];
  return std::make_unique<BinaryKernel>(fn, "exec.add_gelu_f32", *plan);
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareGelu(const PrepareRequest& r) {
  return r.node->num_inputs() == 2 ? PrepareAddGelu(r) : PrepareUnary(r);
}

}  // namespace ge::exec
