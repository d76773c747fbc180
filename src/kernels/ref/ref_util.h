// Helpers shared by reference kernels: broadcasting, strides, axis handling.
#pragma once
#include <cstdint>
#include <vector>

#include "base/shape.h"
#include "base/status.h"

namespace ge::ref {

// Numpy broadcast of two known shapes.
StatusOr<Dims> BroadcastDims(const Dims& a, const Dims& b);
// Row-major strides in elements.
std::vector<int64_t> RowMajorStrides(const Dims& dims);
// Strides of `in` viewed at the rank of `out` with 0 for broadcast dims (in must broadcast to out).
std::vector<int64_t> BroadcastStrides(const Dims& in, const Dims& out);
// Maps axis in [-rank, rank) to [0, rank); OutOfRange otherwise.
StatusOr<int> NormalizeAxis(int64_t axis, int rank);

// Calls f(out_index, offsets) for every element of `out`, in row-major order, where offsets[k] is the element
// offset into input k (whose dims broadcast to out). Incremental: no division per element.
template <typename F>
void ForEachBroadcast(const Dims& out, const std::vector<Dims>& ins, F&& f) {
  const int rank = static_cast<int>(out.size());
  const size_t n_in = ins.size();
  std::vector<std::vector<int64_t>> strides(n_in);
  for (size_t k = 0; k < n_in; ++k) strides[k] = BroadcastStrides(ins[k], out);
  int64_t total = NumElements(out);
  if (total == 0) return;
  std::vector<int64_t> idx(rank, 0);
  std::vector<int64_t> off(n_in, 0);
  for (int64_t i = 0; i < total; ++i) {
    f(i, off.data());
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) {
        for (size_t k = 0; k < n_in; ++k) off[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < n_in; ++k) off[k] -= strides[k][d] * (out[d] - 1);
      idx[d] = 0;
    }
  }
}

}  // namespace ge::ref
