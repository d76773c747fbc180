// A vectorizable float exp: no libm call and no branch, so loops over it auto-vectorize (libm's expf does not).
// Accuracy: within 1 ulp of glibc's expf for every float whose exp is normal (checked exhaustively); inf above
// ~88.72, a denormal or 0 below ~-87.3, NaN stays NaN.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ge::exec {

inline float FastExp(float x) {
  // exp(x) = 2^n * exp(r), n = round(x / ln2), |r| <= ln2 / 2. Clamping keeps n in int range (NaN passes through
  // std::max/std::min unchanged); 2^n is applied as two factors so n up to 128 and down to -150 scale correctly.
  constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits
  const float xc = std::min(std::max(x, -104.0f), 89.0f);
  const float t = xc * 1.44269504088896341f + kMagic;
  const float n = t - kMagic;
  uint32_t bits_t;
  std::memcpy(&bits_t, &t, sizeof(bits_t));
  const int32_t ni = static_cast<int32_t>(bits_t - 0x4B400000u);  // minus the bits of kMagic (NaN: garbage, no UB)
  float r = xc - n * 0.693145751953125f;                          // ln2 high part: n * hi is exact
  r = r - n * 1.428606765330187e-06f;                             // ln2 low part
  // Taylor polynomial of exp(r) to degree 7 (truncation error < 6e-9 on |r| <= ln2/2).
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int32_t n1 = ni >> 1;
  const int32_t n2 = ni - n1;
  const uint32_t b1 = static_cast<uint32_t>(n1 + 127) << 23;
  const uint32_t b2 = static_cast<uint32_t>(n2 + 127) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, sizeof(s1));
  std::memcpy(&s2, &b2, sizeof(s2));
  return p * s1 * s2;
}

}  // namespace ge::exec
