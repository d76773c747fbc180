// Data movement with no math (Identity, Reshape, Flatten, Squeeze, Unsqueeze, inference Dropout with one output):
// copies the planned output bytes from input 0's slot to the output slot, and does nothing when the memory planner
// placed both at the same address. Large copies split over TaskContext::pool.
#pragma once
#include <cstddef>
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

class CopyKernel final : public PreparedKernel {
 public:
  CopyKernel(int num_inputs, int num_outputs, size_t nbytes);  // output 0 is the copy
  const char* impl_name() const override { return "exec.copy"; }
  size_t nbytes() const { return nbytes_; }

 private:
  static Status Task(void* args, rt::TaskContext& ctx);
  size_t nbytes_;
};

// nullptr when the request is not a pure copy (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareCopy(const PrepareRequest& request);

}  // namespace ge::exec
