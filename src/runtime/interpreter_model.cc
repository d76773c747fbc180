#include "runtime/interpreter_model.h"

#include <cstring>

#include "om/ir_om.h"

namespace ge::runtime {
namespace {

StatusOr<std::vector<IoDesc>> Describe(const std::vector<ir::Value*>& values, const std::string& model,
                                       const char* what, bool* dynamic) {
  std::vector<IoDesc> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    if (d.kind != ValueKind::kTensor || d.dtype == DataType::kString || d.shape.unknown_rank()) {
      return FailedPrecondition("model '" + model + "': " + what + " '" + v->name() + "' is " + d.ToString() +
                                ", not a numeric tensor of known rank; the offline-model API passes numeric tensors "
                                "(`ge run` too)");
    }
    size_t bytes = 0;  // unknown dims: the tensor form of Execute takes any accepted size
    if (d.shape.IsFullyKnown()) {
      GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(d.shape.dims(), d.format));
      bytes = static_cast<size_t>(n) * DataTypeSize(d.dtype);
    } else {
      *dynamic = true;
    }
    out.push_back(IoDesc{v->name(), d, bytes});
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
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, om::ReadIrOm(*om));
  const std::string name = om->header().name;
  return Create(std::move(model), name, seed, std::move(om));
}

StatusOr<std::unique_ptr<InterpreterModel>> InterpreterModel::FromModel(std::unique_ptr<ir::Model> model,
                                                                        uint64_t seed) {
  if (model == nullptr || model->graph == nullptr) return InvalidArgument("InterpreterModel::FromModel: no graph");
  const std::string name = model->graph->name();
  return Create(std::move(model), name, seed, nullptr);
}

StatusOr<std::unique_ptr<InterpreterModel>> InterpreterModel::Create(std::unique_ptr<ir::Model> model,
                                                                     const std::string& name, uint64_t seed,
                                                                     std::shared_ptr<const om::OmReader> om) {
  auto m = std::unique_ptr<InterpreterModel>(new InterpreterModel);
  m->om_ = std::move(om);
  m->model_ = std::move(model);
  if (m->model_->graph == nullptr) return DataLoss("the IR model has no graph");
  m->name_ = name;
  InterpreterOptions options;
  options.seed = seed;
  GE_ASSIGN_OR_RETURN(m->interpreter_, Interpreter::Create(m->model_.get(), options));
  GE_ASSIGN_OR_RETURN(m->inputs_, Describe(m->interpreter_->inputs(), m->name_, "input", &m->dynamic_));
  GE_ASSIGN_OR_RETURN(m->outputs_, Describe(m->interpreter_->outputs(), m->name_, "output", &m->dynamic_));
  return m;
}

Status InterpreterModel::ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  if (inputs.size() != inputs_.size()) {
    return InvalidArgument("model '" + name_ + "' takes " + std::to_string(inputs_.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  std::vector<Value> in;
  in.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& d = inputs_[i].desc;
    const Dims& want = d.shape.dims();
    const Dims& got = inputs[i].dims();
    bool ok = inputs[i].dtype() == d.dtype && got.size() == want.size();
    for (size_t k = 0; ok && k < want.size(); ++k) ok = want[k] < 0 || want[k] == got[k];
    if (!ok) {
      return InvalidArgument("model '" + name_ + "': input '" + inputs_[i].name + "' is " + d.ToString() + ", got " +
                             DataTypeName(inputs[i].dtype()) + DimsToString(got));
    }
    in.emplace_back(inputs[i]);
  }
  std::vector<Value> out;
  {
    std::lock_guard<std::mutex> lk(run_mu_);
    if (aborted_.load()) return Aborted("model '" + name_ + "' was aborted");
    GE_RETURN_IF_ERROR(interpreter_->Run(in, &out));
  }
  outputs->resize(out.size());
  for (size_t i = 0; i < out.size(); ++i) (*outputs)[i] = out[i].is_tensor() ? std::move(out[i].tensor) : Tensor();
  return Status::Ok();
}

Status InterpreterModel::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  if (dynamic_) {
    return FailedPrecondition("model '" + name_ +
                              "': some input or output dims are unknown; fixed-size buffers need "
                              "fixed shapes (run it with tensors)");
  }
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
