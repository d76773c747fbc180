#include "kernels/ref/shape/resize_plan.h"

#include <algorithm>
#include <cmath>

namespace ge::ref::resize {
namespace {

void CubicCoeffs(double t, double a, double* c) {
  const double t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  c[0] = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  c[2] = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  c[3] = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
}

Status ParseMode(const ir::AttrMap& attrs, ResizeMode* mode) {
  const std::string m = attrs.GetString("mode", "nearest");
  if (m == "nearest") {
    *mode = ResizeMode::kNearest;
  } else if (m == "linear" || m == "bilinear") {
    *mode = ResizeMode::kLinear;
  } else if (m == "cubic") {
    *mode = ResizeMode::kCubic;
  } else {
    return InvalidArgument("unsupported mode '" + m + "'");
  }
  return Status::Ok();
}

}  // namespace

ResizeInputSlots ResizeInputsOf(const std::string& op_type, int64_t opset) {
  ResizeInputSlots s;
  if (op_type == "Upsample") {
    if (opset >= 9) s.scales = 1;
  } else if (opset < 11) {
    s.scales = 1;
  } else {
    s.roi = 1;
    s.scales = 2;
    s.sizes = 3;
  }
  return s;
}

Status ReadResizeConfig(const std::string& op_type, const ir::AttrMap& attrs, int64_t opset, ResizeConfig* cfg) {
  GE_RETURN_IF_ERROR(ParseMode(attrs, &cfg->mode));
  if (op_type == "Upsample" || opset < 11) {
    // Upsample and Resize-10 sample with asymmetric coordinates.
    if (op_type == "Upsample" && cfg->mode == ResizeMode::kCubic) {
      return InvalidArgument("Upsample does not support cubic");
    }
    cfg->coord = "asymmetric";
    cfg->nearest_mode = "simple";
    return Status::Ok();
  }
  cfg->coord = attrs.GetString("coordinate_transformation_mode", "half_pixel");
  cfg->nearest_mode = attrs.GetString("nearest_mode", "round_prefer_floor");
  cfg->cubic_a = attrs.GetFloat("cubic_coeff_a", -0.75f);
  cfg->exclude_outside = attrs.GetInt("exclude_outside", 0) != 0;
  cfg->extrapolation = attrs.GetFloat("extrapolation_value", 0.0f);
  if (!ops::shape_family::IsValidCoordinateMode(cfg->coord, opset)) {
    return InvalidArgument("unsupported coordinate_transformation_mode '" + cfg->coord + "'");
  }
  if (!ops::shape_family::IsValidNearestMode(cfg->nearest_mode)) {
    return InvalidArgument("unsupported nearest_mode '" + cfg->nearest_mode + "'");
  }
  return Status::Ok();
}

AxisPlan PlanResizeAxis(const ResizeConfig& cfg, int axis, int rank, int64_t in, int64_t out) {
  AxisPlan p;
  p.taps = cfg.mode == ResizeMode::kNearest ? 1 : cfg.mode == ResizeMode::kLinear ? 2 : 4;
  p.index.assign(out * p.taps, 0);
  p.weight.assign(out * p.taps, 0.0);
  p.extrapolate.assign(out, 0);
  const double s = cfg.target.scales[axis];
  const double out_w = cfg.target.from_sizes ? static_cast<double>(out) : s * static_cast<double>(in);
  const double in_last = static_cast<double>(in - 1);
  for (int64_t x = 0; x < out; ++x) {
    const double xd = static_cast<double>(x);
    double xo = 0;
    if (cfg.coord == "half_pixel") {
      xo = (xd + 0.5) / s - 0.5;
    } else if (cfg.coord == "pytorch_half_pixel") {
      xo = out_w == 1 ? -0.5 : (xd + 0.5) / s - 0.5;
    } else if (cfg.coord == "align_corners") {
      xo = out_w == 1 ? 0 : xd * in_last / (out_w - 1);
    } else if (cfg.coord == "asymmetric") {
      xo = xd / s;
    } else if (cfg.coord == "tf_half_pixel_for_nn") {
      xo = (xd + 0.5) / s;
    } else {  // tf_crop_and_resize
      const double r0 = cfg.roi[axis], r1 = cfg.roi[axis + rank];
      xo = out_w == 1 ? (r1 - r0) * in_last / 2 : xd * (r1 - r0) * in_last / (out_w - 1);
      xo += r0 * in_last;
      if (xo < 0 || xo > in_last) {
        p.extrapolate[x] = 1;
        continue;
      }
    }
    int64_t* idx = &p.index[x * p.taps];
    double* w = &p.weight[x * p.taps];
    const double fl = std::floor(xo);
    const bool integral = xo == fl;
    if (cfg.mode == ResizeMode::kNearest) {
      double pick;
      if (cfg.nearest_mode == "simple") {
        pick = s < 1 ? std::ceil(xo) : fl;
      } else if (integral) {
        pick = xo;
      } else {
        const double ratio = xo - fl;
        bool up = cfg.nearest_mode == "ceil" || (cfg.nearest_mode == "round_prefer_floor" && ratio > 0.5) ||
                  (cfg.nearest_mode == "round_prefer_ceil" && ratio >= 0.5);
        pick = up ? fl + 1 : fl;
      }
      idx[0] = static_cast<int64_t>(std::clamp(pick, 0.0, in_last));
      w[0] = 1;
      continue;
    }
    // The left neighbour is strictly left of xo (ratio in (0, 1]), as in the reference.
    const double base = integral ? xo - 1 : fl;
    const double ratio = integral ? 1.0 : xo - fl;
    double raw[4];
    if (cfg.mode == ResizeMode::kLinear) {
      raw[0] = base;
      raw[1] = base + 1;
      w[0] = 1 - ratio;
      w[1] = ratio;
    } else {
      for (int t = 0; t < 4; ++t) raw[t] = base - 1 + t;
      CubicCoeffs(ratio, cfg.cubic_a, w);
    }
    if (cfg.exclude_outside) {
      double sum = 0;
      for (int t = 0; t < p.taps; ++t) {
        if (raw[t] < 0 || raw[t] > in_last) w[t] = 0;
        sum += w[t];
      }
      if (sum != 0)
        for (int t = 0; t < p.taps; ++t) w[t] /= sum;
    }
    for (int t = 0; t < p.taps; ++t) idx[t] = static_cast<int64_t>(std::clamp(raw[t], 0.0, in_last));
  }
  p.identity = in == out;
  for (int64_t x = 0; x < out && p.identity; ++x) {
    if (p.extrapolate[x]) p.identity = false;
    for (int t = 0; t < p.taps; ++t) {
      const double w = p.weight[x * p.taps + t];
      if (w != 0 && (p.index[x * p.taps + t] != x || w != 1)) p.identity = false;
    }
  }
  return p;
}

}  // namespace ge::ref::resize
