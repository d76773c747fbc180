#include "om/weight_file_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace ge::om {

WeightFileCache& WeightFileCache::Global() {
  static WeightFileCache* cache = new WeightFileCache();  // never destroyed: models may outlive static teardown
  return *cache;
}

StatusOr<std::shared_ptr<const WeightFile>> WeightFileCache::Open(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) {
    return NotFound("cannot open weight file '" + path + "': " + std::strerror(errno));
  }
  const std::string canonical = resolved;
  const int fd = ::open(resolved, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NotFound("cannot open weight file '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return NotFound("cannot stat weight file '" + path + "': " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument("weight file '" + path + "' is not a regular file");
  }
  Identity id;
  id.device = static_cast<uint64_t>(st.st_dev);
  id.inode = static_cast<uint64_t>(st.st_ino);
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;

  std::lock_guard<std::mutex> lk(mu_);
  auto it = entries_.find(canonical);
  if (it != entries_.end() && it->second.identity == id) {
    if (std::shared_ptr<const WeightFile> live = it->second.file.lock()) {
      ::close(fd);
      return live;
    }
  }
  auto mapped = WeightFile::Map(path, fd, id.size);
  ::close(fd);
  if (!mapped.ok()) return mapped.status();
  std::shared_ptr<const WeightFile> file = std::move(*mapped);
  entries_[canonical] = Entry{id, file};
  // Forget files no model uses any more.
  for (auto e = entries_.begin(); e != entries_.end();) {
    e = e->second.file.expired() ? entries_.erase(e) : std::next(e);
  }
  return file;
}

size_t WeightFileCache::live_files() const {
  std::lock_guard<std::mutex> lk(mu_);
  size_t n = 0;
  for (const auto& [path, e] : entries_) n += e.file.expired() ? 0 : 1;
  return n;
}

}  // namespace ge::om
