// Tensor layouts. On the CPU, NC1HWC0 is C split in blocks of C0 = 16 (oneDNN nChw16c) and FRACTAL_Z is a
// blocked weight layout (oneDNN OIhw16i16o family).
#pragma once
#include <cstdint>

namespace ge {

enum class Format : int32_t {
  kND = 0,
  kNCHW,
  kNHWC,
  kNC1HWC0,
  kFractalZ,
};

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

}  // namespace ge
