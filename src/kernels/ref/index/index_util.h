// Helpers shared by the index kernels: reading and range-checking index tensors, copying runs of elements of any
// dtype, and walking a tensor's positions with per-dimension strides.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/tensor.h"
#include "kernels/ref/kernel_context.h"

namespace ge::ref::index_util {

// The elements of an int32 or int64 tensor as int64; an error naming `what` for any other dtype.
StatusOr<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, const Tensor& t, const std::string& what);

// Maps every index from [-n, n) to [0, n); the first one outside is an error naming the node, `what` and n.
Status NormalizeIndices(const KernelContext& ctx, std::vector<int64_t>* idx, int64_t n, const std::string& what);

// Copies runs of elements of one dtype: memcpy for plain types, assignment for strings.
class RowCopier {
 public:
  explicit RowCopier(DataType dt) : string_(dt == DataType::kString), size_(DataTypeSize(dt)) {}
  void Copy(const void* src, int64_t src_off, void* dst, int64_t dst_off, int64_t n) const {
    if (n <= 0) return;
    if (string_) {
      const std::string* s = static_cast<const std::string*>(src) + src_off;
      std::string* d = static_cast<std::string*>(dst) + dst_off;
      for (int64_t i = 0; i < n; ++i) d[i] = s[i];
    } else {
      std::memcpy(static_cast<char*>(dst) + dst_off * size_, static_cast<const char*>(src) + src_off * size_,
                  static_cast<size_t>(n) * size_);
    }
  }

 private:
  bool string_;
  size_t size_;
};

// Product of dims[begin, end).
int64_t DimProduct(const Dims& dims, int begin, int end);

// Calls f(i, offset) for every position i (row-major) of a tensor with `dims`, where offset = sum over d of
// index[d] * strides[d]. Incremental: no division per element.
template <typename F>
void ForEachOffset(const Dims& dims, const std::vector<int64_t>& strides, F&& f) {
  const int64_t total = NumElements(dims);
  if (total == 0) return;
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> pos(rank, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < total; ++i) {
    f(i, off);
    for (int d = rank - 1; d >= 0; --d) {
      if (++pos[d] < dims[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (dims[d] - 1);
      pos[d] = 0;
    }
  }
}

}  // namespace ge::ref::index_util
