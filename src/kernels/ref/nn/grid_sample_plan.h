// GridSample's coordinate arithmetic (PyTorch's grid_sample, which ONNX specifies), shared by the reference kernel
// and ge's prepared GridSample kernel so that both compute the same taps and weights, in double: a grid value to a
// source coordinate (Unnormalize), border / reflection padding of a coordinate (Fold), the bicubic weights.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace ge::ref::grid_sample {

enum class Pad { kZeros, kBorder, kReflection };
enum class Mode { kBilinear, kNearest, kBicubic };

// False for an unknown name.
inline bool ParseMode(const std::string& s, Mode* m) {
  if (s == "bilinear")
    *m = Mode::kBilinear;
  else if (s == "nearest")
    *m = Mode::kNearest;
  else if (s == "bicubic")
    *m = Mode::kBicubic;
  else
    return false;
  return true;
}
inline bool ParsePad(const std::string& s, Pad* p) {
  if (s == "zeros")
    *p = Pad::kZeros;
  else if (s == "border")
    *p = Pad::kBorder;
  else if (s == "reflection")
    *p = Pad::kReflection;
  else
    return false;
  return true;
}

// Coordinates farther than this (or NaN) sample nothing: the output is 0.
inline bool Samplable(double ix, double iy) { return std::fabs(ix) < 1e15 && std::fabs(iy) < 1e15; }

struct Sampler {
  int64_t h, w;
  bool align;
  Pad pad;

  double Unnormalize(double g, int64_t size) const {
    return align ? (g + 1) / 2 * (size - 1) : ((g + 1) * size - 1) / 2;
  }
  static double Reflect(double v, double twice_lo, double twice_hi) {
    if (twice_lo == twice_hi) return 0;
    const double lo = twice_lo / 2, span = (twice_hi - twice_lo) / 2;
    v = std::fabs(v - lo);
    const double extra = std::fmod(v, span);
    const int64_t flips = static_cast<int64_t>(std::floor(v / span));
    return flips % 2 == 0 ? extra + lo : span - extra + lo;
  }
  // Applies border / reflection padding to a source coordinate.
  double Fold(double v, int64_t size) const {
    if (pad == Pad::kBorder) return std::min(static_cast<double>(size - 1), std::max(v, 0.0));
    if (pad == Pad::kReflection) {
      v = align ? Reflect(v, 0, 2.0 * (size - 1)) : Reflect(v, -1, 2.0 * size - 1);
      return std::min(static_cast<double>(size - 1), std::max(v, 0.0));
    }
    return v;
  }
  // The flat index of (y, x) in an h x w plane, or -1 outside it (a tap that reads 0).
  int64_t Index(int64_t y, int64_t x) const { return y >= 0 && y < h && x >= 0 && x < w ? y * w + x : -1; }
  // A bicubic tap's index: padding applies to the integer tap coordinate.
  int64_t TapIndex(int64_t y, int64_t x) const {
    if (pad == Pad::kZeros) return Index(y, x);
    return Index(static_cast<int64_t>(Fold(static_cast<double>(y), h)),
                 static_cast<int64_t>(Fold(static_cast<double>(x), w)));
  }
};

inline void CubicWeights(double t, double out[4]) {
  const double a = -0.75;
  auto near = [a](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [a](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  out[0] = far(t + 1);
  out[1] = near(t);
  out[2] = near(1 - t);
  out[3] = far(2 - t);
}

}  // namespace ge::ref::grid_sample
