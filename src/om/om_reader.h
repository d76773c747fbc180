// OmReader: an .om image mmapped read-only from a file, or a caller's memory, verified by OmVerifier before
// anything is exposed. Partitions are spans into the image (no copies). The image stays valid while the reader
// or any tensor borrowed through weights() lives (they share keep_alive()).
// Thread-safety: const methods may be called concurrently.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/status.h"
#include "ir/graph.h"
#include "om/ir_proto.h"
#include "om/om_verifier.h"

namespace ge::om {

struct ByteSpan {
  const uint8_t* data = nullptr;
  size_t size = 0;
  bool empty() const { return size == 0; }
};

class OmReader {
 public:
  static StatusOr<std::unique_ptr<OmReader>> Open(const std::string& path, const VerifyOptions& options = {});
  // The caller keeps [data, data + size) alive and unchanged for the reader's lifetime, or passes `keep_alive`.
  static StatusOr<std::unique_ptr<OmReader>> FromMemory(const void* data, size_t size,
                                                        std::shared_ptr<const void> keep_alive = nullptr,
                                                        const VerifyOptions& options = {});

  const OmHeader& header() const { return header_; }
  bool mapped() const { return mapped_; }
  // The path Open was given (relative FileConstant paths are relative to its directory); empty from memory.
  const std::string& path() const { return path_; }
  bool has(PartitionType t) const { return header_.Find(t) != nullptr; }
  ByteSpan partition(PartitionType t) const;  // empty when absent
  ByteSpan image() const { return ByteSpan{data_, size_}; }
  const std::shared_ptr<const void>& keep_alive() const { return keep_alive_; }
  // Tensors over WEIGHTS_DATA that borrow the image (an empty partition when there is none).
  std::unique_ptr<WeightSource> weights() const;

 private:
  OmReader() = default;
  OmHeader header_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::string path_;
  std::shared_ptr<const void> keep_alive_;
};

// The model type in the header of the .om file at `path`, read without mapping or verifying the file (OmReader::Open
// verifies it): for picking a runtime before opening. nullopt when the file cannot be read, is not a ge .om or
// names no known model type.
std::optional<OmModelType> PeekOmModelType(const std::string& path);

}  // namespace ge::om
