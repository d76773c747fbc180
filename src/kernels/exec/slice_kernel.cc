#include "kernels/exec/slice_kernel.h"

#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"
#include "ops/shape/shape_params.h"

namespace ge::exec {
namespace {

// Slice argument i (input from opset 10, attribute `attr` before): false when it is present but not a constant
// integer tensor. *present says whether it was given.
bool SliceArg(const PrepareRequest& r, int i, const char* attr, std::vector<int64_t>* v, bool* present) {
  if (r.opset < 10) {
    *present = r.node->attrs().Has(attr);
    *v = r.node->attrs().GetInts(attr);
    return true;
  }
  *present = i < r.node->num_inputs() && InputPresent(r, i);
  if (!*present) return true;
  const Tensor* t = ConstInput(r, i);
  if (t == nullptr || (t->dtype() != DataType::kInt32 && t->dtype() != DataType::kInt64)) return false;
  *v = t->ToInt64Vector();
  return true;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareSlice(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  const size_t elem_size = GatherableElemSize(r);
  if (elem_size == 0) return nullptr;
  const TensorDesc& in = r.input_descs[0];
  const TensorDesc& out = r.output_descs[0];
  const Dims& dims = in.shape.dims();
  const int rank = static_cast<int>(dims.size());

  std::vector<int64_t> starts, ends, axes, steps;
  bool p_starts = false, p_ends = false, p_axes = false, p_steps = false;
  if (!SliceArg(r, 1, "starts", &starts, &p_starts) || !SliceArg(r, 2, "ends", &ends, &p_ends) ||
      !SliceArg(r, 3, "axes", &axes, &p_axes)) {
    return nullptr;
  }
  if (r.opset >= 10 && !SliceArg(r, 4, "steps", &steps, &p_steps)) return nullptr;
  if (!p_starts || !p_ends) return nullptr;
  if (!ops::shape_family::NormalizeSliceArgs(rank, starts, ends, &axes, &steps).ok()) return nullptr;

  std::vector<int64_t> strides = ContiguousStrides(dims);
  Dims out_dims = dims;
  int64_t offset = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    const int k = static_cast<int>(axes[i]);
    const ops::shape_family::SliceAxis a = ops::shape_family::ClampSlice(dims[k], starts[i], ends[i], steps[i]);
    out_dims[k] = a.length;
    if (a.length > 0) offset += a.start * strides[k];
    strides[k] *= a.step;
  }
  if (out_dims != out.shape.dims()) return nullptr;
  std::vector<GatherAxis> gather;
  for (int k = 0; k < rank; ++k) gather.push_back({out_dims[k], strides[k]});
  return std::make_unique<GatherKernel>("exec.slice", BuildGatherPlan(gather, offset, elem_size),
                                        node.num_inputs());
}

}  // namespace ge::exec
