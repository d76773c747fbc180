#include "kernels/exec/expand_kernel.h"

#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec {

std::unique_ptr<PreparedKernel> PrepareExpand(const PrepareRequest& r) {
  if (HasVaryingDims(r)) return nullptr;
  const size_t elem_size = GatherableElemSize(r);
  if (elem_size == 0) return nullptr;
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& y = r.output_descs[0];
  if (IsNonPlainLayout(x.format) || IsNonPlainLayout(y.format)) return nullptr;
  const Dims& xd = x.shape.dims();
  const Dims& yd = y.shape.dims();
  if (xd.size() > yd.size()) return nullptr;
  const std::vector<int64_t> strides = ContiguousStrides(xd);
  const size_t lead = yd.size() - xd.size();
  std::vector<GatherAxis> axes;
  for (size_t k = 0; k < yd.size(); ++k) {
    if (k < lead) {
      axes.push_back({yd[k], 0});
      continue;
    }
    const int64_t d = xd[k - lead];
    if (d == yd[k]) {
      axes.push_back({yd[k], strides[k - lead]});
    } else if (d == 1) {
      axes.push_back({yd[k], 0});
    } else {
      return nullptr;
    }
  }
  return std::make_unique<GatherKernel>("exec.expand", BuildGatherPlan(axes, 0, elem_size), r.node->num_inputs());
}

}  // namespace ge::exec
