// OmWriter: lays out an .om image (om_format.h) from per-partition byte blobs and writes it to memory or to a
// file (written to a temporary name, then renamed, so readers never see a half-written model).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/isa.h"
#include "om/om_format.h"

namespace ge::om {

struct OmWriteOptions {
  std::string model_name;  // truncated to kOmNameSize - 1 bytes
  OmModelType model_type = OmModelType::kIr;
  bool dynamic = false;
  // Features the model needs; default: those of the compiling CPU (HostIsa()). The vendor is always the host's.
  std::optional<uint64_t> isa_features;
};

class OmWriter {
 public:
  explicit OmWriter(OmWriteOptions options) : options_(std::move(options)) {}

  // Each partition type at most once; partitions are laid out in the order added.
  Status AddPartition(PartitionType type, std::string bytes);
  Status AddPartition(PartitionType type, std::vector<uint8_t> bytes);
  // Borrows [data, data + size): it must stay valid until the last Write call.
  Status AddPartitionView(PartitionType type, const void* data, size_t size);

  StatusOr<std::vector<uint8_t>> WriteToMemory() const;
  Status WriteToFile(const std::string& path) const;

 private:
  struct Blob {
    PartitionType type;
    std::shared_ptr<const void> owner;
    const uint8_t* data;
    size_t size;
    uint64_t offset;  // in the file, set by AddBlob
  };
  Status AddBlob(PartitionType type, std::shared_ptr<const void> owner, const void* data, size_t size);
  // Calls out(bytes, n) for the whole image in file order; the header carries `checksum`.
  template <typename Out>
  void Emit(uint32_t checksum, Out&& out) const;

  OmWriteOptions options_;
  std::vector<Blob> blobs_;
};

}  // namespace ge::om
