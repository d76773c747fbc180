// OmVerifier: every check on an .om image before any byte of it is trusted: magic, version, sizes, header
// fields, partition table (types, bounds, alignment, overlap), checksum, and the ISA fingerprint against the
// running CPU. Any input gives either a parsed OmHeader or a Status with a clear message; never a crash.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/isa.h"
#include "om/om_format.h"

namespace ge::om {

struct PartitionInfo {
  PartitionType type;
  uint64_t offset = 0;  // from the start of the file
  uint64_t size = 0;
};

struct OmHeader {
  uint32_t format_version = 0;
  uint32_t checksum = 0;
  uint64_t total_length = 0;
  OmModelType model_type = OmModelType::kIr;
  bool dynamic = false;
  IsaFingerprint isa;
  std::string name;
  std::vector<PartitionInfo> partitions;  // in table order
  const PartitionInfo* Find(PartitionType t) const;
};

struct VerifyOptions {
  bool check_checksum = true;
  bool check_isa = true;
  std::optional<uint64_t> available_isa;  // default: HostIsa().features
};

class OmVerifier {
 public:
  explicit OmVerifier(VerifyOptions options = {}) : options_(std::move(options)) {}
  StatusOr<OmHeader> Verify(const uint8_t* data, size_t size) const;

 private:
  VerifyOptions options_;
};

// The checksum the header should carry: CRC32C of the image with the checksum field read as zero.
uint32_t ComputeOmChecksum(const uint8_t* data, size_t size);
// The check Verify makes with check_checksum, alone, on an image Verify accepted without it (header.checksum is the
// header's field): for a loader that checks the checksum beside its work and refuses the model before handing it out.
Status VerifyOmChecksum(const uint8_t* data, size_t size, const OmHeader& header);

}  // namespace ge::om
