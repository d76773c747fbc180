// External weight files (ge.externalWeight, DESIGN.md §4): raw little-endian tensor bytes outside the .om, read
// through ge::FileConstant nodes. A weight file has no header; each FileConstant names its byte range and, when
// ge compile wrote the file, the CRC32C of those bytes. ge compile puts every tensor at a 512-byte-aligned offset
// (kExternalWeightAlignment), so a tensor that borrows a mapping is 64-byte aligned as kernels want.
//
// FileConstant attributes (the op schema is ops/variable/variable_ops.cc; `crc32c` is ge's addition):
//   dtype      int     DataType of the stored tensor
//   shape      ints    dims of the stored tensor (prepacked weights: uint8 [bytes], their format is the value's desc)
//   file_path  string  relative paths are relative to the .om's directory (SinkModelOptions can name another)
//   offset     int     first byte in the file
//   length     int     bytes: dtype size x elements
//   crc32c     int     optional: CRC32C of the bytes, checked once per mapping before any kernel reads them
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "ir/graph.h"

namespace ge::om {

constexpr uint64_t kExternalWeightAlignment = 512;  // each tensor's offset in a file ge compile writes

inline constexpr const char kFileConstantDtypeAttr[] = "dtype";
inline constexpr const char kFileConstantShapeAttr[] = "shape";
inline constexpr const char kFileConstantPathAttr[] = "file_path";
inline constexpr const char kFileConstantOffsetAttr[] = "offset";
inline constexpr const char kFileConstantLengthAttr[] = "length";
inline constexpr const char kFileConstantCrcAttr[] = "crc32c";
inline constexpr const char kFileConstantIdAttr[] = "file_id";

// What a FileConstant node reads.
struct FileConstantRef {
  DataType dtype = DataType::kUndefined;
  Dims dims;
  std::string file_path;  // empty when file_id names the file
  std::string file_id;    // resolved through ge.exec.value_bins (om/value_bins.h) when file_path is empty
  uint64_t offset = 0;
  uint64_t length = 0;
  std::optional<uint32_t> crc32c;
};

// The attributes of |node| (a FileConstant), checked: a fixed-size dtype, non-negative dims, a file path or a
// `file_id` (for ge.exec.value_bins to resolve), offset >= 0, length == dtype size x elements.
// Errors name the node.
StatusOr<FileConstantRef> ReadFileConstantRef(const ir::Node& node);
void WriteFileConstantRef(const FileConstantRef& ref, ir::AttrMap* attrs);

// The bytes of one weight file, read-only and immutable: a mapping (WeightFileCache) or a buffer (tests, fuzzing).
// Thread-safe.
class WeightFile : public std::enable_shared_from_this<WeightFile> {
 public:
  // A mapping of |fd| (size bytes) named |path|; the fd may be closed afterwards.
  static StatusOr<std::shared_ptr<WeightFile>> Map(const std::string& path, int fd, uint64_t size);
  static std::shared_ptr<WeightFile> FromMemory(std::string path, std::vector<uint8_t> bytes);
  ~WeightFile();
  WeightFile(const WeightFile&) = delete;
  WeightFile& operator=(const WeightFile&) = delete;

  const std::string& path() const { return path_; }
  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

  // ref's bytes as a dtype[dims] tensor that borrows this file and keeps it alive (when the address is not 64-byte
  // aligned: a copy, shared by the readers of that range while any holds it). Checks the range against the file's size, the CRC32C when |ref| has one (each distinct
  // range once per WeightFile), and that bool bytes are 0 or 1. Errors are DataLoss naming the file and |what|.
  // The tensor is read-only: the memory may be a read-only mapping.
  StatusOr<Tensor> Read(const FileConstantRef& ref, const std::string& what) const;
  // Ranges whose checksum has been verified (for tests: a second model reusing the file verifies nothing again).
  size_t verified_ranges() const;

 private:
  WeightFile() = default;
  std::string path_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  void* mapping_ = nullptr;     // munmap'ed at destruction; null for an empty file or a buffer
  std::vector<uint8_t> owned_;  // FromMemory: the bytes at a 64-byte-aligned offset
  mutable std::mutex mu_;
  mutable std::set<std::tuple<uint64_t, uint64_t, uint32_t>> verified_;  // (offset, length, crc); guarded by mu_
  // (offset, length) -> the aligned copy of a range that is not 64-byte aligned in the file; guarded by mu_.
  mutable std::map<std::pair<uint64_t, uint64_t>, std::weak_ptr<TensorStorage>> aligned_copies_;
};

}  // namespace ge::om
