#include "kernels/exec/reduce_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "base/format.h"
#include "kernels/exec/kernel_util.h"
#include "ops/reduce/reduce_common.h"

namespace ge::exec {
namespace {

// Each reduction: its accumulator, start value, per-element map, combination and final step, all as the
// reference kernel computes them (kernels/ref/reduce/reduction_kernels.cc). kLanes: accumulators per row.
struct SumOp {
  using Acc = double;
  static constexpr int kLanes = 32;
  static constexpr bool kFastRow = false;
  static Acc Init() { return 0; }
  static Acc Map(float v) { return static_cast<double>(v); }
  static Acc Combine(Acc a, Acc b) { return a + b; }
  static float Finish(Acc a, double /*count*/) { return static_cast<float>(a); }
};
struct MeanOp : SumOp {
  static float Finish(Acc a, double count) { return static_cast<float>(a / count); }
};
struct L1Op : SumOp {
  static Acc Map(float v) { return std::fabs(static_cast<double>(v)); }
};
struct SumSquareOp : SumOp {
  static Acc Map(float v) { return static_cast<double>(v) * static_cast<double>(v); }
};
struct L2Op : SumSquareOp {
  static float Finish(Acc a, double /*count*/) { return static_cast<float>(std::sqrt(a)); }
};
struct LogSumOp : SumOp {
  static float Finish(Acc a, double /*count*/) { return static_cast<float>(std::log(a)); }
};
struct ProdOp : SumOp {
  static Acc Init() { return 1; }
  static Acc Combine(Acc a, Acc b) { return a * b; }
};
// NaN wins and stays (a NaN element replaces the accumulator; nothing compares greater than a NaN accumulator).
// FastCombine (a max instruction) drops a NaN element: ReduceRow uses it on rows without NaN or inf only.
struct MaxOp {
  using Acc = float;
  static constexpr int kLanes = 32;
  static constexpr bool kFastRow = true;
  static Acc Init() { return -std::numeric_limits<float>::infinity(); }
  static Acc Map(float v) { return v; }
  static Acc Combine(Acc a, Acc b) { return (b != b || b > a) ? b : a; }
  static Acc FastCombine(Acc a, Acc b) { return b > a ? b : a; }
  static float Finish(Acc a, double /*count*/) { return a; }
};
struct MinOp : MaxOp {
  static Acc Init() { return std::numeric_limits<float>::infinity(); }
  static Acc Combine(Acc a, Acc b) { return (b != b || b < a) ? b : a; }
  static Acc FastCombine(Acc a, Acc b) { return b < a ? b : a; }
};

// The loops, compiled for AVX-512, AVX2 and the baseline (they auto-vectorize; the file is built with
// -ffp-contract=off, so a square is rounded before it is added, as in the reference).
//   ReduceRow: the accumulator of x[0, n) (Op::kLanes partial accumulators, combined pairwise at the end); for
//   Max / Min first with FastCombine, the row redone with Combine when it holds a NaN or an inf.
//   AccumulateRows: acc[j] = Combine(acc[j], Map(x[k * stride + j])) for k = 0..n-1 in order, j < width.
#define GE_REDUCE_LOOPS(suffix, attr)                                                                                 \
  template <class Op>                                                                                                 \
  attr typename Op::Acc ReduceRow##suffix(const float* x, int64_t n) {                                                \
    if constexpr (Op::kFastRow) {                                                                                     \
      constexpr int L = Op::kLanes;                                                                                   \
      float lanes[L], check[L];                                                                                       \
      for (int l = 0; l < L; ++l) {                                                                                   \
        lanes[l] = Op::Init();                                                                                        \
        check[l] = 0;                                                                                                 \
      }                                                                                                               \
      int64_t j = 0;                                                                                                  \
      for (; j + L <= n; j += L) {                                                                                    \
        for (int l = 0; l < L; ++l) {                                                                                 \
          lanes[l] = Op::FastCombine(lanes[l], x[j + l]);                                                             \
          check[l] += x[j + l] * 0.0f; /* NaN once a NaN or an inf went by */                                         \
        }                                                                                                             \
      }                                                                                                               \
      float c = 0;                                                                                                    \
      for (int l = 0; l < L; ++l) c += check[l];                                                                      \
      if (c == c) {                                                                                                   \
        for (int w = L / 2; w >= 1; w /= 2) {                                                                         \
          for (int l = 0; l < w; ++l) lanes[l] = Op::FastCombine(lanes[l], lanes[l + w]);                             \
        }                                                                                                             \
        float a = lanes[0];                                                                                           \
        for (; j < n; ++j) a = Op::Combine(a, x[j]);                                                                  \
        return a;                                                                                                     \
      }                                                                                                               \
    }                                                                                                                 \
    using Acc = typename Op::Acc;                                                                                     \
    constexpr int L = Op::kLanes;                                                                                     \
    Acc lanes[L];                                                                                                     \
    for (int l = 0; l < L; ++l) lanes[l] = Op::Init();                                                                \
    int64_t j = 0;                                                                                                    \
    for (; j + L <= n; j += L) {                                                                                      \
      for (int l = 0; l < L; ++l) lanes[l] = Op::Combine(lanes[l], Op::Map(x[j + l]));                                \
    }                                                                                                                 \
    for (int w = L / 2; w >= 1; w /= 2) {                                                                             \
      for (int l = 0; l < w; ++l) lanes[l] = Op::Combine(lanes[l], lanes[l + w]);                                     \
    }                                                                                                                 \
    Acc a = lanes[0];                                                                                                 \
    for (; j < n; ++j) a = Op::Combine(a, Op::Map(x[j]));                                                             \
    return a;                                                                                                         \
  }                                                                                                                   \
  template <class Op>                                                                                                 \
  attr void AccumulateRows##suffix(const float* x, int64_t n, int64_t stride, int64_t width, typename Op::Acc* acc) { \
    for (int64_t k = 0; k < n; ++k) {                                                                                 \
      const float* row = x + k * stride;                                                                              \
      for (int64_t j = 0; j < width; ++j) acc[j] = Op::Combine(acc[j], Op::Map(row[j]));                              \
    }                                                                                                                 \
  }
GE_REDUCE_LOOPS(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_REDUCE_LOOPS(Avx2, __attribute__((target("avx2,fma"))))
GE_REDUCE_LOOPS(Baseline, )
#undef GE_REDUCE_LOOPS

template <class Op>
struct ReduceLoops {
  typename Op::Acc (*reduce_row)(const float*, int64_t);
  void (*accumulate_rows)(const float*, int64_t, int64_t, int64_t, typename Op::Acc*);
};

template <class Op>
ReduceLoops<Op> PickLoops(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {ReduceRowAvx512<Op>, AccumulateRowsAvx512<Op>};
    case LoopIsa::kAvx2:
      return {ReduceRowAvx2<Op>, AccumulateRowsAvx2<Op>};
    case LoopIsa::kBaseline:
      break;
  }
  return {ReduceRowBaseline<Op>, AccumulateRowsBaseline<Op>};
}

// Inner elements per accumulator tile of the inner > 1 path (the accumulators live on the stack).
constexpr int64_t kInnerTile = 512;
// Tiles the inner > 1 path wants at least, so that a single outer row of few columns still spreads over the pool;
// never narrower than kMinInnerTile.
constexpr int64_t kMinUnits = 8;
constexpr int64_t kMinInnerTile = 64;
// Most chunks one long row (outer 1, inner 1) is split into over the pool.
constexpr int64_t kMaxRowChunks = 64;

// y[o * inner + j] = reduction of x[(o * n + k) * inner + j] over k. copy: y = x (noop_with_empty_axes).
struct ReducePlan {
  int64_t outer = 1, n = 1, inner = 1;
  double count = 1;                 // input elements per output element, for the mean
  int64_t inner_tile = kInnerTile;  // inner elements per accumulator tile

  bool copy = false;
};

class ReduceKernelBase : public PreparedKernel {
 public:
  ReduceKernelBase(const ReducePlan& plan, rt::TaskFn fn, int num_inputs) : plan_(plan) {
    fn_ = fn;
    num_inputs_ = num_inputs;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.reduce"; }
  const ReducePlan& plan() const { return plan_; }

 private:
  ReducePlan plan_;
};

template <class Op>
class ReduceKernel final : public ReduceKernelBase {
 public:
  ReduceKernel(const ReducePlan& plan, ReduceLoops<Op> loops, rt::TaskFn fn, int num_inputs)
      : ReduceKernelBase(plan, fn, num_inputs), loops_(loops) {}
  const ReduceLoops<Op>& loops() const { return loops_; }

 private:
  ReduceLoops<Op> loops_;
};

// One row of n elements (outer 1, inner 1) in chunks over the pool, the chunks' accumulators combined in order.
template <class Op>
typename Op::Acc ReduceLongRow(rt::TaskContext& ctx, const ReduceLoops<Op>& l, const float* x, int64_t n) {
  using Acc = typename Op::Acc;
  const int64_t chunks = std::clamp<int64_t>(n / static_cast<int64_t>(kParallelGrain * 4), 1, kMaxRowChunks);
  if (chunks == 1 || ctx.pool == nullptr) return l.reduce_row(x, n);
  Acc partial[kMaxRowChunks];
  const int64_t step = (n + chunks - 1) / chunks;
  ctx.pool->ParallelFor(static_cast<size_t>(chunks), [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) {
      const int64_t j0 = static_cast<int64_t>(c) * step, j1 = std::min(n, j0 + step);
      partial[c] = j0 < j1 ? l.reduce_row(x + j0, j1 - j0) : Op::Init();
    }
  });
  Acc a = Op::Init();
  for (int64_t c = 0; c < chunks; ++c) a = Op::Combine(a, partial[c]);
  return a;
}

template <class Op>
Status ReduceTask(void* args, rt::TaskContext& ctx) {
  using Acc = typename Op::Acc;
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const auto& kernel = BoundKernel<ReduceKernel<Op>>(binding);
  const ReducePlan& p = kernel.plan();
  const ReduceLoops<Op>& l = kernel.loops();
  const auto* x = static_cast<const float*>(binding.io.inputs[0]);
  auto* y = static_cast<float*>(binding.io.outputs[0]);
  const int64_t outputs = p.outer * p.inner;
  if (outputs == 0) return Status::Ok();
  if (p.inner == 1) {
    if (p.outer == 1) {
      y[0] = Op::Finish(ReduceLongRow<Op>(ctx, l, x, p.n), p.count);
      return Status::Ok();
    }
    ParallelUnits(ctx, p.outer, std::max<int64_t>(1, p.n), [&](size_t b, size_t e) {
      for (size_t o = b; o < e; ++o) y[o] = Op::Finish(l.reduce_row(x + o * p.n, p.n), p.count);
    });
    return Status::Ok();
  }
  const int64_t tile = p.inner_tile;
  const int64_t tiles = (p.inner + tile - 1) / tile;
  ParallelUnits(ctx, p.outer * tiles, std::max<int64_t>(1, p.n) * std::min(tile, p.inner), [&](size_t b, size_t e) {
    alignas(64) Acc acc[kInnerTile];
    for (size_t u = b; u < e; ++u) {
      const int64_t o = static_cast<int64_t>(u) / tiles, j0 = static_cast<int64_t>(u) % tiles * tile;
      const int64_t width = std::min(tile, p.inner - j0);
      std::fill(acc, acc + width, Op::Init());
      l.accumulate_rows(x + o * p.n * p.inner + j0, p.n, p.inner, width, acc);
      float* out = y + o * p.inner + j0;
      for (int64_t j = 0; j < width; ++j) out[j] = Op::Finish(acc[j], p.count);
    }
  });
  return Status::Ok();
}

Status CopyTask(void* args, rt::TaskContext& /*ctx*/) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const ReducePlan& p = BoundKernel<ReduceKernelBase>(binding).plan();
  const void* x = binding.io.inputs[0];
  void* y = binding.io.outputs[0];
  const size_t bytes = static_cast<size_t>(p.outer * p.n * p.inner) * sizeof(float);
  if (x != y && bytes > 0) std::memmove(y, x, bytes);
  return Status::Ok();
}

template <class Op>
std::unique_ptr<PreparedKernel> MakeKernel(const ReducePlan& plan, const PrepareRequest& r) {
  const rt::TaskFn fn = plan.copy ? &CopyTask : &ReduceTask<Op>;
  return std::make_unique<ReduceKernel<Op>>(plan, PickLoops<Op>(r.max_isa), fn, r.node->num_inputs());
}

// The (outer, reduce, inner) view of dims under mask, dims merged as the reference merges them; false when the
// reduced dims are not one run (after dropping unit dims).
bool PlanReduce(const Dims& dims, const std::vector<bool>& mask, ReducePlan* p) {
  Dims merged;
  std::vector<bool> reduced;
  int64_t group = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (mask[i]) group *= dims[i];
    if (dims[i] == 1) continue;
    if (!merged.empty() && reduced.back() == mask[i]) {
      merged.back() *= dims[i];
    } else {
      merged.push_back(dims[i]);
      reduced.push_back(mask[i]);
    }
  }
  p->count = static_cast<double>(group);
  size_t i = 0;
  if (i < merged.size() && !reduced[i]) p->outer = merged[i++];
  if (i < merged.size() && reduced[i]) p->n = merged[i++];
  if (i < merged.size() && !reduced[i]) p->inner = merged[i++];
  if (i != merged.size()) return false;
  if (p->n == 1 && p->inner == 1) std::swap(p->outer, p->inner);  // nothing reduced: one vector pass
  if (p->outer > 0 && p->outer * ((p->inner + kInnerTile - 1) / kInnerTile) < kMinUnits) {
    const int64_t per_outer = (kMinUnits + p->outer - 1) / p->outer;
    const int64_t tile = ((p->inner + per_outer - 1) / per_outer + 15) / 16 * 16;
    p->inner_tile = std::clamp(tile, kMinInnerTile, kInnerTile);
  }
  return true;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareReduce(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_outputs() != 1 || !OutputPresent(r, 0) || !InputPresent(r, 0)) return nullptr;
  const TensorDesc& xd = r.input_descs[0];
  const TensorDesc& yd = r.output_descs[0];
  if (xd.dtype != DataType::kFloat || yd.dtype != DataType::kFloat || IsNonPlainLayout(xd.format) ||
      IsNonPlainLayout(yd.format)) {
    return nullptr;
  }
  const Dims& dims = xd.shape.dims();
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> axes;
  ReducePlan plan;
  if (ops::reduce::ReduceAxesFromInput(node.op_type(), r.opset)) {
    if (node.num_inputs() > 1 && InputPresent(r, 1)) {
      const Tensor* a = ConstInput(r, 1);
      if (a == nullptr) return nullptr;
      axes = a->ToInt64Vector();
    }
    plan.copy = axes.empty() && node.attrs().GetInt("noop_with_empty_axes", 0) != 0;
  } else {
    axes = node.attrs().GetInts("axes");
  }
  std::vector<bool> mask(rank, !plan.copy);
  if (!axes.empty() && !ops::reduce::ReduceMask(axes, rank, &mask).ok()) return nullptr;
  const bool keepdims = node.attrs().GetInt("keepdims", 1) != 0;
  const Dims out = plan.copy ? dims : ops::reduce::ReducedDims(dims, mask, keepdims);
  if (out != yd.shape.dims() || !PlanReduce(dims, mask, &plan)) return nullptr;

  const std::string& op = node.op_type();
  if (op == "ReduceSum") return MakeKernel<SumOp>(plan, r);
  if (op == "ReduceMean") return MakeKernel<MeanOp>(plan, r);
  if (op == "ReduceMax") return MakeKernel<MaxOp>(plan, r);
  if (op == "ReduceMin") return MakeKernel<MinOp>(plan, r);
  if (op == "ReduceL1") return MakeKernel<L1Op>(plan, r);
  if (op == "ReduceL2") return MakeKernel<L2Op>(plan, r);
  if (op == "ReduceSumSquare") return MakeKernel<SumSquareOp>(plan, r);
  if (op == "ReduceLogSum") return MakeKernel<LogSumOp>(plan, r);
  if (op == "ReduceProd") return MakeKernel<ProdOp>(plan, r);
  return nullptr;
}

}  // namespace ge::exec
