#include "om/isa.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ge::om {

namespace {

const char* FeatureName(int bit) {
  static const char* const kNames[] = {"AVX2",       "FMA",         "F16C",     "AVX-512F",
                                       "AVX-512BW",  "AVX-512VL",   "AVX-512-VNNI", "AVX-512-BF16",
                                       "AMX-TILE",   "AMX-INT8",    "AMX-BF16"};
  return bit < static_cast<int>(sizeof(kNames) / sizeof(kNames[0])) ? kNames[bit] : nullptr;
}

#if defined(__x86_64__) || defined(__i386__)
uint64_t ReadXcr0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return uint64_t{hi} << 32 | lo;
}

IsaFingerprint Detect() {
  IsaFingerprint fp;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return fp;
  const unsigned max_leaf = a;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  fp.vendor = vendor;
  __get_cpuid(1, &a, &b, &c, &d);
  const bool osxsave = c & (1u << 27);
  const uint64_t xcr0 = osxsave ? ReadXcr0() : 0;
  const bool avx_os = (xcr0 & 0x6) == 0x6;
  const bool avx512_os = avx_os && (xcr0 & 0xE0) == 0xE0;
  const bool amx_os = (xcr0 & 0x60000) == 0x60000;
  uint64_t f = 0;
  if (avx_os && (c & (1u << 28))) {
    if (c & (1u << 12)) f |= kIsaFma;
    if (c & (1u << 29)) f |= kIsaF16c;
  }
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned max_subleaf = a;
    if (avx_os && (b & (1u << 5))) f |= kIsaAvx2;
    if (avx512_os) {
      if (b & (1u << 16)) f |= kIsaAvx512F;
      if (b & (1u << 30)) f |= kIsaAvx512BW;
      if (b & (1u << 31)) f |= kIsaAvx512VL;
      if (c & (1u << 11)) f |= kIsaAvx512Vnni;
    }
    if (amx_os) {
      if (d & (1u << 24)) f |= kIsaAmxTile;
      if (d & (1u << 25)) f |= kIsaAmxInt8;
      if (d & (1u << 22)) f |= kIsaAmxBf16;
    }
    if (max_subleaf >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      if (avx512_os && (a & (1u << 5))) f |= kIsaAvx512Bf16;
    }
  }
  fp.features = f;
  return fp;
}
#else
IsaFingerprint Detect() { return IsaFingerprint(); }
#endif

}  // namespace

const IsaFingerprint& HostIsa() {
  static const IsaFingerprint fp = Detect();
  return fp;
}

std::string IsaFeatureNames(uint64_t features) {
  if (features == 0) return "none";
  std::string s;
  for (int bit = 0; bit < 64; ++bit) {
    if (!(features & (uint64_t{1} << bit))) continue;
    if (!s.empty()) s += ", ";
    const char* name = FeatureName(bit);
    s += name ? name : "bit " + std::to_string(bit);
  }
  return s;
}

Status CheckIsa(uint64_t required, uint64_t available) {
  const uint64_t missing = required & ~available;
  if (missing == 0) return Status::Ok();
  const bool one = (missing & (missing - 1)) == 0;
  return FailedPrecondition("the model was compiled for a CPU with " + IsaFeatureNames(missing) + ", this CPU lacks " +
                            (one ? "it" : "them") + " (this CPU has " + IsaFeatureNames(available) +
                            "); recompile the model on this machine");
}

}  // namespace ge::om
