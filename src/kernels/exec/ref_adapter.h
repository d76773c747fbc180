// The reference-kernel adapter: the prepared kernel every op with a ref kernel can fall back to. At run it wraps
// each input slot as a Tensor borrowing the slot's bytes, runs the ref kernel, checks that every output has the
// planned dtype and dims, and copies it into its output slot (nothing to copy when the ref kernel's output already
// is the slot's memory).
// Thread-safety: the kernel is immutable; each binding has its own KernelContext, borrowed input wrappers and random
// generator (seeded from the request, so every binding draws the same sequence).
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
  struct State;
  RefAdapter() = default;
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override;
  static Status Task(void* args, rt::TaskContext& ctx);
  Status Run(const KernelIo& io, State& st) const;
  Status BindInputs(const KernelIo& io, State& st) const;
  void BindOutputs(const KernelIo& io, State& st) const;
  Status StoreOutput(const KernelIo& io, const State& st, int i) const;

  ref::RefKernelFn ref_fn_ = nullptr;
  ref::KernelContext kctx_;           // template of each binding's: node, attrs, opset, names, planned output descs
  uint64_t seed_ = 0;
  std::string label_;                 // "node 'n' (Op)"
  std::vector<TensorDesc> in_descs_;  // planned
  std::vector<bool> in_present_, out_present_;
  std::vector<Value> const_values_;  // per input: the request's constant (kind kNone when not constant)
};

}  // namespace ge::exec
