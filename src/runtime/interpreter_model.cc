#include "runtime/interpreter_model.h"

#include <cstring>

#include "om/ir_om.h"

namespace ge::runtime {
namespace {

StatusOr<std::vector<IoDesc>> Describe(const std::vector<ir::Value*>& values, const std::string& model,
                                       const char* what) {
  std::vector<IoDesc> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    if (d.kind != ValueKind::kTensor || !d.shape.IsFullyKnown() || d.dtype == DataType::kString) {
      return FailedPrecondition("model '" + model + "': " + what + " '" + v->name() + "' is " + d.ToString() +
                                ", not a numeric tensor of known dims; the offline-model API runs fixed shapes (compile with "
                                "--input_shape, or run it with `ge run`, which uses the interpreter)");
    }
    GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(d.shape.dims(), d.format));
    out.push_back(IoDesc{v->name(), d, static_cast<size_t>(n) * DataTypeSize(d.dtype)});
  }
  return out;
}

}  // namespace

StatusOr<std::unique_ptr<InterpreterModel>> InterpreterModel::Load(std::shared_ptr<const om::OmReader> om,
                                                                   uint64_t seed) {
  if (om == nullptr) return InvalidArgument("InterpreterModel::Load: null reader");
  if (!om::IsIrModelType(om->header().model_type)) {
    return FailedPrecondition("the .om is not an IR model (model type " +
                              std::to_string(static_cast<int>(om->header().model_type)) + ")");
  }
  auto m = std::unique_ptr<InterpreterModel>(new InterpreterModel);
  m->om_ = std::move(om);
  GE_ASSIGN_OR_RETURN(m->model_, om::ReadIrOm(*m->om_));
  if (m->model_->graph == nullptr) return DataLoss("the IR model has no graph");
  m->name_ = m->om_->header().name;
  InterpreterOptions options;
  options.seed = seed;
  GE_ASSIGN_OR_RETURN(m->interpreter_, Interpreter::Create(m->model_.get(), options));
  GE_ASSIGN_OR_RETURN(m->inputs_, Describe(m->interpreter_->inputs(), m->name_, "input"));
  GE_ASSIGN_OR_RETURN(m->outputs_, Describe(m->interpreter_->outputs(), m->name_, "output"));
  return m;
}

Status InterpreterModel::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  GE_RETURN_IF_ERROR(CheckBuffers(inputs_, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(outputs_, outputs, "output"));
  std::lock_guard<std::mutex> lk(run_mu_);
  if (aborted_.load()) return Aborted("model '" + name_ + "' was aborted");
  std::vector<Value> in;
  in.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(inputs_[i].desc.dtype, inputs_[i].desc.shape.dims()));
    if (inputs[i].size != 0) std::memcpy(t.raw_data(), inputs[i].data, inputs[i].size);
    in.emplace_back(std::move(t));
  }
  std::vector<Value> out;
  GE_RETURN_IF_ERROR(interpreter_->Run(in, &out));
  if (out.size() != outputs.size()) return Internal("model '" + name_ + "': the interpreter returned a wrong count");
  for (size_t i = 0; i < out.size(); ++i) {
    const Tensor& t = out[i].tensor;
    if (t.dtype() != outputs_[i].desc.dtype || t.nbytes() != outputs[i].size) {
      return Internal("model '" + name_ + "': output '" + outputs_[i].name + "' came out as " +
                      std::to_string(t.nbytes()) + " bytes of " + DataTypeName(t.dtype()) + ", not as described");
    }
    if (t.nbytes() != 0) std::memcpy(outputs[i].data, t.raw_data(), t.nbytes());
  }
  return Status::Ok();
}

Status InterpreterModel::ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                             rt::Stream& stream) {
  return EnqueueExecute(*this, inputs, outputs, stream);
}

}  // namespace ge::runtime
