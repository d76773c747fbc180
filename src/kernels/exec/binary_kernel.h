// Fast two-input broadcasting element-wise kernels: Add Sub Mul Div, and Max Min with exactly two inputs, for
// float32 and float64 (integer dtypes stay on the ref adapter: wrap-around and division-by-zero semantics). The
// loop nest is planned at Prepare (BroadcastPlan); large outputs split over TaskContext::pool. With varying dims
// (runtime v2) the kernel is shape-agnostic: each binding re-plans when a run's dims differ from the last run's.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "kernels/exec/broadcast_plan.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

class BinaryKernel final : public PreparedKernel {
 public:
  BinaryKernel(rt::TaskFn fn, const char* impl, const BroadcastPlan& plan);
  const char* impl_name() const override { return impl_; }
  const BroadcastPlan& plan() const { return plan_; }  // for the dims prepared with
  // Shape-agnostic form: `fn` re-plans per binding; ranks of a, b and y.
  void MakeShapeAgnostic(rt::TaskFn fn, std::vector<std::vector<bool>> runtime_input_dims, std::array<size_t, 3> ranks);
  const std::array<size_t, 3>& plan_ranks() const { return ranks_; }

 private:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override;
  const char* impl_;
  BroadcastPlan plan_;
  std::array<size_t, 3> ranks_{};
};

// nullptr when the request is not a supported binary op (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareBinary(const PrepareRequest& request);

}  // namespace ge::exec
