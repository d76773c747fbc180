#include "om/weight_file_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "om/checksum.h"
#include "om/om_format.h"
#include "om/weight_file.h"

namespace ge::om {

namespace {

Status WriteAll(int fd, const uint8_t* data, uint64_t size, const std::string& path) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, static_cast<size_t>(std::min<uint64_t>(size, 1u << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ResourceExhausted("cannot write weight file '" + path + "': " + std::strerror(errno));
    data += n;
    size -= static_cast<uint64_t>(n);
  }
  return Status::Ok();
}

// Whether the regular file at |path| holds exactly [data, data + size).
bool FileHolds(const std::string& path, const uint8_t* data, uint64_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) == size;
  std::vector<uint8_t> buf(1 << 20);
  for (uint64_t done = 0; same && done < size;) {
    const ssize_t n = ::read(fd, buf.data(), static_cast<size_t>(std::min<uint64_t>(buf.size(), size - done)));
    if (n < 0 && errno == EINTR) continue;
    same = n > 0 && std::memcmp(buf.data(), data + done, static_cast<size_t>(n)) == 0;
    done += n > 0 ? static_cast<uint64_t>(n) : 0;
  }
  ::close(fd);
  return same;
}

std::string TempName(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

}  // namespace

StatusOr<std::unique_ptr<WeightFileWriter>> WeightFileWriter::Create(std::string directory, Mode mode,
                                                                     std::string combined_name) {
  std::unique_ptr<WeightFileWriter> w(new WeightFileWriter());
  w->directory_ = std::move(directory);
  w->mode_ = mode;
  if (mode == Mode::kCombined) {
    if (combined_name.empty() || combined_name.find('/') != std::string::npos) {
      return InvalidArgument("combined weight file name '" + combined_name + "' is not a plain file name");
    }
    w->combined_name_ = std::move(combined_name);
    w->combined_temp_ = TempName(w->PathOf(w->combined_name_));
    w->combined_fd_ = ::open(w->combined_temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->combined_fd_ < 0) {
      return NotFound("cannot create weight file '" + w->combined_temp_ + "': " + std::strerror(errno));
    }
  }
  return w;
}

WeightFileWriter::~WeightFileWriter() {
  if (combined_fd_ >= 0) ::close(combined_fd_);
  if (mode_ == Mode::kCombined && !finished_ && !combined_temp_.empty()) ::unlink(combined_temp_.c_str());
}

StatusOr<std::string> WeightFileWriter::WriteTensorFile(const uint8_t* data, uint64_t size, uint32_t crc) {
  char base[64];
  std::snprintf(base, sizeof base, "weight_%08" PRIx32 "_%" PRIu64, crc, size);
  for (int k = 0; k < 1000; ++k) {
    const std::string name = k == 0 ? std::string(base) : std::string(base) + "_" + std::to_string(k);
    const std::string path = PathOf(name);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      if (FileHolds(path, data, size)) return name;  // the same bytes: share it
      continue;
    }
    const std::string temp = TempName(path);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return NotFound("cannot create weight file '" + temp + "': " + std::strerror(errno));
    Status s = WriteAll(fd, data, size, temp);
    if (::close(fd) != 0 && s.ok()) s = ResourceExhausted("cannot write weight file '" + temp + "': " + std::strerror(errno));
    if (s.ok() && ::rename(temp.c_str(), path.c_str()) != 0) {
      s = ResourceExhausted("cannot rename '" + temp + "' to '" + path + "': " + std::strerror(errno));
    }
    if (!s.ok()) {
      ::unlink(temp.c_str());
      return s;
    }
    return name;
  }
  return ResourceExhausted("weight files '" + PathOf(base) + "_*': 1000 files of that name hold other bytes");
}

Status WeightFileWriter::AppendCombined(const uint8_t* data, uint64_t size, uint64_t* offset) {
  const std::string& path = combined_temp_;
  *offset = AlignUp(combined_size_, kExternalWeightAlignment);
  static const uint8_t kZeros[kExternalWeightAlignment] = {};
  GE_RETURN_IF_ERROR(WriteAll(combined_fd_, kZeros, *offset - combined_size_, path));
  GE_RETURN_IF_ERROR(WriteAll(combined_fd_, data, size, path));
  combined_size_ = *offset + size;
  return Status::Ok();
}

StatusOr<WeightFileWriter::Placement> WeightFileWriter::Add(const Tensor& tensor) {
  if (finished_) return FailedPrecondition("WeightFileWriter::Add after Finish");
  if (tensor.dtype() == DataType::kString) return InvalidArgument("string tensors cannot be external weights");
  const auto* data = static_cast<const uint8_t*>(tensor.raw_data());
  const uint64_t size = tensor.nbytes();
  const uint32_t crc = Crc32c(0, data, static_cast<size_t>(size));
  const uint64_t key = uint64_t{crc} << 32 | (size & 0xFFFFFFFFu);
  auto range = by_key_.equal_range(key);
  for (auto it = range.first; it != range.second; ++it) {
    const Tensor& s = it->second.source;
    if (s.nbytes() == size && (size == 0 || std::memcmp(s.raw_data(), data, static_cast<size_t>(size)) == 0)) {
      deduplicated_ += size;
      return it->second.placement;
    }
  }
  Placement p;
  p.crc32c = crc;
  if (mode_ == Mode::kPerTensor) {
    GE_ASSIGN_OR_RETURN(p.file, WriteTensorFile(data, size, crc));
  } else {
    p.file = combined_name_;
    GE_RETURN_IF_ERROR(AppendCombined(data, size, &p.offset));
  }
  if (std::find(files_.begin(), files_.end(), p.file) == files_.end()) files_.push_back(p.file);
  written_ += size;
  by_key_.emplace(key, Stored{tensor, p});
  return p;
}

Status WeightFileWriter::Finish() {
  if (finished_) return Status::Ok();
  finished_ = true;
  if (mode_ != Mode::kCombined) return Status::Ok();
  const int fd = combined_fd_;
  combined_fd_ = -1;
  Status s = Status::Ok();
  if (::close(fd) != 0) s = ResourceExhausted("cannot write weight file '" + combined_temp_ + "': " + std::strerror(errno));
  const std::string path = PathOf(combined_name_);
  if (s.ok() && ::rename(combined_temp_.c_str(), path.c_str()) != 0) {
    s = ResourceExhausted("cannot rename '" + combined_temp_ + "' to '" + path + "': " + std::strerror(errno));
  }
  if (!s.ok()) ::unlink(combined_temp_.c_str());
  return s;
}

}  // namespace ge::om
