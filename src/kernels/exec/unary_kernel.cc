#include "kernels/exec/unary_kernel.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/exec/broadcast_plan.h"
#include "kernels/exec/kernel_util.h"

// Vectors of lanes never cross a call (the loops over them are flattened); GCC reports the ABI note where templates
// are instantiated, at the end of the file.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace ge::exec {

UnaryKernel::UnaryKernel(rt::TaskFn fn, const char* impl, int64_t numel, const UnaryParams& params, int num_inputs)
    : impl_(impl), numel_(numel), params_(params) {
  fn_ = fn;
  num_inputs_ = num_inputs;
  num_outputs_ = 1;
}

namespace {

// Functors with a lanes form (Tanh, Erf, Gelu on float32: fast_math.h) run on blocks of W floats, the vector width
// of the loop's ISA; a short tail is padded to a block (lanes are independent, so padding changes no result).
template <typename Op, typename = void>
struct HasLanes : std::false_type {};
template <typename Op>
struct HasLanes<Op, std::void_t<decltype(std::declval<const Op&>().Lanes(FloatLanes<4>{}))>> : std::true_type {};

template <int W, typename Op>
inline void LanesLoop(const float* x, float* y, size_t begin, size_t end, Op op) {
  using V = FloatLanes<W>;
  size_t i = begin;
  for (; i + W <= end; i += W) {
    V v;
    std::memcpy(&v, x + i, sizeof(v));
    const V r = op.Lanes(v);
    std::memcpy(y + i, &r, sizeof(r));
  }
  if (i < end) {
    V v{};
    std::memcpy(&v, x + i, (end - i) * sizeof(float));
    const V r = op.Lanes(v);
    std::memcpy(y + i, &r, (end - i) * sizeof(float));
  }
}

// op is taken by value so its parameters live in registers (a store to y cannot alias them) and the loop
// vectorizes. x and y may be the same address (in-place plans). One build per LoopIsa: the functors are inline, so
// each build vectorizes them at its width (FastExp: 16 floats a step on AVX-512 against 4 on the SSE2 baseline);
// `flatten` inlines the lanes forms' ISA-specific Fma (fast_math.h). The file compiles with -ffp-contract=off, so
// every build rounds alike except where fast_math.h fuses on purpose.
#define GE_UNARY_LOOP(Name, attr, kLanes)                             \
  template <typename T, typename Op>                                  \
  attr void Name(const T* x, T* y, size_t begin, size_t end, Op op) { \
    if constexpr (std::is_same_v<T, float> && HasLanes<Op>::value) {  \
      LanesLoop<kLanes>(x, y, begin, end, op);                        \
    } else {                                                          \
      for (size_t i = begin; i < end; ++i) y[i] = op(x[i]);           \
    }                                                                 \
  }
GE_UNARY_LOOP(UnaryLoopAvx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), flatten)), 16)
GE_UNARY_LOOP(UnaryLoopAvx2, __attribute__((target("avx2,fma"), flatten)), 8)
GE_UNARY_LOOP(UnaryLoopBaseline, __attribute__((flatten)), 4)
#undef GE_UNARY_LOOP

// The whole hot path: read the slots, loop, return.
template <typename T, typename Op, LoopIsa kIsa>
Status UnaryTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const UnaryKernel* k = &BoundKernel<UnaryKernel>(binding);
  const T* x = static_cast<const T*>(binding.io.inputs[0]);
  T* y = static_cast<T*>(binding.io.outputs[0]);
  const Op op(k->params());
  ParallelRange(ctx, k->numel(), [x, y, op](size_t b, size_t e) {
    if constexpr (kIsa == LoopIsa::kAvx512) {
      UnaryLoopAvx512<T, Op>(x, y, b, e, op);
    } else if constexpr (kIsa == LoopIsa::kAvx2) {
      UnaryLoopAvx2<T, Op>(x, y, b, e, op);
    } else {
      UnaryLoopBaseline<T, Op>(x, y, b, e, op);
    }
  });
  return Status::Ok();
}

// One storage type's tasks, indexed by LoopIsa (all null: that dtype stays on ref).
struct TaskSet {
  rt::TaskFn by_isa[3] = {nullptr, nullptr, nullptr};
};

template <typename T, typename Op>
constexpr TaskSet Tasks() {
  return TaskSet{{&UnaryTask<T, Op, LoopIsa::kBaseline>, &UnaryTask<T, Op, LoopIsa::kAvx2>,
                  &UnaryTask<T, Op, LoopIsa::kAvx512>}};
}

// Per op: the tasks for each supported storage type.
struct UnaryEntry {
  const char* op;
  TaskSet f32, f64, i32, i64;
};

// clang-format off
#define GE_FLOAT_ONLY(Op) {#Op, Tasks<float, unary::Op>(), Tasks<double, unary::Op>(), TaskSet{}, TaskSet{}}
#define GE_NUMERIC(Op)                                                                                  \
  {#Op, Tasks<float, unary::Op>(), Tasks<double, unary::Op>(), Tasks<int32_t, unary::Op>(),          \
   Tasks<int64_t, unary::Op>()}

constexpr UnaryEntry kUnaryOps[] = {
    GE_NUMERIC(Relu),         GE_NUMERIC(Neg),            GE_NUMERIC(Abs),            GE_NUMERIC(Sign),
    GE_FLOAT_ONLY(Sigmoid),   GE_FLOAT_ONLY(Tanh),        GE_FLOAT_ONLY(Exp),         GE_FLOAT_ONLY(Log),
    GE_FLOAT_ONLY(Sqrt),      GE_FLOAT_ONLY(Reciprocal),  GE_FLOAT_ONLY(Floor),       GE_FLOAT_ONLY(Ceil),
    GE_FLOAT_ONLY(Round),     GE_FLOAT_ONLY(Erf),         GE_FLOAT_ONLY(Softplus),    GE_FLOAT_ONLY(LeakyRelu),
    GE_FLOAT_ONLY(Elu),       GE_FLOAT_ONLY(Selu),        GE_FLOAT_ONLY(HardSigmoid), GE_FLOAT_ONLY(HardSwish),
    GE_FLOAT_ONLY(Clip),      GE_FLOAT_ONLY(Gelu),
};
#undef GE_FLOAT_ONLY
#undef GE_NUMERIC

constexpr UnaryEntry kPowOps[] = {
    {"square", Tasks<float, unary::Square>(), Tasks<double, unary::Square>(), TaskSet{}, TaskSet{}},
    {"copy", Tasks<float, unary::Copy>(), Tasks<double, unary::Copy>(), TaskSet{}, TaskSet{}},
    {"half", Tasks<float, unary::PowHalf>(), Tasks<double, unary::PowGeneric>(), TaskSet{}, TaskSet{}},
    {"generic", Tasks<float, unary::PowGeneric>(), Tasks<double, unary::PowGeneric>(), TaskSet{}, TaskSet{}},
};
// clang-format on

rt::TaskFn PickTask(const UnaryEntry& e, DataType dt, IsaLevel max_isa, const char** impl) {
  const int isa = static_cast<int>(PickLoopIsa(max_isa));
  switch (dt) {
    case DataType::kFloat:
      *impl = "exec.unary_f32";
      return e.f32.by_isa[isa];
    case DataType::kDouble:
      *impl = "exec.unary_f64";
      return e.f64.by_isa[isa];
    case DataType::kInt32:
      *impl = "exec.unary_i32";
      return e.i32.by_isa[isa];
    case DataType::kInt64:
      *impl = "exec.unary_i64";
      return e.i64.by_isa[isa];
    default:
      return nullptr;
  }
}

// Input 0 and output 0 present, same dtype and dims; the node has exactly one output.
bool SameShapeIo(const PrepareRequest& r) {
  if (r.node->num_inputs() < 1 || r.node->num_outputs() != 1) return false;
  if (!InputPresent(r, 0) || !OutputPresent(r, 0)) return false;
  const TensorDesc& in = r.input_descs[0];
  const TensorDesc& out = r.output_descs[0];
  return in.dtype == out.dtype && in.shape.dims() == out.shape.dims();
}

// A constant one-element bound of input i (absent: keep *v); false when the bound is not usable here.
bool ClipBound(const PrepareRequest& r, int i, DataType dt, double* v) {
  if (i >= r.node->num_inputs() || !InputPresent(r, i)) return true;
  const Tensor* c = ConstInput(r, i);
  if (c == nullptr || c->dtype() != dt || c->numel() != 1) return false;  // ref decides (or reports the error)
  *v = c->GetAsDouble(0);
  return true;
}

// Fills the op's parameters; false when the node needs something the fast kernel does not do.
bool FillParams(const PrepareRequest& r, const std::string& op, DataType dt, UnaryParams* p) {
  const ir::AttrMap& a = r.node->attrs();
  const int inputs = r.node->num_inputs();
  if (op == "Clip") {
    const bool is_f32 = dt == DataType::kFloat;
    p->lo = is_f32 ? std::numeric_limits<float>::lowest() : std::numeric_limits<double>::lowest();
    p->hi = is_f32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    if (r.opset < 11) {
      if (inputs != 1) return false;
      p->lo = a.GetFloat("min", std::numeric_limits<float>::lowest());
      p->hi = a.GetFloat("max", std::numeric_limits<float>::max());
      return true;
    }
    return inputs <= 3 && ClipBound(r, 1, dt, &p->lo) && ClipBound(r, 2, dt, &p->hi);
  }
  if (inputs != 1) return false;
  if (op == "LeakyRelu") p->alpha = a.GetFloat("alpha", 0.01f);
  if (op == "Elu") p->alpha = a.GetFloat("alpha", 1.0f);
  if (op == "Selu") {
    p->alpha = a.GetFloat("alpha", 1.67326319217681884765625f);
    p->gamma = a.GetFloat("gamma", 1.05070102214813232421875f);
  }
  if (op == "HardSigmoid") {
    p->alpha = a.GetFloat("alpha", 0.2f);
    p->beta = a.GetFloat("beta", 0.5f);
  }
  return true;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareUnary(const PrepareRequest& r) {
  if (!SameShapeIo(r)) return nullptr;
  const std::string& op = r.node->op_type();
  const DataType dt = r.input_descs[0].dtype;
  for (const UnaryEntry& e : kUnaryOps) {
    if (op != e.op) continue;
    const char* impl = nullptr;
    rt::TaskFn fn = PickTask(e, dt, r.max_isa, &impl);
    UnaryParams params;
    if (fn == nullptr || !FillParams(r, op, dt, &params)) return nullptr;
    return std::make_unique<UnaryKernel>(fn, impl, NumElements(r.input_descs[0].shape.dims()), params,
                                         r.node->num_inputs());
  }
  return nullptr;
}

std::unique_ptr<PreparedKernel> PreparePowScalar(const PrepareRequest& r) {
  if (r.node->num_inputs() != 2 || r.node->num_outputs() != 1) return nullptr;
  if (!InputPresent(r, 0) || !InputPresent(r, 1) || !OutputPresent(r, 0)) return nullptr;
  const Tensor* e = ConstInput(r, 1);
  const TensorDesc& base = r.input_descs[0];
  const TensorDesc& out = r.output_descs[0];
  if (e == nullptr || e->numel() != 1 || e->dtype() == DataType::kBool || !IsFloatingPoint(base.dtype)) return nullptr;
  // The exponent may have a higher rank than the base ([] ** [1,1]); the element count is the base's either way.
  if (out.dtype != base.dtype || NumElements(out.shape.dims()) != NumElements(base.shape.dims())) return nullptr;
  if (out.shape.rank() != std::max(base.shape.rank(), static_cast<int>(e->dims().size())) ||
      !PlanBroadcast(base.shape.dims(), e->dims(), out.shape.dims()).ok()) {
    return nullptr;  // not the planned broadcast: ref reports it
  }
  UnaryParams params;
  params.exponent = e->GetAsDouble(0);
  const char* mode = params.exponent == 2.0   ? "square"
                     : params.exponent == 1.0 ? "copy"
                     : params.exponent == 0.5 ? "half"
                                              : "generic";
  for (const UnaryEntry& entry : kPowOps) {
    if (std::strcmp(entry.op, mode) != 0) continue;
    const char* impl = nullptr;
    rt::TaskFn fn = PickTask(entry, base.dtype, r.max_isa, &impl);
    if (fn == nullptr) return nullptr;
    return std::make_unique<UnaryKernel>(fn, impl, NumElements(base.shape.dims()), params, 2);
  }
  return nullptr;
}

}  // namespace ge::exec
