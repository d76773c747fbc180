// Strided gathers: Transpose (any perm, rank <= 8) and, through the same plan, Slice (slice_kernel.h). The output
// is walked in row-major order as outer loops over merged, unit-free axes with precomputed input and output strides
// around one inner shape: a contiguous run (memcpy), a strided run, or a blocked 2-D tile transpose when the
// input's contiguous axis is not the output's last. Elements move as 1, 2, 4 or 8-byte words, whatever the dtype.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

constexpr int kMaxGatherRank = 8;

// One output axis, in output order: its size and the input stride (elements, negative for reversed slices) of one
// step along it.
struct GatherAxis {
  int64_t dim;
  int64_t in_stride;
};

// Strides and offsets are in elements. Output element (i_0 .. i_k, inner) is at sum(i * outer_out) + inner
// position; its input at in_offset + sum(i * outer_in) + inner position.
struct GatherPlan {
  enum class Inner { kEmpty, kRun, kTile };
  Inner inner = Inner::kEmpty;
  int outer_rank = 0;
  int64_t outer_dims[kMaxGatherRank] = {};
  int64_t outer_in[kMaxGatherRank] = {};
  int64_t outer_out[kMaxGatherRank] = {};
  int64_t in_offset = 0;
  // kRun:  out[k] = in[k * in_stride], k < n.
  // kTile: out[a * out_ld + b] = in[a + b * in_stride], a < m, b < n (a is the input's contiguous axis).
  int64_t m = 1, n = 0, in_stride = 1, out_ld = 0;
  int64_t numel = 0;
  size_t elem_size = 0;
  // Work units: each outer position times `splits` chunks of `chunk` along the inner's first extent (kRun: n,
  // kTile: m), so that a large run or tile can still be shared by the pool.
  int64_t outer_count = 1, chunk = 1, splits = 1;
  // True when the whole output is input[in_offset .. in_offset + numel) in order.
  bool contiguous() const { return inner == Inner::kRun && outer_rank == 0 && in_stride == 1; }
};

// The word size a dtype moves as (1, 2, 4 or 8), or 0 when it cannot (strings, complex128, undefined).
size_t GatherElemSize(DataType dt);
// What Transpose and Slice both require of a request: input 0 and output 0 present, of one dtype the gather loops
// move, rank <= kMaxGatherRank. Returns the element size, or 0 when the request does not qualify.
size_t GatherableElemSize(const PrepareRequest& r);

// Row-major strides (elements) of dims.
std::vector<int64_t> ContiguousStrides(const Dims& dims);

// Drops unit axes, merges adjacent axes whose input strides chain, and picks the inner loop. axes.size() <= 8.
GatherPlan BuildGatherPlan(const std::vector<GatherAxis>& axes, int64_t in_offset, size_t elem_size);

// Runs plan p from `in` (its in_offset applied here) to `out`, which must not overlap; large plans split over
// ctx.pool. Other kernels (Split) run several plans from one input.
void RunGather(const GatherPlan& p, const void* in, void* out, rt::TaskContext& ctx);

// Runs a GatherPlan from input slot 0 to output slot 0. Const at run; the task is picked by element size.
class GatherKernel final : public PreparedKernel {
 public:
  GatherKernel(const char* impl, const GatherPlan& plan, int num_inputs);
  const char* impl_name() const override { return impl_; }
  const GatherPlan& plan() const { return plan_; }  // for the dims prepared with
  // Transpose with varying dims (runtime v2): each binding re-plans when a run's input dims change.
  void MakeAgnosticTranspose(std::vector<int64_t> perm, std::vector<std::vector<bool>> runtime_input_dims);
  const std::vector<int64_t>& perm() const { return perm_; }

 private:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override;
  const char* impl_;
  GatherPlan plan_;
  std::vector<int64_t> perm_;  // shape-agnostic Transpose
};

// nullptr when the request is not a supported Transpose (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareTranspose(const PrepareRequest& request);

}  // namespace ge::exec
