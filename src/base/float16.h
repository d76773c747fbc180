// IEEE half (float16) and bfloat16 storage types. Arithmetic happens in float: convert, compute, convert back.
#pragma once
#include <cstdint>
#include <cstring>

namespace ge {

struct float16 {
  uint16_t bits = 0;
  float16() = default;
  explicit float16(float f) : bits(FromFloat(f)) {}
  operator float() const { return ToFloat(bits); }  // NOLINT: implicit widening is intended
  static uint16_t FromFloat(float f);
  static float ToFloat(uint16_t h);
};

struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  explicit bfloat16(float f) : bits(FromFloat(f)) {}
  operator float() const { return ToFloat(bits); }  // NOLINT: implicit widening is intended
  // Round to nearest even; NaN stays NaN.
  static uint16_t FromFloat(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
    uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>((u + rounding) >> 16);
  }
  static float ToFloat(uint16_t b) {
    uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2, "16-bit storage types");

}  // namespace ge
