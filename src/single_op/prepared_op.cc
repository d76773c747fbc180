#include "single_op/prepared_op.h"

#include "base/data_type.h"
#include "base/shape.h"
#include "kernels/exec/kernel_util.h"
#include "ops/op_schema.h"
#include "single_op/assign_engine.h"

namespace ge::single_op {
namespace {

std::string DescText(DataType dt, const Dims& dims) { return std::string(DataTypeName(dt)) + DimsToString(dims); }

// The input's static desc and byte size; InvalidArgument naming the input when it is not a valid static tensor.
StatusOr<TensorDesc> CheckedDesc(const std::string& label, size_t i, const OpTensorDesc& d, size_t* bytes) {
  const std::string what = label + ": input " + std::to_string(i);
  DataType dt = d.dtype;
  Dims dims = d.dims;
  if (d.is_constant()) {
    if (d.dtype != DataType::kUndefined && (d.dtype != d.value.dtype() || d.dims != d.value.dims())) {
      return InvalidArgument(what + " is described as " + DescText(d.dtype, d.dims) + " but its constant is " +
                             DescText(d.value.dtype(), d.value.dims()));
    }
    dt = d.value.dtype();
    dims = d.value.dims();
  }
  if (dt == DataType::kUndefined || !IsValidDataType(static_cast<int32_t>(dt))) {
    return InvalidArgument(what + " has no valid dtype (" + std::to_string(static_cast<int>(dt)) + ")");
  }
  for (int64_t x : dims) {
    if (x < 0) return InvalidArgument(what + " has a negative dim: " + DimsToString(dims));
  }
  StatusOr<int64_t> numel = CheckedNumElements(dims);
  const int64_t size = static_cast<int64_t>(DataTypeSize(dt));
  if (!numel.ok() || (size > 0 && *numel > kMaxTensorBytes / size)) {
    return InvalidArgument(what + " is too large: " + DescText(dt, dims));
  }
  *bytes = static_cast<size_t>(*numel * size);
  return TensorDesc(dt, Shape(dims));
}

}  // namespace

PreparedOp::~PreparedOp() = default;

StatusOr<std::unique_ptr<PreparedOp>> PreparedOp::Create(const OpDef& def, const std::vector<OpTensorDesc>& inputs) {
  std::unique_ptr<PreparedOp> op(new PreparedOp());
  GE_RETURN_IF_ERROR(op->Build(def, inputs));
  return op;
}

Status PreparedOp::Build(const OpDef& def, const std::vector<OpTensorDesc>& inputs) {
  label_ = def.label;
  GE_RETURN_IF_ERROR(CheckInputCount(def, inputs.size()));
  size_t n = inputs.size();
  while (n > 0 && inputs[n - 1].is_omitted()) --n;  // ONNX: trailing optional inputs are simply absent
  graph_ = std::make_unique<ir::Graph>("single_op");
  ir::Graph& g = *graph_;
  std::vector<ir::Value*> in_values(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    const OpTensorDesc& d = inputs[i];
    if (d.is_omitted()) continue;
    size_t bytes = 0;
    GE_ASSIGN_OR_RETURN(TensorDesc desc, CheckedDesc(label_, i, d, &bytes));
    const std::string name = "input" + std::to_string(i);
    if (d.is_constant()) {
      GE_ASSIGN_OR_RETURN(Tensor copy, d.value.Clone());
      in_values[i] = g.AddConstant(name, std::move(copy));
      in_values[i]->desc() = desc;
    } else {
      in_values[i] = g.AddInput(name, desc);
      in_slots_.push_back(static_cast<int>(i));
      in_bytes_.push_back(bytes);
      inputs_.emplace_back(desc.dtype, desc.shape.dims());
    }
  }
  std::vector<ir::Value*> out_values;
  for (int i = 0; i < def.num_outputs; ++i) {
    out_values.push_back(g.AddValue(g.UniqueValueName(def.output_names[static_cast<size_t>(i)])));
  }
  node_ = g.AddNode(def.op_type, def.label, in_values, out_values, def.domain);
  node_->attrs() = def.attrs;
  for (ir::Value* v : out_values) g.AddOutput(v);

  GE_RETURN_IF_ERROR(InferOutputs(def));
  if (!exec::CanPrepare(*node_)) {
    return Unimplemented(label_ + ": runs only inside a model (it has subgraphs, or sequence, optional or string "
                         "values)");
  }
  for (int i = 0; i < def.num_outputs; ++i) {
    const TensorDesc& d = node_->output(i)->desc();
    if (!exec::IsStaticTensor(d)) {
      return InvalidArgument(label_ + ": output " + std::to_string(i) + " is " + d.ToString() +
                             ": its shape depends on input values; give those inputs as constants "
                             "(OpTensorDesc::Constant)");
    }
    size_t bytes = 0;
    OpTensorDesc out(d.dtype, d.shape.dims());
    GE_RETURN_IF_ERROR(CheckedDesc(label_ + " output", static_cast<size_t>(i), out, &bytes).status());
    outputs_.push_back(std::move(out));
    out_bytes_.push_back(bytes);
  }

  node_->set_engine(AssignEngine(*node_, def.engines));
  const exec::PrepareRequest request = exec::MakeRequest(*node_, def.settings);
  GE_ASSIGN_OR_RETURN(kernel_, exec::PrepareKernel(request, def.engines));
  if (kernel_->num_inputs() != node_->num_inputs() || kernel_->num_outputs() != node_->num_outputs()) {
    return Internal(label_ + ": kernel " + kernel_->impl_name() + " has " + std::to_string(kernel_->num_inputs()) +
                    " inputs and " + std::to_string(kernel_->num_outputs()) + " outputs, the node " +
                    std::to_string(node_->num_inputs()) + " and " + std::to_string(node_->num_outputs()));
  }
  GE_ASSIGN_OR_RETURN(binding_, kernel_->NewBinding());
  for (size_t i = 0; i < n; ++i) {
    if (in_values[i] != nullptr && in_values[i]->is_constant()) {
      binding_->io.inputs[i] = const_cast<void*>(in_values[i]->const_value()->raw_data());
    }
  }
  fn_ = kernel_->fn();
  engine_ = node_->engine();
  impl_ = kernel_->impl_name();
  in_scratch_.reserve(inputs_.size());
  out_scratch_.reserve(outputs_.size());
  return Status::Ok();
}

Status PreparedOp::InferOutputs(const OpDef& def) {
  const ops::OpSchema* schema = ops::BuiltinOps().Find(def.id);
  if (schema == nullptr) return Internal(label_ + ": no schema");
  ops::InferContext ctx;
  ctx.node = node_;
  ctx.attrs = &node_->attrs();
  ctx.opset = def.settings.opset;
  ctx.op_type = node_->op_type();
  ctx.node_name = node_->name();
  for (const ir::Value* v : node_->inputs()) {
    ctx.inputs.push_back(v != nullptr ? &v->desc() : nullptr);
    ctx.input_values.push_back(v != nullptr ? v->const_value() : nullptr);
  }
  ctx.outputs.assign(static_cast<size_t>(node_->num_outputs()), TensorDesc());
  GE_RETURN_IF_ERROR(ops::RunInference(*schema, ctx));
  for (int i = 0; i < node_->num_outputs(); ++i) node_->output(i)->desc() = ctx.outputs[static_cast<size_t>(i)];
  return Status::Ok();
}

Status PreparedOp::Run(const std::vector<Tensor>& inputs, bool all_op_inputs, std::vector<Tensor>* outputs,
                       rt::IntraOpPool* pool) {
  if (outputs == nullptr) return InvalidArgument(label_ + ": the outputs vector is null");
  in_scratch_.clear();
  size_t r = 0;
  for (const Tensor& t : inputs) {
    if (all_op_inputs && !t.valid()) continue;
    if (r < inputs_.size()) {
      const OpTensorDesc& want = inputs_[r];
      if (!t.valid() || t.dtype() != want.dtype || t.dims() != want.dims) {
        return InvalidArgument(label_ + ": input tensor " + std::to_string(r) + " is " +
                               (t.valid() ? DescText(t.dtype(), t.dims()) : std::string("empty (no storage)")) +
                               ", the op takes " + DescText(want.dtype, want.dims));
      }
      in_scratch_.push_back({t.raw_data(), t.nbytes()});
    }
    ++r;
  }
  if (r != inputs_.size()) {
    return InvalidArgument(label_ + ": got " + std::to_string(r) + " input tensors, the op takes " +
                           std::to_string(inputs_.size()));
  }
  outputs->resize(outputs_.size());
  out_scratch_.clear();
  for (size_t i = 0; i < outputs_.size(); ++i) {
    Tensor& t = (*outputs)[i];
    if (!t.valid() || t.dtype() != outputs_[i].dtype || t.dims() != outputs_[i].dims) {
      GE_ASSIGN_OR_RETURN(t, Tensor::Create(outputs_[i].dtype, outputs_[i].dims));
    }
    out_scratch_.push_back({t.raw_data(), t.nbytes()});
  }
  return Run(in_scratch_.data(), in_scratch_.size(), out_scratch_.data(), out_scratch_.size(), pool);
}

Status PreparedOp::CountError(const InputBuffer* inputs, size_t num_inputs, const OutputBuffer* outputs,
                              size_t num_outputs) const {
  if (num_inputs != in_bytes_.size()) {
    return InvalidArgument(label_ + ": got " + std::to_string(num_inputs) + " input buffers, the op takes " +
                           std::to_string(in_bytes_.size()) + " (constant and omitted inputs are not passed)");
  }
  if (num_outputs != out_bytes_.size()) {
    return InvalidArgument(label_ + ": got " + std::to_string(num_outputs) + " output buffers, the op has " +
                           std::to_string(out_bytes_.size()) + " outputs");
  }
  return InvalidArgument(label_ + ": the " + (inputs == nullptr && num_inputs != 0 ? "input" : "output") +
                         " buffer array is null");
}

Status PreparedOp::BufferError(const char* what, size_t i, const void* data, size_t size, size_t need) const {
  const OpTensorDesc& d = std::string(what) == "input" ? inputs_[i] : outputs_[i];
  if (data == nullptr) {
    return InvalidArgument(label_ + ": " + what + " " + std::to_string(i) + " (" + DescText(d.dtype, d.dims) +
                           ") has a null data pointer");
  }
  return InvalidArgument(label_ + ": " + what + " " + std::to_string(i) + " buffer holds " + std::to_string(size) +
                         " bytes, " + DescText(d.dtype, d.dims) + " needs " + std::to_string(need));
}

}  // namespace ge::single_op
