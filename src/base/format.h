// Tensor layouts. On the CPU, NC1HWC0 is C split in blocks of C0 channels (oneDNN nChw16c for C0 = 16, nChw8c
// for C0 = 8) and FRACTAL_Z a blocked weight layout (oneDNN OIhw16i16o family).
//
// As in GE (GetFormatFromC0), a format value may carry its C0 in bits 24..27 as log2(C0); no bits means the
// default C0 of 16, so NC1HWC0 with C0 = 16 is plain Format::kNC1HWC0. Compare layouts with PrimaryFormat().
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

// NC1HWC0's default channel block: C is padded up to a multiple of C0 in memory.
constexpr int64_t kC0 = 16;

// The layout without its C0.
inline Format PrimaryFormat(Format f) { return static_cast<Format>(static_cast<int32_t>(f) & 0xff); }
// The channel block of an NC1HWC0 format (kC0 unless the format carries another).
inline int64_t FormatC0(Format f) {
  const int bits = (static_cast<int32_t>(f) >> 24) & 0xf;
  return bits == 0 ? kC0 : int64_t{1} << bits;
}
// `f` with channel block c0 (a power of two from 2 to 2^15); c0 == kC0 gives the plain value.
inline Format WithC0(Format f, int64_t c0) {
  int bits = 0;
  while ((int64_t{1} << bits) < c0) ++bits;
  if (c0 == kC0) return PrimaryFormat(f);
  return static_cast<Format>(static_cast<int32_t>(PrimaryFormat(f)) | (bits << 24));
}

// The formats ge has kernels for: the five layouts, and NC1HWC0 with C0 = 8 (AVX2 targets) besides 16.
inline bool IsValidFormat(Format f) {
  const int32_t v = static_cast<int32_t>(f);
  if (v >= 0 && v <= static_cast<int32_t>(Format::kFractalZ)) return true;
  return f == WithC0(Format::kNC1HWC0, 8);
}

inline const char* FormatName(Format f) {
  switch (f) {
    case Format::kND: return "ND";
    case Format::kNCHW: return "NCHW";
    case Format::kNHWC: return "NHWC";
    case Format::kNC1HWC0: return "NC1HWC0";
    case Format::kFractalZ: return "FRACTAL_Z";
  }
  if (f == WithC0(Format::kNC1HWC0, 8)) return "NC1HWC0_C8";
  return "INVALID";
}

// Layouts whose memory order is not row-major over the logical dims (a tensor's Shape is always logical, e.g.
// [N, C, H, W] for NHWC and NC1HWC0 activations): only kernels that know the layout may read or write them.
inline bool IsNonPlainLayout(Format f) {
  const Format p = PrimaryFormat(f);
  return p == Format::kNHWC || p == Format::kNC1HWC0 || p == Format::kFractalZ;
}

// The inverse of FormatName; false for an unknown name.
inline bool ParseFormat(const std::string& name, Format* f) {
  for (Format c : {Format::kND, Format::kNCHW, Format::kNHWC, Format::kNC1HWC0, Format::kFractalZ,
                   WithC0(Format::kNC1HWC0, 8)}) {
    if (name == FormatName(c)) {
      *f = c;
      return true;
    }
  }
  return false;
}

}  // namespace ge
