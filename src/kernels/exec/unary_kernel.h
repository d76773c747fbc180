// Fast element-wise unary kernels (Relu ... Clip, and Pow with a constant scalar exponent): y[i] = op(x[i]) over
// the planned element count, one tight loop per (op, dtype) instantiation. Supported dtypes: float32 and float64
// for every op; int32 and int64 for Relu, Neg, Abs and Sign. Large tensors split over TaskContext::pool.
#pragma once
#include <cstdint>
#include <memory>

#include "kernels/exec/prepared_kernel.h"
#include "kernels/exec/unary_ops.h"

namespace ge::exec {

class UnaryKernel final : public PreparedKernel {
 public:
  // num_inputs: the node's input count (Clip bounds and Pow's exponent get slots too; the kernel reads slot 0).
  UnaryKernel(rt::TaskFn fn, const char* impl, int64_t numel, const UnaryParams& params, int num_inputs);
  const char* impl_name() const override { return impl_; }
  int64_t numel() const { return numel_; }
  const UnaryParams& params() const { return params_; }

 private:
  const char* impl_;
  int64_t numel_;
  UnaryParams params_;
};

// nullptr when the request is not a supported unary op (the caller falls back to the ref adapter).
std::unique_ptr<PreparedKernel> PrepareUnary(const PrepareRequest& request);
// Pow whose exponent is a constant with one element, base float32/float64; nullptr otherwise.
std::unique_ptr<PreparedKernel> PreparePowScalar(const PrepareRequest& request);

}  // namespace ge::exec
