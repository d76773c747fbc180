// The reference-kernel adapter: the prepared kernel every op with a ref kernel can fall back to. At run it wraps
// each input slot as a Tensor borrowing the slot's bytes, runs the ref kernel, checks that every output has the
// planned dtype and dims, and copies it into its output slot (nothing to copy when the ref kernel's output already
// is the slot's memory).
// Thread-safety: one execution at a time (the kernel keeps its KernelContext, borrowed input wrappers and random
// generator between runs).
#pragma once
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/value.h"
#include "kernels/exec/prepared_kernel.h"
#include "kernels/ref/kernel_context.h"

namespace ge::exec {

class RefAdapter final : public PreparedKernel {
 public:
  // Fails with Unimplemented naming the node when it owns subgraphs or has no ref kernel; InvalidArgument for a
  // malformed request. The request's node must outlive the kernel.
  static StatusOr<std::unique_ptr<RefAdapter>> Create(const PrepareRequest& request);
  const char* impl_name() const override { return "ref"; }

 private:
  RefAdapter() = default;
  static Status Task(void* args, rt::TaskContext& ctx);
  Status Run();
  Status BindInputs();
  void BindOutputs();
  Status StoreOutput(int i);

  ref::RefKernelFn ref_fn_ = nullptr;
  ref::KernelContext kctx_;           // node, attrs, opset, names and inferred (= planned) output descs
  std::string label_;                 // "node 'n' (Op)"
  std::vector<TensorDesc> in_descs_;  // planned
  std::vector<bool> in_present_, out_present_;
  std::vector<Value> const_values_;  // per input: the request's constant (kind kNone when not constant)
  std::vector<Value> borrowed_;      // per input: a Tensor borrowing bound_[i]
  std::vector<void*> bound_;         // the slot address borrowed_[i] wraps (re-wrapped when the slot changes)
  std::vector<void*> out_bound_;     // the output slot kctx_.preallocated[i] wraps (nullptr: none)
  std::mt19937_64 rng_;              // for random ops, seeded from the request
};

}  // namespace ge::exec
