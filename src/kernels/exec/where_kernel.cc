#include "kernels/exec/where_kernel.h"

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec {
namespace {

constexpr int kMaxOuter = 8;
constexpr int kOperands = 3;  // condition, X, Y

// Output elements are rows of `inner`; row r's operands start at the odometer's offsets over the outer dims.
struct WherePlan {
  int64_t numel = 0;
  int64_t inner = 1;
  int64_t rows = 1;
  std::array<int, kOperands> step{};  // 1: contiguous within a row, 0: fixed
  int outer_rank = 0;
  int64_t outer_dims[kMaxOuter] = {};
  int64_t stride[kOperands][kMaxOuter] = {};  // element stride per outer dim, 0 where the operand broadcasts
};

// false when the operands do not broadcast to out or the merged nest is too deep.
bool PlanWhere(const std::array<Dims, kOperands>& in, const Dims& out, WherePlan* p) {
  const int rank = static_cast<int>(out.size());
  for (int k = 0; k < kOperands; ++k) {
    if (static_cast<int>(in[k].size()) > rank) return false;
  }
  std::vector<int64_t> mdims;
  std::vector<std::array<char, kOperands>> pattern;
  for (int d = 0; d < rank; ++d) {
    std::array<char, kOperands> has{};
    for (int k = 0; k < kOperands; ++k) {
      const int i = d - (rank - static_cast<int>(in[k].size()));
      const int64_t e = i < 0 ? 1 : in[k][i];
      if (e != 1 && e != out[d]) return false;
      has[k] = e != 1;
    }
    if (out[d] == 1) continue;
    if (!has[0] && !has[1] && !has[2]) return false;
    if (!mdims.empty() && pattern.back() == has) {
      mdims.back() *= out[d];
    } else {
      mdims.push_back(out[d]);
      pattern.push_back(has);
    }
  }
  p->numel = NumElements(out);
  const int m = static_cast<int>(mdims.size());
  if (m - 1 > kMaxOuter) return false;
  if (m == 0) return true;  // one element (or none): inner 1, every operand fixed
  p->inner = mdims[m - 1];
  std::array<int64_t, kOperands> running{};
  for (int k = 0; k < kOperands; ++k) {
    p->step[k] = pattern[m - 1][k];
    running[k] = pattern[m - 1][k] ? p->inner : 1;
  }
  p->outer_rank = m - 1;
  for (int d = m - 2; d >= 0; --d) {
    p->outer_dims[d] = mdims[d];
    for (int k = 0; k < kOperands; ++k) {
      p->stride[k][d] = pattern[d][k] ? running[k] : 0;
      if (pattern[d][k]) running[k] *= mdims[d];
    }
    p->rows *= mdims[d];
  }
  return true;
}

template <typename T, int SC, int SX, int SY>
void SelectRow(const uint8_t* c, const T* x, const T* y, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = c[i * SC] ? x[i * SX] : y[i * SY];
}

template <typename T>
using RowFn = void (*)(const uint8_t*, const T*, const T*, T*, int64_t);

template <typename T>
RowFn<T> RowFor(const std::array<int, kOperands>& s) {
  static constexpr RowFn<T> kFns[8] = {SelectRow<T, 0, 0, 0>, SelectRow<T, 0, 0, 1>, SelectRow<T, 0, 1, 0>,
                                       SelectRow<T, 0, 1, 1>, SelectRow<T, 1, 0, 0>, SelectRow<T, 1, 0, 1>,
                                       SelectRow<T, 1, 1, 0>, SelectRow<T, 1, 1, 1>};
  return kFns[s[0] * 4 + s[1] * 2 + s[2]];
}

// Rows [r0, r1): an odometer over the outer dims, one row loop per step.
template <typename T>
void SelectRows(const WherePlan& p, const uint8_t* c, const T* x, const T* y, T* out, int64_t r0, int64_t r1) {
  if (r0 >= r1) return;
  int64_t idx[kMaxOuter];
  int64_t off[kOperands] = {0, 0, 0};
  int64_t rem = r0;
  for (int d = p.outer_rank - 1; d >= 0; --d) {
    idx[d] = rem % p.outer_dims[d];
    rem /= p.outer_dims[d];
    for (int k = 0; k < kOperands; ++k) off[k] += idx[d] * p.stride[k][d];
  }
  const RowFn<T> row = RowFor<T>(p.step);
  for (int64_t r = r0; r < r1; ++r) {
    row(c + off[0], x + off[1], y + off[2], out + r * p.inner, p.inner);
    for (int d = p.outer_rank - 1; d >= 0; --d) {
      for (int k = 0; k < kOperands; ++k) off[k] += p.stride[k][d];
      if (++idx[d] < p.outer_dims[d]) break;
      for (int k = 0; k < kOperands; ++k) off[k] -= p.stride[k][d] * p.outer_dims[d];
      idx[d] = 0;
    }
  }
}

class WhereKernel final : public PreparedKernel {
 public:
  WhereKernel(const WherePlan& plan, rt::TaskFn fn) : plan_(plan) {
    fn_ = fn;
    num_inputs_ = kOperands;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.where"; }
  const WherePlan& plan() const { return plan_; }

 private:
  WherePlan plan_;
};

template <typename T>
Status WhereTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const WherePlan& p = BoundKernel<WhereKernel>(binding).plan();
  if (p.numel == 0) return Status::Ok();
  const auto* c = static_cast<const uint8_t*>(binding.io.inputs[0]);
  const T* x = static_cast<const T*>(binding.io.inputs[1]);
  const T* y = static_cast<const T*>(binding.io.inputs[2]);
  T* out = static_cast<T*>(binding.io.outputs[0]);
  if (p.numel >= kParallelMinElements && ctx.pool != nullptr) {
    const size_t grain = std::max<size_t>(1, kParallelGrain / static_cast<size_t>(p.inner));
    ctx.pool->ParallelFor(
        static_cast<size_t>(p.rows),
        [&](size_t b, size_t e) { SelectRows<T>(p, c, x, y, out, static_cast<int64_t>(b), static_cast<int64_t>(e)); },
        grain);
  } else {
    SelectRows<T>(p, c, x, y, out, 0, p.rows);
  }
  return Status::Ok();
}

rt::TaskFn TaskForSize(size_t elem_size) {
  switch (elem_size) {
    case 1:
      return &WhereTask<uint8_t>;
    case 2:
      return &WhereTask<uint16_t>;
    case 4:
      return &WhereTask<uint32_t>;
    case 8:
      return &WhereTask<uint64_t>;
    default:
      return nullptr;
  }
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareWhere(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() != kOperands || node.num_outputs() != 1 || !OutputPresent(r, 0)) {
    return nullptr;
  }
  std::array<Dims, kOperands> in;
  for (int k = 0; k < kOperands; ++k) {
    if (!InputPresent(r, k)) return nullptr;
    in[k] = r.input_descs[k].shape.dims();
  }
  const DataType dt = r.output_descs[0].dtype;
  if (r.input_descs[0].dtype != DataType::kBool || r.input_descs[1].dtype != dt || r.input_descs[2].dtype != dt) {
    return nullptr;
  }
  const rt::TaskFn fn = TaskForSize(GatherElemSize(dt));
  WherePlan plan;
  if (fn == nullptr || !PlanWhere(in, r.output_descs[0].shape.dims(), &plan)) return nullptr;
  return std::make_unique<WhereKernel>(plan, fn);
}

}  // namespace ge::exec
