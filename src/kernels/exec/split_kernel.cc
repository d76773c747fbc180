#include "kernels/exec/split_kernel.h"

#include <string>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec {
namespace {

class SplitKernel final : public PreparedKernel {
 public:
  SplitKernel(std::vector<GatherPlan> plans, int num_inputs);
  const char* impl_name() const override { return "exec.split"; }
  const std::vector<GatherPlan>& plans() const { return plans_; }

 private:
  std::vector<GatherPlan> plans_;  // one per output
};

Status SplitTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const SplitKernel& k = BoundKernel<SplitKernel>(binding);
  const void* in = binding.io.inputs[0];
  for (size_t i = 0; i < k.plans().size(); ++i) {
    if (binding.io.outputs[i] == in && k.plans()[i].numel > 0) {
      return FailedPrecondition("exec.split: output " + std::to_string(i) + " shares the input's slot");
    }
    RunGather(k.plans()[i], in, binding.io.outputs[i], ctx);
  }
  return Status::Ok();
}

SplitKernel::SplitKernel(std::vector<GatherPlan> plans, int num_inputs) : plans_(std::move(plans)) {
  fn_ = &SplitTask;
  num_inputs_ = num_inputs;
  num_outputs_ = static_cast<int>(plans_.size());
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareSplit(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_outputs() < 1 || !InputPresent(r, 0)) return nullptr;
  const TensorDesc& in = r.input_descs[0];
  const size_t elem_size = GatherElemSize(in.dtype);
  const Dims& dims = in.shape.dims();
  const int rank = static_cast<int>(dims.size());
  if (elem_size == 0 || rank == 0 || rank > kMaxGatherRank) return nullptr;
  int64_t axis = node.attrs().GetInt("axis", 0);
  if (axis < -rank || axis >= rank) return nullptr;  // ref reports it
  if (axis < 0) axis += rank;
  const std::vector<int64_t> strides = ContiguousStrides(dims);
  std::vector<GatherPlan> plans;
  int64_t begin = 0;
  for (int i = 0; i < node.num_outputs(); ++i) {
    if (!OutputPresent(r, i)) return nullptr;
    const TensorDesc& out = r.output_descs[i];
    if (out.dtype != in.dtype || out.shape.rank() != rank) return nullptr;
    std::vector<GatherAxis> axes;
    for (int k = 0; k < rank; ++k) {
      const int64_t d = out.shape.dim(k);
      if (k != axis && d != dims[k]) return nullptr;
      axes.push_back({d, strides[k]});
    }
    plans.push_back(BuildGatherPlan(axes, begin * strides[axis], elem_size));
    begin += out.shape.dim(static_cast<int>(axis));
  }
  if (begin != dims[axis]) return nullptr;
  return std::make_unique<SplitKernel>(std::move(plans), node.num_inputs());
}

}  // namespace ge::exec
