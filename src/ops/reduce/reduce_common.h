// Helpers shared by the reduce family's inference (src/ops/reduce) and reference kernels
// (src/kernels/ref/reduce). Header-only so that the kernel library needs no link dependency on the op library.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"

namespace ge::ops::reduce {

// Whether a Reduce* op reads its axes from input 1 (ReduceSum from opset 13, the others from opset 18) instead of
// the `axes` attribute.
inline bool ReduceAxesFromInput(const std::string& op, int64_t opset) {
  return op == "ReduceSum" ? opset >= 13 : opset >= 18;
}

// Marks the reduced axes of a rank-`rank` tensor. Axes may be negative; out-of-range or repeated axes are errors.
inline Status ReduceMask(const std::vector<int64_t>& axes, int rank, std::vector<bool>* mask) {
  mask->assign(rank, false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      return InvalidArgument("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    }
    int64_t n = a < 0 ? a + rank : a;
    if ((*mask)[n]) return InvalidArgument("axis " + std::to_string(a) + " is repeated in axes");
    (*mask)[n] = true;
  }
  return Status::Ok();
}

// Output dims of a reduction of `dims` over `mask`.
inline Dims ReducedDims(const Dims& dims, const std::vector<bool>& mask, bool keepdims) {
  Dims out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!mask[i]) {
      out.push_back(dims[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return out;
}

}  // namespace ge::ops::reduce
