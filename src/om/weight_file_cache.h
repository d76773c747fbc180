// WeightFileCache: the process-wide registry of mapped external weight files. Every model, and every load of one
// model, that names the same file shares ONE read-only mapping, so the weights' pages count once in the process's
// RSS, and each tensor's checksum is verified once (WeightFile::Read). Keyed by the file's canonical path; an entry
// is reused only while the file on disk is still the one mapped (device, inode, size, modification time), else the
// file is mapped again (models holding the old mapping keep it). Entries are weak: a file is unmapped when the last
// tensor borrowing it is gone. A mapped file must not be truncated or rewritten in place while models use it (as
// for the .om itself); ge compile replaces files by renaming new ones over them, which is safe.
// Thread-safe.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"
#include "om/weight_file.h"

namespace ge::om {

class WeightFileCache {
 public:
  static WeightFileCache& Global();

  // The mapping of |path| (NotFound naming the path when it cannot be opened, InvalidArgument when it is not a
  // regular file).
  StatusOr<std::shared_ptr<const WeightFile>> Open(const std::string& path);
  // Files mapped now (entries whose mapping is still alive).
  size_t live_files() const;

 private:
  struct Identity {
    uint64_t device = 0, inode = 0, size = 0;
    int64_t mtime_ns = 0;
    bool operator==(const Identity& o) const {
      return device == o.device && inode == o.inode && size == o.size && mtime_ns == o.mtime_ns;
    }
  };
  struct Entry {
    Identity identity;
    std::weak_ptr<const WeightFile> file;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;  // by canonical path; guarded by mu_
};

}  // namespace ge::om
