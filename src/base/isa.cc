#include "base/isa.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ge {

namespace {

const char* FeatureName(int bit) {
  static const char* const kNames[] = {"AVX2",      "FMA",       "F16C",         "AVX-512F",     "AVX-512BW",
                                       "AVX-512VL", "AVX-512-VNNI", "AVX-512-BF16", "AMX-TILE",   "AMX-INT8",
                                       "AMX-BF16",  "AVX-512DQ", "AVX-512CD",    "SSE4.2",       "POPCNT"};
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
  uint64_t f = 0;
  if (c & (1u << 20)) f |= kIsaSse42;
  if (c & (1u << 23)) f |= kIsaPopcnt;
  const bool osxsave = c & (1u << 27);
  const uint64_t xcr0 = osxsave ? ReadXcr0() : 0;
  const bool avx_os = (xcr0 & 0x6) == 0x6;
  const bool avx512_os = avx_os && (xcr0 & 0xE0) == 0xE0;
  const bool amx_os = (xcr0 & 0x60000) == 0x60000;
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
      if (b & (1u << 17)) f |= kIsaAvx512DQ;
      if (b & (1u << 28)) f |= kIsaAvx512CD;
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
                            "); recompile it for this CPU: ge compile --target=" +
                            IsaLevelName(IsaLevelOf(available)) + " (or --target=native on this machine)");
}

const char* IsaLevelName(IsaLevel level) {
  switch (level) {
    case IsaLevel::kX86_64_V2: return "x86-64-v2";
    case IsaLevel::kX86_64_V3: return "x86-64-v3";
    case IsaLevel::kX86_64_V4: return "x86-64-v4";
    case IsaLevel::kNone: break;
  }
  return "none";
}

bool ParseIsaLevel(const std::string& name, IsaLevel* level) {
  for (IsaLevel l : {IsaLevel::kX86_64_V2, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V4}) {
    if (name == IsaLevelName(l)) {
      *level = l;
      return true;
    }
  }
  return false;
}

uint64_t IsaLevelFeatures(IsaLevel level) {
  const uint64_t v2 = kIsaSse42 | kIsaPopcnt;
  const uint64_t v3 = v2 | kIsaAvx2 | kIsaFma | kIsaF16c;
  const uint64_t v4 = v3 | kIsaAvx512F | kIsaAvx512BW | kIsaAvx512CD | kIsaAvx512DQ | kIsaAvx512VL;
  switch (level) {
    case IsaLevel::kX86_64_V2: return v2;
    case IsaLevel::kX86_64_V3: return v3;
    case IsaLevel::kX86_64_V4: return v4;
    case IsaLevel::kNone: break;
  }
  return 0;
}

IsaLevel IsaLevelOf(uint64_t features) {
  for (IsaLevel l : {IsaLevel::kX86_64_V4, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V2}) {
    const uint64_t need = IsaLevelFeatures(l);
    if ((features & need) == need) return l;
  }
  return IsaLevel::kNone;
}

}  // namespace ge
