// The public static form (include/ge/single_op.h): one PreparedOp made at Create, run by every call.
#include "ge/single_op.h"

#include "single_op/op_def.h"
#include "single_op/prepared_op.h"

namespace ge {

struct SingleOp::Impl {
  single_op::OpDef def;
  std::unique_ptr<rt::ThreadPool> pool;  // null: kernels run on the calling thread alone
  std::unique_ptr<single_op::PreparedOp> op;
  std::vector<std::string> output_names;
};

SingleOp::SingleOp(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SingleOp::~SingleOp() = default;

StatusOr<std::unique_ptr<SingleOp>> SingleOp::Create(const std::string& op_type,
                                                     const std::vector<OpTensorDesc>& inputs, const Attrs& attrs,
                                                     const SingleOpOptions& options) {
  auto impl = std::make_unique<Impl>();
  GE_ASSIGN_OR_RETURN(impl->def, single_op::MakeOpDef(op_type, attrs, options));
  GE_ASSIGN_OR_RETURN(impl->pool, single_op::MakePool(impl->def));
  GE_ASSIGN_OR_RETURN(impl->op, single_op::PreparedOp::Create(impl->def, inputs));
  return std::unique_ptr<SingleOp>(new SingleOp(std::move(impl)));
}

const std::string& SingleOp::op_type() const { return impl_->def.op_type; }
const std::vector<OpTensorDesc>& SingleOp::inputs() const { return impl_->op->inputs(); }
const std::vector<OpTensorDesc>& SingleOp::outputs() const { return impl_->op->outputs(); }
const std::vector<std::string>& SingleOp::output_names() const { return impl_->def.output_names; }
size_t SingleOp::input_bytes(size_t i) const { return impl_->op->input_bytes(i); }
size_t SingleOp::output_bytes(size_t i) const { return impl_->op->output_bytes(i); }
const std::string& SingleOp::engine() const { return impl_->op->engine(); }
const std::string& SingleOp::kernel_impl() const { return impl_->op->kernel_impl(); }

Status SingleOp::Run(const InputBuffer* inputs, size_t num_inputs, const OutputBuffer* outputs, size_t num_outputs) {
  return impl_->op->Run(inputs, num_inputs, outputs, num_outputs, impl_->pool.get());
}

Status SingleOp::Run(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  return impl_->op->Run(inputs, /*all_op_inputs=*/false, outputs, impl_->pool.get());
}

}  // namespace ge
