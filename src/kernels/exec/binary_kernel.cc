#include "kernels/exec/binary_kernel.h"

#include <algorithm>
#include <string>

#include "kernels/exec/kernel_util.h"

namespace ge::exec {

BinaryKernel::BinaryKernel(rt::TaskFn fn, const char* impl, const BroadcastPlan& plan) : impl_(impl), plan_(plan) {
  fn_ = fn;
  num_inputs_ = 2;
  num_outputs_ = 1;
}

void BinaryKernel::MakeShapeAgnostic(rt::TaskFn fn, std::vector<std::vector<bool>> runtime_input_dims,
                                     std::array<size_t, 3> ranks) {
  fn_ = fn;
  runtime_input_dims_ = std::move(runtime_input_dims);
  ranks_ = ranks;
}

namespace {

// The same arithmetic as ref for floating-point storage types. Max/Min: a NaN in b wins, else the comparison
// keeps a (so a NaN in a wins too), as ref's left fold.
#define GE_EXEC_BINARY(Name, expr) \
  struct Name {                    \
    template <typename T>          \
    T operator()(T a, T b) const { \
      return (expr);               \
    }                              \
  };
// clang-format off
GE_EXEC_BINARY(Add, a + b)
GE_EXEC_BINARY(Sub, a - b)
GE_EXEC_BINARY(Mul, a * b)
GE_EXEC_BINARY(Div, a / b)
GE_EXEC_BINARY(Max, b != b ? b : (a < b ? b : a))
GE_EXEC_BINARY(Min, b != b ? b : (b < a ? b : a))
// clang-format on
#undef GE_EXEC_BINARY

struct Slots {
  const void* a;
  const void* b;
  void* y;
};

inline Slots Read(const KernelBinding& b) { return {b.io.inputs[0], b.io.inputs[1], b.io.outputs[0]}; }

// Rows [r0, r1) of a kGeneral plan: one odometer step per row, one contiguous inner loop per row.
template <typename T, typename Op>
void GeneralRows(const BroadcastPlan& p, const T* a, const T* b, T* y, int64_t r0, int64_t r1) {
  if (r0 >= r1) return;  // also the empty output, whose outer dims may be 0
  int64_t idx[BroadcastPlan::kMaxOuterRank];
  int64_t oa = 0, ob = 0;
  int64_t rem = r0;
  for (int d = p.outer_rank - 1; d >= 0; --d) {
    idx[d] = rem % p.outer_dims[d];
    rem /= p.outer_dims[d];
    oa += idx[d] * p.stride_a[d];
    ob += idx[d] * p.stride_b[d];
  }
  const int64_t n = p.inner;
  for (int64_t r = r0; r < r1; ++r) {
    const T* pa = a + oa;
    const T* pb = b + ob;
    T* py = y + r * n;
    if (p.step_a && p.step_b) {
      for (int64_t i = 0; i < n; ++i) py[i] = Op()(pa[i], pb[i]);
    } else if (p.step_a) {
      const T vb = *pb;
      for (int64_t i = 0; i < n; ++i) py[i] = Op()(pa[i], vb);
    } else {
      const T va = *pa;
      for (int64_t i = 0; i < n; ++i) py[i] = Op()(va, pb[i]);
    }
    for (int d = p.outer_rank - 1; d >= 0; --d) {  // advance the odometer
      oa += p.stride_a[d];
      ob += p.stride_b[d];
      if (++idx[d] < p.outer_dims[d]) break;
      oa -= p.stride_a[d] * p.outer_dims[d];
      ob -= p.stride_b[d] * p.outer_dims[d];
      idx[d] = 0;
    }
  }
}

// The loop nest of plan p over slots s, for one plan kind.
template <typename T, typename Op, BroadcastPlan::Kind kKind>
void RunPlan(const BroadcastPlan& p, const Slots& s, rt::TaskContext& ctx) {
  const T* a = static_cast<const T*>(s.a);
  const T* b = static_cast<const T*>(s.b);
  T* y = static_cast<T*>(s.y);
  if constexpr (kKind == BroadcastPlan::Kind::kSame) {
    ParallelRange(ctx, p.numel, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) y[i] = Op()(a[i], b[i]);
    });
  } else if constexpr (kKind == BroadcastPlan::Kind::kScalarA) {
    ParallelRange(ctx, p.numel, [=, va = *a](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) y[i] = Op()(va, b[i]);
    });
  } else if constexpr (kKind == BroadcastPlan::Kind::kScalarB) {
    ParallelRange(ctx, p.numel, [=, vb = *b](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) y[i] = Op()(a[i], vb);
    });
  } else if (p.numel >= kParallelMinElements && ctx.pool != nullptr) {
    const size_t grain = std::max<size_t>(1, kParallelGrain / static_cast<size_t>(p.inner));
    ctx.pool->ParallelFor(
        static_cast<size_t>(p.rows),
        [&](size_t r0, size_t r1) { GeneralRows<T, Op>(p, a, b, y, static_cast<int64_t>(r0), static_cast<int64_t>(r1)); },
        grain);
  } else {
    GeneralRows<T, Op>(p, a, b, y, 0, p.rows);
  }
}

// A kernel prepared for fixed dims: the plan of prepare, its kind chosen then.
template <typename T, typename Op, BroadcastPlan::Kind kKind>
Status PlannedTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  RunPlan<T, Op, kKind>(BoundKernel<BinaryKernel>(binding).plan(), Read(binding), ctx);
  return Status::Ok();
}


// Shape-agnostic kernels: the binding's plan, re-planned when the dims of a run differ from the last run's.
struct AgnosticState final : KernelState {
  BroadcastPlan plan;
  Dims a, b, y;  // the dims `plan` is for (empty before the first run)
};

Status Replan(const BinaryKernel& k, const KernelIo& io, AgnosticState* st) {
  const int64_t* da = io.input_dims[0];
  const int64_t* db = io.input_dims[1];
  const int64_t* dy = io.output_dims[0];
  if (da == nullptr || db == nullptr || dy == nullptr) {
    return Internal(std::string(k.impl_name()) + ": shape-agnostic kernel run without its slots' dims");
  }
  const size_t ra = k.plan_ranks()[0], rb = k.plan_ranks()[1], ry = k.plan_ranks()[2];
  if (!st->y.empty() && std::equal(st->a.begin(), st->a.end(), da) && std::equal(st->b.begin(), st->b.end(), db)) {
    return Status::Ok();
  }
  st->a.assign(da, da + ra);
  st->b.assign(db, db + rb);
  st->y.assign(dy, dy + ry);
  StatusOr<BroadcastPlan> plan = PlanBroadcast(st->a, st->b, st->y);
  if (!plan.ok()) {
    st->y.clear();
    return plan.status();
  }
  st->plan = *plan;
  return Status::Ok();
}

template <typename T, typename Op>
Status AgnosticTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  auto* st = static_cast<AgnosticState*>(binding.state.get());
  GE_RETURN_IF_ERROR(Replan(BoundKernel<BinaryKernel>(binding), binding.io, st));
  const Slots s = Read(binding);
  switch (st->plan.kind) {
    case BroadcastPlan::Kind::kSame:
      RunPlan<T, Op, BroadcastPlan::Kind::kSame>(st->plan, s, ctx);
      break;
    case BroadcastPlan::Kind::kScalarA:
      RunPlan<T, Op, BroadcastPlan::Kind::kScalarA>(st->plan, s, ctx);
      break;
    case BroadcastPlan::Kind::kScalarB:
      RunPlan<T, Op, BroadcastPlan::Kind::kScalarB>(st->plan, s, ctx);
      break;
    case BroadcastPlan::Kind::kGeneral:
      RunPlan<T, Op, BroadcastPlan::Kind::kGeneral>(st->plan, s, ctx);
      break;
  }
  return Status::Ok();
}

template <typename T, typename Op>
rt::TaskFn TaskFor(BroadcastPlan::Kind kind) {
  switch (kind) {
    case BroadcastPlan::Kind::kSame:
      return &PlannedTask<T, Op, BroadcastPlan::Kind::kSame>;
    case BroadcastPlan::Kind::kScalarA:
      return &PlannedTask<T, Op, BroadcastPlan::Kind::kScalarA>;
    case BroadcastPlan::Kind::kScalarB:
      return &PlannedTask<T, Op, BroadcastPlan::Kind::kScalarB>;
    case BroadcastPlan::Kind::kGeneral:
      return &PlannedTask<T, Op, BroadcastPlan::Kind::kGeneral>;
  }
  return nullptr;
}

template <typename Op>
rt::TaskFn TaskFor(DataType dt, BroadcastPlan::Kind kind, const char** impl) {
  if (dt == DataType::kFloat) {
    *impl = "exec.binary_f32";
    return TaskFor<float, Op>(kind);
  }
  if (dt == DataType::kDouble) {
    *impl = "exec.binary_f64";
    return TaskFor<double, Op>(kind);
  }
  return nullptr;
}

template <typename Op>
rt::TaskFn AgnosticTaskFor(DataType dt) {
  if (dt == DataType::kFloat) return &AgnosticTask<float, Op>;
  if (dt == DataType::kDouble) return &AgnosticTask<double, Op>;
  return nullptr;
}

struct BinaryEntry {
  const char* op;
  rt::TaskFn (*pick)(DataType, BroadcastPlan::Kind, const char**);
  rt::TaskFn (*agnostic)(DataType);
};

// clang-format off
constexpr BinaryEntry kBinaryOps[] = {
    {"Add", &TaskFor<Add>, &AgnosticTaskFor<Add>}, {"Sub", &TaskFor<Sub>, &AgnosticTaskFor<Sub>},
    {"Mul", &TaskFor<Mul>, &AgnosticTaskFor<Mul>}, {"Div", &TaskFor<Div>, &AgnosticTaskFor<Div>},
    {"Max", &TaskFor<Max>, &AgnosticTaskFor<Max>}, {"Min", &TaskFor<Min>, &AgnosticTaskFor<Min>},
};
// clang-format on

}  // namespace

StatusOr<std::unique_ptr<KernelState>> BinaryKernel::CreateState() const {
  if (!shape_agnostic()) return std::unique_ptr<KernelState>();
  return std::unique_ptr<KernelState>(std::make_unique<AgnosticState>());
}

std::unique_ptr<PreparedKernel> PrepareBinary(const PrepareRequest& r) {
  const ir::Node& n = *r.node;
  if (n.num_inputs() != 2 || n.num_outputs() != 1) return nullptr;
  if (!InputPresent(r, 0) || !InputPresent(r, 1) || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& a = r.input_descs[0];
  const TensorDesc& b = r.input_descs[1];
  const TensorDesc& y = r.output_descs[0];
  if (a.dtype != b.dtype || a.dtype != y.dtype) return nullptr;
  if (y.shape.rank() != std::max(a.shape.rank(), b.shape.rank())) return nullptr;
  auto plan = PlanBroadcast(a.shape.dims(), b.shape.dims(), y.shape.dims());
  if (!plan.ok()) return nullptr;  // ref reports the mismatch
  for (const BinaryEntry& e : kBinaryOps) {
    if (n.op_type() != e.op) continue;
    const char* impl = nullptr;
    rt::TaskFn fn = e.pick(a.dtype, plan->kind, &impl);
    if (fn == nullptr) return nullptr;
    auto k = std::make_unique<BinaryKernel>(fn, impl, *plan);
    if (HasVaryingDims(r)) {
      std::vector<std::vector<bool>> runtime = r.varying_input_dims;
      runtime.resize(2);
      k->MakeShapeAgnostic(e.agnostic(a.dtype), std::move(runtime),
                           {static_cast<size_t>(a.shape.rank()), static_cast<size_t>(b.shape.rank()),
                            static_cast<size_t>(y.shape.rank())});
    }
    return k;
  }
  return nullptr;
}

}  // namespace ge::exec
