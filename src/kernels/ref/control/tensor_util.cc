#include <cstring>
#include <string>

#include "kernels/ref/control/control_kernels.h"

namespace ge::ref::control {

void CopyElements(DataType dt, const void* src, int64_t src_off, void* dst, int64_t dst_off, int64_t count) {
  if (count <= 0) return;
  if (dt == DataType::kString) {
    const std::string* s = static_cast<const std::string*>(src) + src_off;
    std::string* d = static_cast<std::string*>(dst) + dst_off;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return;
  }
  const size_t es = DataTypeSize(dt);
  std::memcpy(static_cast<char*>(dst) + dst_off * es, static_cast<const char*>(src) + src_off * es, count * es);
}

StatusOr<Tensor> SliceAxis(const Tensor& t, int axis, int64_t start, int64_t len) {
  if (axis < 0 || axis >= t.rank()) return OutOfRange("axis " + std::to_string(axis) + " out of range");
  if (start < 0 || len < 0 || start + len > t.dim(axis)) {
    return OutOfRange("slice [" + std::to_string(start) + ", " + std::to_string(start + len) + ") out of range for " +
                      "dim " + std::to_string(t.dim(axis)));
  }
  Dims dims = t.dims();
  dims[axis] = len;
  GE_ASSIGN_OR_RETURN(Tensor out, Tensor::Create(t.dtype(), dims));
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= t.dim(i);
  for (int i = axis + 1; i < t.rank(); ++i) inner *= t.dim(i);
  const int64_t in_block = t.dim(axis) * inner, out_block = len * inner;
  for (int64_t o = 0; o < outer; ++o) {
    CopyElements(t.dtype(), t.raw_data(), o * in_block + start * inner, out.raw_data(), o * out_block, out_block);
  }
  return out;
}

StatusOr<Tensor> TakeAxis(const Tensor& t, int axis, int64_t index) {
  if (axis < 0 || axis >= t.rank()) return OutOfRange("axis " + std::to_string(axis) + " out of range");
  if (index < 0 || index >= t.dim(axis)) {
    return OutOfRange("index " + std::to_string(index) + " out of range for dim " + std::to_string(t.dim(axis)));
  }
  Dims dims = t.dims();
  dims.erase(dims.begin() + axis);
  if (axis == 0) {  // a view: the rows are contiguous
    const size_t offset = t.byte_offset() + static_cast<size_t>(index * NumElements(dims)) * DataTypeSize(t.dtype());
    return Tensor(t.dtype(), dims, t.storage(), offset);
  }
  GE_ASSIGN_OR_RETURN(Tensor s, SliceAxis(t, axis, index, 1));
  return s.Reshaped(dims);
}

StatusOr<Tensor> ConcatTensors(const std::vector<Tensor>& ts, int axis, bool new_axis) {
  if (ts.empty()) return InvalidArgument("nothing to concatenate");
  const Tensor& first = ts[0];
  const int r = first.rank();
  if (axis < 0 || axis > r || (!new_axis && axis == r)) {
    return OutOfRange("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(r));
  }
  Dims out_dims = first.dims();
  if (new_axis) {
    out_dims.insert(out_dims.begin() + axis, 0);
  } else {
    out_dims[axis] = 0;
  }
  for (const Tensor& t : ts) {
    if (t.dtype() != first.dtype()) {
      return InvalidArgument(std::string("cannot concatenate ") + DataTypeName(t.dtype()) + " with " +
                             DataTypeName(first.dtype()));
    }
    if (t.rank() != r) return InvalidArgument("cannot concatenate tensors of different ranks");
    for (int i = 0; i < r; ++i) {
      if (i != axis || new_axis) {
        if (t.dim(i) != first.dim(i)) {
          return InvalidArgument("cannot concatenate " + DimsToString(t.dims()) + " with " +
                                 DimsToString(first.dims()) + " along axis " + std::to_string(axis));
        }
      }
    }
    out_dims[axis] += new_axis ? 1 : t.dim(axis);
  }
  GE_ASSIGN_OR_RETURN(Tensor out, Tensor::Create(first.dtype(), out_dims));
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= out_dims[i];
  for (int i = axis + 1; i < static_cast<int>(out_dims.size()); ++i) inner *= out_dims[i];
  const int64_t out_block = out_dims[axis] * inner;
  int64_t pos = 0;  // running offset along axis, in elements of one outer block
  for (const Tensor& t : ts) {
    const int64_t block = (new_axis ? 1 : t.dim(axis)) * inner;
    for (int64_t o = 0; o < outer; ++o) {
      CopyElements(t.dtype(), t.raw_data(), o * block, out.raw_data(), o * out_block + pos, block);
    }
    pos += block;
  }
  return out;
}

}  // namespace ge::ref::control
