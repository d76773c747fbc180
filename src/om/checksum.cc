#include "om/checksum.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace ge::om {

namespace {

constexpr uint32_t kPoly = 0x82F63B78u;  // reflected Castagnoli polynomial

std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
    t[i] = c;
  }
  return t;
}

uint32_t SoftwareCrc(uint32_t c, const uint8_t* p, size_t n) {
  static const std::array<uint32_t, 256> table = MakeTable();
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__)
// The crc32 instruction has a latency of three cycles and a throughput of one: one dependent chain runs at a third
// of the speed the unit allows. Long buffers run as three chains over adjacent stripes, joined by shifting a chain's
// CRC over the following stripe's length: crc(x, A ++ B) = shift_|B|(crc(x, A)) ^ crc(0, B), shift being linear
// over GF(2), so four byte tables apply it.
constexpr size_t kStripe = 4096;  // bytes per chain and round

struct Shift {
  std::array<std::array<uint32_t, 256>, 4> table;
  uint32_t Apply(uint32_t c) const {
    return table[0][c & 0xFF] ^ table[1][(c >> 8) & 0xFF] ^ table[2][(c >> 16) & 0xFF] ^ table[3][c >> 24];
  }
};

__attribute__((target("sse4.2"))) uint32_t SerialHardwareCrc(uint32_t c, const uint8_t* p, size_t n) {
  uint64_t c64 = c;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    c64 = _mm_crc32_u64(c64, w);
  }
  c = static_cast<uint32_t>(c64);
  for (; n > 0; --n, ++p) c = _mm_crc32_u8(c, *p);
  return c;
}

// The map c -> crc(c, kStripe zero bytes), from the images of the 32 basis vectors.
Shift MakeStripeShift() {
  static const std::array<uint8_t, kStripe> zeros{};
  std::array<uint32_t, 32> column{};
  for (int bit = 0; bit < 32; ++bit) column[bit] = SerialHardwareCrc(uint32_t{1} << bit, zeros.data(), kStripe);
  Shift s{};
  for (int k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t v = 0;
      for (int i = 0; i < 8; ++i) {
        if (b & (1u << i)) v ^= column[8 * k + i];
      }
      s.table[k][b] = v;
    }
  }
  return s;
}

__attribute__((target("sse4.2"))) uint32_t HardwareCrc(uint32_t c, const uint8_t* p, size_t n) {
  if (n >= 3 * kStripe) {
    static const Shift shift = MakeStripeShift();
    for (; n >= 3 * kStripe; n -= 3 * kStripe, p += 3 * kStripe) {
      uint64_t a = c, b = 0, d = 0;
      for (size_t i = 0; i < kStripe; i += 8) {
        uint64_t wa, wb, wd;
        std::memcpy(&wa, p + i, 8);
        std::memcpy(&wb, p + kStripe + i, 8);
        std::memcpy(&wd, p + 2 * kStripe + i, 8);
        a = _mm_crc32_u64(a, wa);
        b = _mm_crc32_u64(b, wb);
        d = _mm_crc32_u64(d, wd);
      }
      c = shift.Apply(shift.Apply(static_cast<uint32_t>(a)) ^ static_cast<uint32_t>(b)) ^ static_cast<uint32_t>(d);
    }
  }
  return SerialHardwareCrc(c, p, n);
}
#endif

}  // namespace

uint32_t Crc32c(uint32_t crc, const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
#if defined(__x86_64__)
  static const bool has_sse42 = __builtin_cpu_supports("sse4.2");
  c = has_sse42 ? HardwareCrc(c, p, size) : SoftwareCrc(c, p, size);
#else
  c = SoftwareCrc(c, p, size);
#endif
  return ~c;
}

}  // namespace ge::om
