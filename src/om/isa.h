// ISA fingerprint: the CPU features a compiled model relies on (kernels chosen, weights prepacked for them), as
// recorded in the .om header and checked against the running CPU at load.
#pragma once
#include <cstdint>
#include <string>

#include "base/status.h"

namespace ge::om {

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
};
constexpr uint64_t kIsaKnownMask = (uint64_t{1} << 11) - 1;

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

}  // namespace ge::om
