// The sampling of Resize / Upsample, shared by the reference kernel and ge's prepared Resize kernel so that both
// pick the same source indices and weights: the attributes read per op and opset (ReadResizeConfig) and, per
// resized axis, each output index's taps (PlanResizeAxis), following the ONNX reference implementation
// (onnx/backend/test/case/node/resize.py) with edge-clamped indices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/attribute.h"
#include "ops/shape/shape_params.h"

namespace ge::ref::resize {

enum class ResizeMode { kNearest, kLinear, kCubic };

struct ResizeConfig {
  ResizeMode mode = ResizeMode::kNearest;
  std::string coord = "half_pixel";
  std::string nearest_mode = "round_prefer_floor";  // or "simple" (opset 10 / Upsample: floor, ceil when shrinking)
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
  std::vector<double> roi;  // [starts..., ends...] for tf_crop_and_resize
  ops::shape_family::ResizeTarget target;
};

// Where the node's optional inputs are (-1: none): Resize-11+ has roi, scales, sizes; Resize-10 and Upsample-9
// scales only; Upsample-7 takes its scales from an attribute.
struct ResizeInputSlots {
  int roi = -1;
  int scales = -1;
  int sizes = -1;
};
ResizeInputSlots ResizeInputsOf(const std::string& op_type, int64_t opset);

// The mode and sampling attributes of a Resize or Upsample node (everything but roi, scales and sizes).
// InvalidArgument with the reason (no node label) for an unsupported mode or attribute.
Status ReadResizeConfig(const std::string& op_type, const ir::AttrMap& attrs, int64_t opset, ResizeConfig* cfg);

// Taps of one axis: for output j, `taps` (index, weight) pairs starting at j * taps; extrapolate[j] marks outputs
// that take the extrapolation value. identity: the axis is unchanged (the reference skips its pass).
struct AxisPlan {
  int taps = 1;
  std::vector<int64_t> index;
  std::vector<double> weight;
  std::vector<char> extrapolate;
  bool identity = false;
};

// The plan of axis `axis` of a rank-`rank` input from `in` to `out` elements; cfg.target (and cfg.roi for
// tf_crop_and_resize) must be set.
AxisPlan PlanResizeAxis(const ResizeConfig& cfg, int axis, int rank, int64_t in, int64_t out);

}  // namespace ge::ref::resize
