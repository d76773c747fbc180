// Tensor layouts. On the CPU, NC1HWC0 is C split in blocks of C0 = 16 (oneDNN nChw16c) and FRACTAL_Z is a
// blocked weight layout (oneDNN OIhw16i16o family).
#pragma once
#include <cstdint>
#include <string>

namespace ge {

enum class Format : int32_t {
  kND = 0,
  kNCHW,
  kNHWC,
  kNC1HWC0,
  kFractalZ,
};

// NC1HWC0's channel block: C is padded up to a multiple of kC0 in memory.
constexpr int64_t kC0 = 16;

inline const char* FormatName(Format f) {
  switch (f) {
    case Format::kND: return "ND";
    case Format::kNCHW: return "NCHW";
    case Format::kNHWC: return "NHWC";
    case Format::kNC1HWC0: return "NC1HWC0";
    case Format::kFractalZ: return "FRACTAL_Z";
  }
  return "INVALID";
}

// Layouts whose memory order is not row-major over the logical dims (a tensor's Shape is always logical, e.g.
// [N, C, H, W] for NHWC and NC1HWC0 activations): only kernels that know the layout may read or write them.
inline bool IsNonPlainLayout(Format f) {
  return f == Format::kNHWC || f == Format::kNC1HWC0 || f == Format::kFractalZ;
}

// The inverse of FormatName; false for an unknown name.
inline bool ParseFormat(const std::string& name, Format* f) {
  for (Format c : {Format::kND, Format::kNCHW, Format::kNHWC, Format::kNC1HWC0, Format::kFractalZ}) {
    if (name == FormatName(c)) {
      *f = c;
      return true;
    }
  }
  return false;
}

}  // namespace ge
