#include "runtime/pipeline_executable_model.h"

#include <cstring>

#include "base/value.h"
#include "om/ir_om.h"

namespace ge::runtime {
namespace {

StatusOr<std::vector<IoDesc>> Describe(const std::vector<ir::Value*>& values, const std::string& model,
                                       const char* what) {
  std::vector<IoDesc> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    if (d.kind != ValueKind::kTensor || d.dtype == DataType::kString || d.shape.unknown_rank()) {
      return FailedPrecondition("model '" + model + "': " + what + " '" + v->name() + "' is " + d.ToString() +
                                ", not a numeric tensor of known rank; the offline-model API passes numeric tensors");
    }
    size_t bytes = 0;  // unknown dims: only the tensor form runs the model
    if (d.shape.IsFullyKnown()) bytes = static_cast<size_t>(NumElements(d.shape.dims())) * DataTypeSize(d.dtype);
    out.push_back(IoDesc{v->name(), d, bytes});
  }
  return out;
}

std::vector<Value> ToValues(const std::vector<Tensor>& tensors) {
  std::vector<Value> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.emplace_back(t);
  return out;
}

std::vector<Tensor> ToTensors(std::vector<Value>& values) {
  std::vector<Tensor> out;
  out.reserve(values.size());
  for (Value& v : values) out.push_back(v.is_tensor() ? std::move(v.tensor) : Tensor());
  return out;
}

}  // namespace

StatusOr<std::unique_ptr<PipelineExecutableModel>> PipelineExecutableModel::Load(std::shared_ptr<const om::OmReader> om,
                                                                                 const v2::PipelineOptions& options) {
  if (om == nullptr) return InvalidArgument("PipelineExecutableModel::Load: null reader");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> ir, om::ReadIrOm(*om));
  if (ir->graph == nullptr) return DataLoss("the IR model has no graph");
  auto m = std::unique_ptr<PipelineExecutableModel>(new PipelineExecutableModel);
  m->name_ = om->header().name;
  GE_ASSIGN_OR_RETURN(m->inputs_,
                      Describe({ir->graph->inputs().begin(), ir->graph->inputs().end()}, m->name_, "input"));
  GE_ASSIGN_OR_RETURN(m->outputs_,
                      Describe({ir->graph->outputs().begin(), ir->graph->outputs().end()}, m->name_, "output"));
  GE_ASSIGN_OR_RETURN(m->pipeline_, v2::PipelineModel::Load(std::move(ir), options, std::move(om)));
  return m;
}

Status PipelineExecutableModel::CheckInputs(const std::vector<Tensor>& inputs) const {
  if (inputs.size() != inputs_.size()) {
    return InvalidArgument("model '" + name_ + "' takes " + std::to_string(inputs_.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& d = inputs_[i].desc;
    const Dims& want = d.shape.dims();
    const Dims& got = inputs[i].dims();
    bool ok = inputs[i].valid() && inputs[i].dtype() == d.dtype && got.size() == want.size();
    for (size_t k = 0; ok && k < want.size(); ++k) ok = want[k] < 0 || want[k] == got[k];
    if (!ok) {
      return InvalidArgument(
          "model '" + name_ + "': input '" + inputs_[i].name + "' is " + d.ToString() + ", got " +
          (inputs[i].valid() ? DataTypeName(inputs[i].dtype()) + DimsToString(got) : std::string("no tensor")));
    }
  }
  return Status::Ok();
}

Status PipelineExecutableModel::ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  std::vector<std::vector<Tensor>> batch_out;
  GE_RETURN_IF_ERROR(ExecuteBatchTensors({inputs}, &batch_out));
  *outputs = std::move(batch_out.front());
  return Status::Ok();
}

Status PipelineExecutableModel::ExecuteBatchTensors(const std::vector<std::vector<Tensor>>& requests,
                                                    std::vector<std::vector<Tensor>>* outputs) {
  if (aborted_.load()) return Aborted("model '" + name_ + "' was aborted");
  std::vector<std::vector<Value>> in;
  in.reserve(requests.size());
  for (const std::vector<Tensor>& r : requests) {
    GE_RETURN_IF_ERROR(CheckInputs(r));
    in.push_back(ToValues(r));
  }
  std::vector<std::vector<Value>> out;
  GE_RETURN_IF_ERROR(pipeline_->ExecuteBatch(in, &out));
  outputs->clear();
  for (std::vector<Value>& o : out) outputs->push_back(ToTensors(o));
  return Status::Ok();
}

Status PipelineExecutableModel::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  GE_RETURN_IF_ERROR(CheckBuffers(inputs_, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(outputs_, outputs, "output"));
  std::vector<Tensor> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& d = inputs_[i].desc;
    in.emplace_back(d.dtype, d.shape.dims(), TensorStorage::Borrow(inputs[i].data, inputs[i].size, nullptr));
  }
  std::vector<Tensor> out;
  GE_RETURN_IF_ERROR(ExecuteTensors(in, &out));
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (out[i].nbytes() != outputs[i].size) {
      return Internal("model '" + name_ + "': output '" + outputs_[i].name + "' came out as " +
                      std::to_string(out[i].nbytes()) + " bytes, not the described " + std::to_string(outputs[i].size));
    }
    if (outputs[i].size > 0) std::memcpy(outputs[i].data, out[i].raw_data(), outputs[i].size);
  }
  return Status::Ok();
}

Status PipelineExecutableModel::ExecuteAsync(const std::vector<DataBuffer>& inputs,
                                             const std::vector<DataBuffer>& outputs, rt::Stream& stream) {
  return EnqueueExecute(*this, inputs, outputs, stream);
}

}  // namespace ge::runtime
