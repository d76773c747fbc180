// Data movement with no math (Identity, Reshape, Flatten, Squeeze, Unsqueeze, inference Dropout with one output):
// copies the planned output bytes from input 0's slot to the output slot, and does nothing when the memory planner
// placed both at the same address. Large copies split over TaskContext::pool. Shape-agnostic when the request has
// varying dims (the byte count then comes from the output's dims at run; a Reshape's shape input is never read).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

class CopyKernel final : public PreparedKernel {
 public:
  CopyKernel(int num_inputs, int num_outputs, size_t nbytes);  // output 0 is the copy
  // Shape-agnostic: copies the elements of output 0's dims at run (`out_rank` dims of `elem_bytes` each).
  CopyKernel(int num_inputs, int num_outputs, std::vector<std::vector<bool>> runtime_input_dims, int out_rank,
             size_t elem_bytes);
  const char* impl_name() const override { return "exec.copy"; }
  size_t nbytes() const { return nbytes_; }

 private:
  static Status Task(void* args, rt::TaskContext& ctx);
  size_t nbytes_;
  int out_rank_ = 0;
  size_t elem_bytes_ = 0;
};

// nullptr when the request is not a pure copy (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareCopy(const PrepareRequest& request);

}  // namespace ge::exec
