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
    const std::string label =
        std::string(what) + " " + std::to_string(i) + " '" + d.name + "' (" + d.desc.ToString() + ")";
    if (b.size != d.size_bytes) {
      return InvalidArgument(label + ": buffer is " + std::to_string(b.size) + " bytes, expected " +
                             std::to_string(d.size_bytes));
    }
    if (b.data == nullptr && b.size != 0) return InvalidArgument(label + ": buffer data is null");
  }
  return Status::Ok();
}

}  // namespace ge::runtime
