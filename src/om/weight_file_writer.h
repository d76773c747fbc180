// WeightFileWriter: writes the external weight files of one compilation (ge.externalWeight, weight_file.h).
//   kPerTensor (1): a file per distinct tensor, named weight_<crc32c as 8 hex digits>_<bytes>. A file of that name
//                   already in the directory is reused when it holds the same bytes (models compiled into one
//                   directory share their files), else the next free name weight_<crc>_<bytes>_<k> is taken.
//   kCombined (2):  one file, each tensor at a 512-byte-aligned offset (kExternalWeightAlignment), identical
//                   tensors stored once. Written under a temporary name and renamed over the old file by Finish(),
//                   so a process still using the old file keeps its mapping intact.
// Errors name the file. Not thread-safe.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"

namespace ge::om {

class WeightFileWriter {
 public:
  enum class Mode { kPerTensor = 1, kCombined = 2 };
  struct Placement {
    std::string file;  // name inside the directory
    uint64_t offset = 0;
    uint32_t crc32c = 0;
  };

  // |directory| must exist. |combined_name|: the file's name in kCombined mode.
  static StatusOr<std::unique_ptr<WeightFileWriter>> Create(std::string directory, Mode mode,
                                                            std::string combined_name = "");
  ~WeightFileWriter();  // removes the temporary file of an unfinished kCombined writer
  WeightFileWriter(const WeightFileWriter&) = delete;
  WeightFileWriter& operator=(const WeightFileWriter&) = delete;

  // Where |tensor|'s raw bytes went. The writer keeps a reference to the tensor's storage until it is destroyed
  // (to compare later tensors with it).
  StatusOr<Placement> Add(const Tensor& tensor);
  // Completes the files (kCombined: closes and renames the file into place). Add after Finish fails.
  Status Finish();

  const std::vector<std::string>& files() const { return files_; }  // names, in order of first use
  uint64_t bytes_written() const { return written_; }                // tensor bytes (padding not counted)
  uint64_t bytes_deduplicated() const { return deduplicated_; }

 private:
  WeightFileWriter() = default;
  std::string PathOf(const std::string& name) const { return directory_ + "/" + name; }
  StatusOr<std::string> WriteTensorFile(const uint8_t* data, uint64_t size, uint32_t crc);
  Status AppendCombined(const uint8_t* data, uint64_t size, uint64_t* offset);

  struct Stored {
    Tensor source;  // holds the bytes for comparisons
    Placement placement;
  };
  std::string directory_;
  Mode mode_ = Mode::kCombined;
  std::string combined_name_;
  std::string combined_temp_;  // kCombined: the file being written
  int combined_fd_ = -1;
  uint64_t combined_size_ = 0;
  bool finished_ = false;
  std::unordered_multimap<uint64_t, Stored> by_key_;  // key: crc32c << 32 | low 32 bits of the size
  std::vector<std::string> files_;
  uint64_t written_ = 0, deduplicated_ = 0;
};

}  // namespace ge::om
