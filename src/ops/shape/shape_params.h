// Parameter normalization shared by the shape family's inference functions and reference kernels (header-only so
// that kernels need not link the op library): Slice ranges, Pad amounts, Resize sizes and coordinate settings.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"

namespace ge::ops::shape_family {

// One sliced axis after ONNX clamping: output element j reads input index start + j * step.
struct SliceAxis {
  int64_t start = 0;
  int64_t step = 1;
  int64_t length = 0;
};

// Clamps start/end for a dim of known size `dim` following the ONNX Slice rules (opset 10+; also opset 1 with
// step 1).
inline SliceAxis ClampSlice(int64_t dim, int64_t start, int64_t end, int64_t step) {
  SliceAxis a;
  a.step = step;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::min(std::max<int64_t>(start, 0), dim);
    end = std::min(std::max<int64_t>(end, 0), dim);
    a.length = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = std::min(std::max<int64_t>(start, 0), dim - 1);
    end = std::min(std::max<int64_t>(end, -1), dim - 1);
    a.length = start > end ? (start - end - 1) / (-step) + 1 : 0;
  }
  a.start = start;
  return a;
}

// Checks the per-axis lists of a Slice and normalizes axes (default 0..n-1) and steps (default 1).
inline Status NormalizeSliceArgs(int rank, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                                 std::vector<int64_t>* axes, std::vector<int64_t>* steps) {
  size_t n = starts.size();
  if (ends.size() != n) return InvalidArgument("starts and ends must have the same length");
  if (axes->empty()) {
    if (n > static_cast<size_t>(rank)) return InvalidArgument("more starts than input dims");
    for (size_t i = 0; i < n; ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (steps->empty()) steps->assign(n, 1);
  if (axes->size() != n) return InvalidArgument("axes must have the same length as starts");
  if (steps->size() != n) return InvalidArgument("steps must have the same length as starts");
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    int64_t a = (*axes)[i];
    if (a < -rank || a >= rank) {
      return OutOfRange("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    }
    if (a < 0) a += rank;
    if (seen[a]) return InvalidArgument("axis " + std::to_string(a) + " is repeated");
    seen[a] = true;
    (*axes)[i] = a;
    if ((*steps)[i] == 0) return InvalidArgument("slice step cannot be 0");
    if ((*steps)[i] == INT64_MIN) return InvalidArgument("slice step is out of range");
  }
  return Status::Ok();
}

// Pads as 2*rank entries [begin_0.., end_0..]; output dims must not go negative.
inline StatusOr<Dims> PaddedDims(const Dims& in, const std::vector<int64_t>& pads) {
  size_t r = in.size();
  if (pads.size() != 2 * r) {
    return InvalidArgument("pads has " + std::to_string(pads.size()) + " entries; expected 2 * rank = " +
                           std::to_string(2 * r));
  }
  Dims out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t limit = int64_t{1} << 60;
    if (pads[i] > limit || pads[i] < -limit || pads[i + r] > limit || pads[i + r] < -limit) {
      return InvalidArgument("pad amount is out of range");
    }
    out[i] = in[i] == kUnknownDim ? kUnknownDim : in[i] + pads[i] + pads[i + r];
    if (in[i] != kUnknownDim && out[i] < 0) {
      return InvalidArgument("pads make dim " + std::to_string(i) + " negative");
    }
  }
  return out;
}

// Resize output dim from a scale: floor(dim * scale), as the ONNX reference computes it.
inline StatusOr<int64_t> ScaledDim(int64_t dim, double scale) {
  if (!(scale > 0) || !std::isfinite(scale)) return InvalidArgument("resize scales must be positive and finite");
  double v = std::floor(static_cast<double>(dim) * scale);
  if (v > static_cast<double>(int64_t{1} << 53)) return InvalidArgument("resize output dim is too large");
  return static_cast<int64_t>(v);
}

inline bool IsValidCoordinateMode(const std::string& m, int64_t opset) {
  return m == "half_pixel" || m == "pytorch_half_pixel" || m == "align_corners" || m == "asymmetric" ||
         m == "tf_crop_and_resize" || (m == "tf_half_pixel_for_nn" && opset < 13);
}

inline bool IsValidNearestMode(const std::string& m) {
  return m == "round_prefer_floor" || m == "round_prefer_ceil" || m == "floor" || m == "ceil";
}

// Per-axis scale and output dim of a Resize/Upsample. `sizes` (when non-null and non-empty) wins over `scales`;
// the scale of a sized axis is out / in, as the ONNX reference uses it for coordinate transforms.
struct ResizeTarget {
  std::vector<double> scales;
  Dims out;
  bool from_sizes = false;
};

inline StatusOr<ResizeTarget> ComputeResizeTarget(const Dims& in, const std::vector<double>* scales,
                                                  const std::vector<int64_t>* sizes) {
  ResizeTarget t;
  const size_t r = in.size();
  if (sizes && !sizes->empty()) {
    if (scales && !scales->empty()) return InvalidArgument("only one of scales and sizes may be given");
    if (sizes->size() != r) {
      return InvalidArgument("sizes has " + std::to_string(sizes->size()) + " entries for rank " + std::to_string(r));
    }
    t.from_sizes = true;
    t.out = *sizes;
    for (size_t i = 0; i < r; ++i) {
      if ((*sizes)[i] < 0) return InvalidArgument("sizes must be non-negative");
      t.scales.push_back(in[i] == 0 ? 1.0 : static_cast<double>((*sizes)[i]) / static_cast<double>(in[i]));
    }
    return t;
  }
  if (!scales || scales->empty()) return InvalidArgument("one of scales and sizes is required");
  if (scales->size() != r) {
    return InvalidArgument("scales has " + std::to_string(scales->size()) + " entries for rank " + std::to_string(r));
  }
  t.scales = *scales;
  for (size_t i = 0; i < r; ++i) {
    GE_ASSIGN_OR_RETURN(int64_t d, ScaledDim(in[i], (*scales)[i]));
    t.out.push_back(d);
  }
  return t;
}

}  // namespace ge::ops::shape_family
