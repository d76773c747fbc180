#include "kernels/exec/copy_kernel.h"

#include <cstring>

#include "kernels/exec/kernel_util.h"
#include "ops/op_id.h"

namespace ge::exec {

CopyKernel::CopyKernel(int num_inputs, int num_outputs, size_t nbytes) : nbytes_(nbytes) {
  fn_ = &CopyKernel::Task;
  num_inputs_ = num_inputs;
  num_outputs_ = num_outputs;
}

CopyKernel::CopyKernel(int num_inputs, int num_outputs, std::vector<std::vector<bool>> runtime_input_dims, int out_rank,
                       size_t elem_bytes)
    : nbytes_(0), out_rank_(out_rank), elem_bytes_(elem_bytes) {
  fn_ = &CopyKernel::Task;
  num_inputs_ = num_inputs;
  num_outputs_ = num_outputs;
  runtime_input_dims_ = std::move(runtime_input_dims);
}

Status CopyKernel::Task(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const CopyKernel* k = &BoundKernel<CopyKernel>(binding);
  const char* src = static_cast<const char*>(binding.io.inputs[0]);
  char* dst = static_cast<char*>(binding.io.outputs[0]);
  if (src == dst) return Status::Ok();  // placed in place by the memory planner
  size_t nbytes = k->nbytes_;
  if (k->shape_agnostic()) {
    const int64_t* dims = binding.io.output_dims[0];
    if (dims == nullptr) return Internal("exec.copy: shape-agnostic kernel run without its output's dims");
    nbytes = k->elem_bytes_;
    for (int d = 0; d < k->out_rank_; ++d) nbytes *= static_cast<size_t>(dims[d]);
  }
  // Bytes count as elements for the split policy: 64 KiB is a lot for one memcpy call to share.
  ParallelRange(
      ctx, static_cast<int64_t>(nbytes), [src, dst](size_t b, size_t e) { std::memcpy(dst + b, src + b, e - b); },
      size_t{64} * 1024);
  return Status::Ok();
}

namespace {

// Dropout is a copy when it is not training: before opset 12 always; from 12 when training_mode is absent or a
// constant false. The mask output must be absent and the data floating-point (ref rejects other types).
bool DropoutIsCopy(const PrepareRequest& r) {
  const ir::Node& n = *r.node;
  if (n.num_outputs() > 1 && OutputPresent(r, 1)) return false;
  if (!IsFloatingPoint(r.input_descs[0].dtype)) return false;
  if (r.opset < 12 || n.num_inputs() < 3 || !InputPresent(r, 2)) return true;
  const Tensor* t = ConstInput(r, 2);
  return t != nullptr && t->dtype() == DataType::kBool && t->numel() == 1 && !t->data<bool>()[0];
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareCopy(const PrepareRequest& r) {
  const ir::Node& n = *r.node;
  const ops::OpId id = ops::OpIdOf(n);
  if (!ops::HasTrait(id, ops::OpTrait::kDataView) || n.num_inputs() < 1 || n.num_outputs() < 1) return nullptr;
  if (!InputPresent(r, 0) || !OutputPresent(r, 0)) return nullptr;
  if (id == ops::OpId::kDropout) {
    if (!DropoutIsCopy(r)) return nullptr;
  } else if (n.num_outputs() != 1) {
    return nullptr;
  }
  const TensorDesc& in = r.input_descs[0];
  const TensorDesc& out = r.output_descs[0];
  if (in.dtype != out.dtype || in.dtype == DataType::kString) return nullptr;
  const int64_t numel = NumElements(out.shape.dims());
  if (numel != NumElements(in.shape.dims())) return nullptr;
  if (HasVaryingDims(r, 0)) {
    // Only input 0's bytes move; the dims that vary may be any of its own (the output's follow by inference).
    std::vector<std::vector<bool>> runtime(static_cast<size_t>(n.num_inputs()));
    runtime[0] = r.varying_input_dims[0];
    return std::make_unique<CopyKernel>(n.num_inputs(), n.num_outputs(), std::move(runtime), out.shape.rank(),
                                        DataTypeSize(out.dtype));
  }
  return std::make_unique<CopyKernel>(n.num_inputs(), n.num_outputs(),
                                      static_cast<size_t>(numel) * DataTypeSize(out.dtype));
}

}  // namespace ge::exec
