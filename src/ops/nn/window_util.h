// Sliding-window geometry shared by the nn family's inference and reference kernels (Conv, ConvTranspose,
// pooling): attribute parsing (kernel_shape, strides, dilations, pads, auto_pad, ceil_mode) and output sizes.
// Header-only so that the kernels library does not link against the ops library.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"
#include "ir/attribute.h"

namespace ge::nn {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

struct Window {
  int nsp = 0;                     // number of spatial dims
  std::vector<int64_t> kernel;     // kUnknownDim when not known (Conv with unknown weight shape)
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;       // begins then ends (2 * nsp); recomputed per input for SAME_*
  AutoPad auto_pad = AutoPad::kNotSet;
  bool ceil_mode = false;
};

inline Status ParseAutoPad(const ir::AttrMap& a, AutoPad* out) {
  std::string s = a.GetString("auto_pad", "NOTSET");
  if (s == "NOTSET" || s.empty()) *out = AutoPad::kNotSet;
  else if (s == "SAME_UPPER") *out = AutoPad::kSameUpper;
  else if (s == "SAME_LOWER") *out = AutoPad::kSameLower;
  else if (s == "VALID") *out = AutoPad::kValid;
  else return InvalidArgument("unknown auto_pad '" + s + "'");
  return Status::Ok();
}

inline Status ReadPositiveList(const ir::AttrMap& a, const char* name, int nsp, std::vector<int64_t>* out) {
  std::vector<int64_t> v = a.GetInts(name);
  if (v.empty()) {
    out->assign(nsp, 1);
    return Status::Ok();
  }
  if (static_cast<int>(v.size()) != nsp) {
    return InvalidArgument(std::string(name) + " has " + std::to_string(v.size()) + " values, expected " +
                           std::to_string(nsp));
  }
  for (int64_t x : v)
    if (x < 1) return InvalidArgument(std::string(name) + " values must be >= 1, got " + std::to_string(x));
  *out = std::move(v);
  return Status::Ok();
}

// Reads the window attributes for nsp spatial dims. kernel_from_weights (may be nullptr) supplies kernel dims
// when the kernel_shape attribute is absent (Conv); require_kernel makes a missing kernel an error (pooling).
inline Status ParseWindow(const ir::AttrMap& a, int nsp, const std::vector<int64_t>* kernel_from_weights,
                          bool require_kernel, Window* w) {
  w->nsp = nsp;
  std::vector<int64_t> k = a.GetInts("kernel_shape");
  if (k.empty()) {
    if (kernel_from_weights) {
      k = *kernel_from_weights;
    } else if (require_kernel) {
      return InvalidArgument("kernel_shape attribute is required");
    } else {
      k.assign(nsp, kUnknownDim);
    }
  }
  if (static_cast<int>(k.size()) != nsp) {
    return InvalidArgument("kernel_shape has " + std::to_string(k.size()) + " dims, expected " + std::to_string(nsp));
  }
  for (int64_t x : k)
    if (x < 1 && x != kUnknownDim) return InvalidArgument("kernel_shape values must be >= 1");
  w->kernel = std::move(k);
  GE_RETURN_IF_ERROR(ReadPositiveList(a, "strides", nsp, &w->strides));
  GE_RETURN_IF_ERROR(ReadPositiveList(a, "dilations", nsp, &w->dilations));
  std::vector<int64_t> p = a.GetInts("pads");
  if (p.empty()) p.assign(2 * nsp, 0);
  if (static_cast<int>(p.size()) != 2 * nsp) {
    return InvalidArgument("pads has " + std::to_string(p.size()) + " values, expected " + std::to_string(2 * nsp));
  }
  for (int64_t x : p)
    if (x < 0) return InvalidArgument("pads must be non-negative");
  w->pads = std::move(p);
  GE_RETURN_IF_ERROR(ParseAutoPad(a, &w->auto_pad));
  int64_t cm = a.GetInt("ceil_mode", 0);
  if (cm != 0 && cm != 1) return InvalidArgument("ceil_mode must be 0 or 1");
  w->ceil_mode = cm == 1;
  return Status::Ok();
}

// Output size of spatial dim i for input size `in`; fills w->pads[i], w->pads[i + nsp] for SAME_* and VALID.
// Returns kUnknownDim when in or the kernel is unknown. Follows the ONNX 1.12 formulas (no adjustment of the last
// ceil_mode window).
inline StatusOr<int64_t> WindowOutputDim(Window* w, int i, int64_t in) {
  const int64_t k = w->kernel[i];
  if (in == kUnknownDim || k == kUnknownDim) return kUnknownDim;
  const int64_t s = w->strides[i], d = w->dilations[i];
  const int64_t ek = (k - 1) * d + 1;
  int64_t& pb = w->pads[i];
  int64_t& pe = w->pads[i + w->nsp];
  switch (w->auto_pad) {
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower: {
      int64_t out = (in + s - 1) / s;
      int64_t total = (out - 1) * s + ek - in;
      if (total < 0) total = 0;
      pb = w->auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
      pe = total - pb;
      return out;
    }
    case AutoPad::kValid:
      pb = pe = 0;
      break;
    case AutoPad::kNotSet:
      break;
  }
  int64_t span = in + pb + pe - ek;
  if (span < 0) {
    return InvalidArgument("window of extent " + std::to_string(ek) + " does not fit padded input of size " +
                           std::to_string(in + pb + pe));
  }
  return (w->ceil_mode ? (span + s - 1) / s : span / s) + 1;
}

// Output spatial dims for the given input spatial dims (entries may be kUnknownDim).
inline StatusOr<std::vector<int64_t>> WindowOutputDims(Window* w, const std::vector<int64_t>& in) {
  std::vector<int64_t> out(w->nsp);
  for (int i = 0; i < w->nsp; ++i) {
    GE_ASSIGN_OR_RETURN(out[i], WindowOutputDim(w, i, in[i]));
  }
  return out;
}


inline int64_t FloorDiv2(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// ConvTranspose attributes beyond the window: output_padding and output_shape (spatial; a full-rank output_shape
// is accepted and its spatial tail used).
struct TransposeExtras {
  std::vector<int64_t> output_padding;  // nsp values
  std::vector<int64_t> output_shape;    // empty or nsp values
};

inline Status ParseTransposeExtras(const ir::AttrMap& a, int nsp, TransposeExtras* t) {
  t->output_padding = a.GetInts("output_padding");
  if (t->output_padding.empty()) t->output_padding.assign(nsp, 0);
  if (static_cast<int>(t->output_padding.size()) != nsp) return InvalidArgument("output_padding has wrong length");
  for (int64_t v : t->output_padding)
    if (v < 0) return InvalidArgument("output_padding must be non-negative");
  t->output_shape = a.GetInts("output_shape");
  if (!t->output_shape.empty()) {
    if (static_cast<int>(t->output_shape.size()) == nsp + 2) {
      t->output_shape.erase(t->output_shape.begin(), t->output_shape.begin() + 2);
    }
    if (static_cast<int>(t->output_shape.size()) != nsp) return InvalidArgument("output_shape has wrong length");
    for (int64_t v : t->output_shape)
      if (v < 0) return InvalidArgument("output_shape must be non-negative");
  }
  return Status::Ok();
}

// ConvTranspose output size of spatial dim i; sets w->pads[i], w->pads[i + nsp] (they may become negative when
// output_shape asks for more than the full result: the extra positions receive only the bias).
inline StatusOr<int64_t> TransposeOutputDim(Window* w, const TransposeExtras& t, int i, int64_t in) {
  const int64_t k = w->kernel[i];
  const int64_t s = w->strides[i], d = w->dilations[i];
  const int64_t ek = (k - 1) * d + 1;
  int64_t& pb = w->pads[i];
  int64_t& pe = w->pads[i + w->nsp];
  int64_t out = kUnknownDim;
  if (!t.output_shape.empty()) {
    out = t.output_shape[i];
  } else if (w->auto_pad == AutoPad::kSameUpper || w->auto_pad == AutoPad::kSameLower) {
    if (in != kUnknownDim) out = in * s;
  }
  if (in == kUnknownDim || k == kUnknownDim) return out;
  const int64_t full = s * (in - 1) + t.output_padding[i] + ek;
  if (out != kUnknownDim) {
    int64_t total = full - out;
    if (w->auto_pad == AutoPad::kSameUpper) {
      pb = FloorDiv2(total);
      pe = total - pb;
    } else {
      pe = FloorDiv2(total);
      pb = total - pe;
    }
    return out;
  }
  if (w->auto_pad == AutoPad::kValid) pb = pe = 0;
  out = full - pb - pe;
  if (out < 0) return InvalidArgument("ConvTranspose output size would be negative");
  return out;
}

}  // namespace ge::nn
