#include "runtime/executable_model.h"

#include <memory>
#include <string>

namespace ge::runtime {
namespace {

struct AsyncRun {
  ExecutableModel* model;
  std::vector<DataBuffer> inputs, outputs;
};

Status RunAsync(void* args, rt::TaskContext& ctx) {
  std::unique_ptr<AsyncRun> run(static_cast<AsyncRun*>(args));
  if (ctx.Stopped()) return Aborted("model '" + run->model->name() + "': the stream was stopped");
  return run->model->Execute(run->inputs, run->outputs);
}

}  // namespace

Status EnqueueExecute(ExecutableModel& model, const std::vector<DataBuffer>& inputs,
                      const std::vector<DataBuffer>& outputs, rt::Stream& stream) {
  GE_RETURN_IF_ERROR(CheckBuffers(model.inputs(), inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(model.outputs(), outputs, "output"));
  auto* run = new AsyncRun{&model, inputs, outputs};
  Status s = stream.Enqueue(rt::Task{RunAsync, run});
  if (!s.ok()) delete run;
  return s;
}

Status CheckBuffers(const std::vector<IoDesc>& descs, const std::vector<DataBuffer>& buffers, const char* what) {
  if (buffers.size() != descs.size()) {
    return InvalidArgument(std::string("expected ") + std::to_string(descs.size()) + " " + what + " buffer(s), got " +
                           std::to_string(buffers.size()));
  }
  for (size_t i = 0; i < descs.size(); ++i) {
    const IoDesc& d = descs[i];
    const DataBuffer& b = buffers[i];
    if (b.size == d.size_bytes && (b.data != nullptr || b.size == 0)) continue;
    // Only a failing buffer pays for its label (checked on every execution).
    const std::string label =
        std::string(what) + " " + std::to_string(i) + " '" + d.name + "' (" + d.desc.ToString() + ")";
    if (b.size != d.size_bytes) {
      return InvalidArgument(label + ": buffer is " + std::to_string(b.size) + " bytes, expected " +
                             std::to_string(d.size_bytes));
    }
    return InvalidArgument(label + ": buffer data is null");
  }
  return Status::Ok();
}

Status ExecutableModel::ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  const std::vector<IoDesc>& in_descs = this->inputs();
  const std::vector<IoDesc>& out_descs = this->outputs();
  if (inputs.size() != in_descs.size()) {
    return InvalidArgument("model '" + name() + "' has " + std::to_string(in_descs.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  std::vector<DataBuffer> in(inputs.size()), out(out_descs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoDesc& d = in_descs[i];
    const Tensor& t = inputs[i];
    if (!t.valid() || t.dtype() != d.desc.dtype || t.dims() != d.desc.shape.dims() || t.nbytes() != d.size_bytes) {
      return InvalidArgument("model '" + name() + "': input '" + d.name + "' wants " + d.desc.ToString() + ", got " +
                             (t.valid() ? TensorDesc(t.dtype(), Shape(t.dims())).ToString() : std::string("no tensor")));
    }
    in[i] = DataBuffer{const_cast<void*>(t.raw_data()), t.nbytes()};
  }
  outputs->resize(out_descs.size());
  for (size_t i = 0; i < out_descs.size(); ++i) {
    const IoDesc& d = out_descs[i];
    Tensor& t = (*outputs)[i];
    const bool reuse = t.valid() && t.storage().use_count() == 1 && t.dtype() == d.desc.dtype &&
                       t.dims() == d.desc.shape.dims() && t.nbytes() == d.size_bytes;
    if (!reuse) {
      GE_ASSIGN_OR_RETURN(t, Tensor::Create(d.desc.dtype, d.desc.shape.dims()));
    }
    out[i] = DataBuffer{t.raw_data(), t.nbytes()};
  }
  return Execute(in, out);
}

Status ExecutableModel::ExecuteBatchTensors(const std::vector<std::vector<Tensor>>& requests,
                                            std::vector<std::vector<Tensor>>* outputs) {
  outputs->assign(requests.size(), {});
  for (size_t k = 0; k < requests.size(); ++k) GE_RETURN_IF_ERROR(ExecuteTensors(requests[k], &(*outputs)[k]));
  return Status::Ok();
}

}  // namespace ge::runtime
