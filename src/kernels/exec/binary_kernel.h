// Fast two-input broadcasting element-wise kernels: Add Sub Mul Div, and Max Min with exactly two inputs, for
// float32 and float64 (integer dtypes stay on the ref adapter: wrap-around and division-by-zero semantics). The
// loop nest is planned at Prepare (BroadcastPlan); large outputs split over TaskContext::pool.
#pragma once
#include <memory>

#include "kernels/exec/broadcast_plan.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

class BinaryKernel final : public PreparedKernel {
 public:
  BinaryKernel(rt::TaskFn fn, const char* impl, const BroadcastPlan& plan);
  const char* impl_name() const override { return impl_; }
  const BroadcastPlan& plan() const { return plan_; }

 private:
  const char* impl_;
  BroadcastPlan plan_;
};

// nullptr when the request is not a supported binary op (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareBinary(const PrepareRequest& request);

}  // namespace ge::exec
