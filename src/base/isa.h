// ISA fingerprint: the CPU features a compiled model relies on (kernels chosen, weights prepacked for them), as
// recorded in the .om header and checked against the running CPU at load.
#pragma once
#include <cstdint>
#include <string>

#include "base/status.h"

namespace ge {

enum IsaFeature : uint64_t {
  kIsaAvx2 = 1u << 0,
  kIsaFma = 1u << 1,
  kIsaF16c = 1u << 2,
  kIsaAvx512F = 1u << 3,
  kIsaAvx512BW = 1u << 4,
  kIsaAvx512VL = 1u << 5,
  kIsaAvx512Vnni = 1u << 6,
  kIsaAvx512Bf16 = 1u << 7,
  kIsaAmxTile = 1u << 8,
  kIsaAmxInt8 = 1u << 9,
  kIsaAmxBf16 = 1u << 10,
  kIsaAvx512DQ = 1u << 11,
  kIsaAvx512CD = 1u << 12,
  kIsaSse42 = 1u << 13,
  kIsaPopcnt = 1u << 14,
};
constexpr uint64_t kIsaKnownMask = (uint64_t{1} << 15) - 1;

// The x86-64 micro-architecture levels a model is compiled for (`ge compile --target`): v2 = SSE4.2 + POPCNT,
// v3 = v2 + AVX2 + FMA + F16C, v4 = v3 + AVX-512 F/BW/CD/DQ/VL. The level decides layouts, weight blocking and
// which kernel implementations may be chosen; a CPU at or above it runs the model.
enum class IsaLevel : int32_t { kNone = 0, kX86_64_V2 = 2, kX86_64_V3 = 3, kX86_64_V4 = 4 };
const char* IsaLevelName(IsaLevel level);  // "x86-64-v3"; "none" for kNone
// "x86-64-v2|v3|v4" -> level; false for anything else ("native" is resolved by the caller).
bool ParseIsaLevel(const std::string& name, IsaLevel* level);
// The IsaFeature bits a level requires.
uint64_t IsaLevelFeatures(IsaLevel level);
// The highest level whose features are all in `features` (kNone below v2).
IsaLevel IsaLevelOf(uint64_t features);

struct IsaFingerprint {
  uint64_t features = 0;  // IsaFeature bits, usable by this process (hardware and OS state support)
  std::string vendor;     // "GenuineIntel", "AuthenticAMD", "" when not x86
};

// The running CPU, detected once.
const IsaFingerprint& HostIsa();
// "AVX2, AVX-512F"; unknown bits print as "bit N"; "none" for 0.
std::string IsaFeatureNames(uint64_t features);
// Fails (FailedPrecondition) naming each feature in `required` that `available` lacks.
Status CheckIsa(uint64_t required, uint64_t available);

}  // namespace ge
