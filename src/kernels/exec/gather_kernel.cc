#include "kernels/exec/gather_kernel.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec {
namespace {

class GatherIndexKernel final : public PreparedKernel {
 public:
  GatherIndexKernel(rt::TaskFn fn, std::string label, int64_t outer, int64_t axis_dim, int64_t inner,
                    int64_t num_indices, size_t elem_size)
      : label_(std::move(label)),
        outer_(outer),
        axis_dim_(axis_dim),
        row_bytes_(static_cast<size_t>(inner) * elem_size),
        num_indices_(num_indices) {
    fn_ = fn;
    num_inputs_ = 2;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.gather"; }

  // Checks every index against [-axis_dim, axis_dim) before anything is written.
  template <typename I>
  Status Check(const I* idx) const {
    for (int64_t j = 0; j < num_indices_; ++j) {
      const int64_t i = static_cast<int64_t>(idx[j]);
      if (i < -axis_dim_ || i >= axis_dim_) {
        return InvalidArgument(label_ + ": indices value " + std::to_string(i) + " is out of range [" +
                               std::to_string(-axis_dim_) + ", " + std::to_string(axis_dim_) + ")");
      }
    }
    return Status::Ok();
  }

  // Rows [r0, r1) of the outer x indices rows.
  template <typename I>
  void CopyRows(const char* data, const I* idx, char* out, int64_t r0, int64_t r1) const {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t o = r / num_indices_, j = r % num_indices_;
      int64_t i = static_cast<int64_t>(idx[j]);
      if (i < 0) i += axis_dim_;
      std::memcpy(out + static_cast<size_t>(r) * row_bytes_, data + static_cast<size_t>(o * axis_dim_ + i) * row_bytes_,
                  row_bytes_);
    }
  }

  int64_t rows() const { return outer_ * num_indices_; }
  size_t row_bytes() const { return row_bytes_; }

 private:
  std::string label_;
  int64_t outer_, axis_dim_;
  size_t row_bytes_;
  int64_t num_indices_;
};

template <typename I>
Status GatherTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const GatherIndexKernel& k = BoundKernel<GatherIndexKernel>(binding);
  const auto* data = static_cast<const char*>(binding.io.inputs[0]);
  const I* idx = static_cast<const I*>(binding.io.inputs[1]);
  auto* out = static_cast<char*>(binding.io.outputs[0]);
  GE_RETURN_IF_ERROR(k.Check(idx));
  const int64_t rows = k.rows();
  if (rows == 0 || k.row_bytes() == 0) return Status::Ok();
  const int64_t bytes = rows * static_cast<int64_t>(k.row_bytes());
  if (bytes / 4 >= kParallelMinElements && ctx.pool != nullptr) {
    const size_t grain = std::max<size_t>(1, kParallelGrain * 4 / k.row_bytes());
    ctx.pool->ParallelFor(
        static_cast<size_t>(rows),
        [&](size_t b, size_t e) { k.CopyRows(data, idx, out, static_cast<int64_t>(b), static_cast<int64_t>(e)); },
        grain);
  } else {
    k.CopyRows(data, idx, out, 0, rows);
  }
  return Status::Ok();
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareGather(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() != 2 || node.num_outputs() != 1 || !InputPresent(r, 0) ||
      !InputPresent(r, 1) || !OutputPresent(r, 0)) {
    return nullptr;
  }
  const TensorDesc& data = r.input_descs[0];
  const TensorDesc& indices = r.input_descs[1];
  const size_t elem_size = GatherElemSize(data.dtype);
  if (elem_size == 0 || r.output_descs[0].dtype != data.dtype) return nullptr;
  rt::TaskFn fn = nullptr;
  if (indices.dtype == DataType::kInt64) fn = &GatherTask<int64_t>;
  if (indices.dtype == DataType::kInt32) fn = &GatherTask<int32_t>;
  if (fn == nullptr) return nullptr;
  const Dims& d = data.shape.dims();
  const int rank = static_cast<int>(d.size());
  int64_t axis = node.attrs().GetInt("axis", 0);
  if (rank < 1 || axis < -rank || axis >= rank) return nullptr;  // ref reports it
  if (axis < 0) axis += rank;
  Dims want(d.begin(), d.begin() + axis);
  const Dims& id = indices.shape.dims();
  want.insert(want.end(), id.begin(), id.end());
  want.insert(want.end(), d.begin() + axis + 1, d.end());
  if (want != r.output_descs[0].shape.dims()) return nullptr;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= d[i];
  for (int i = static_cast<int>(axis) + 1; i < rank; ++i) inner *= d[i];
  return std::make_unique<GatherIndexKernel>(fn, NodeLabel(node), outer, d[axis], inner, NumElements(id), elem_size);
}

}  // namespace ge::exec
