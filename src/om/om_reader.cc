#include "om/om_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "om/om_format.h"
#include "om/weights.h"

namespace ge::om {

namespace {

struct Mapping {
  void* addr = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (addr != nullptr) ::munmap(addr, size);
  }
};

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

StatusOr<std::unique_ptr<OmReader>> OmReader::Open(const std::string& path, const VerifyOptions& options) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return NotFound("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return NotFound("cannot stat '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return InvalidArgument("'" + path + "' is not a regular file");
  const size_t size = static_cast<size_t>(st.st_size);
  if (size < kOmHeaderSize) {
    // Too small to map usefully; the verifier names the problem from the bytes that are there.
    uint8_t head[kOmHeaderSize] = {};
    ssize_t n = ::pread(f.fd, head, size, 0);
    if (n < 0) return DataLoss("cannot read '" + path + "': " + std::strerror(errno));
    auto h = OmVerifier(options).Verify(head, static_cast<size_t>(n));
    if (h.ok()) return Internal("'" + path + "': a file shorter than the header passed verification");
    return h.status().WithContext(path);
  }
  auto m = std::make_shared<Mapping>();
  // MAP_POPULATE prefaults in one go: the checksum reads every page anyway, and the first run reads the weights.
  void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd, 0);
  if (addr == MAP_FAILED) return ResourceExhausted("cannot map '" + path + "': " + std::strerror(errno));
  m->addr = addr;
  m->size = size;
  auto h = OmVerifier(options).Verify(static_cast<const uint8_t*>(addr), size);
  if (!h.ok()) return h.status().WithContext(path);
  std::unique_ptr<OmReader> r(new OmReader());
  r->header_ = std::move(h).value();
  r->data_ = static_cast<const uint8_t*>(addr);
  r->size_ = size;
  r->mapped_ = true;
  r->path_ = path;
  r->keep_alive_ = std::move(m);
  return r;
}

StatusOr<std::unique_ptr<OmReader>> OmReader::FromMemory(const void* data, size_t size,
                                                         std::shared_ptr<const void> keep_alive,
                                                         const VerifyOptions& options) {
  GE_ASSIGN_OR_RETURN(OmHeader h, OmVerifier(options).Verify(static_cast<const uint8_t*>(data), size));
  std::unique_ptr<OmReader> r(new OmReader());
  r->header_ = std::move(h);
  r->data_ = static_cast<const uint8_t*>(data);
  r->size_ = size;
  r->keep_alive_ = std::move(keep_alive);
  return r;
}

std::optional<OmModelType> PeekOmModelType(const std::string& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return std::nullopt;
  uint8_t head[kOffModelType + 4] = {};
  if (::pread(f.fd, head, sizeof(head), 0) != static_cast<ssize_t>(sizeof(head))) return std::nullopt;
  if (std::memcmp(head, kOmMagic, sizeof(kOmMagic)) != 0) return std::nullopt;
  uint32_t type = 0;
  std::memcpy(&type, head + kOffModelType, sizeof(type));  // little-endian, as the format
  if (type > kMaxModelType) return std::nullopt;
  return static_cast<OmModelType>(type);
}

ByteSpan OmReader::partition(PartitionType t) const {
  const PartitionInfo* p = header_.Find(t);
  if (p == nullptr) return ByteSpan{};
  return ByteSpan{data_ + p->offset, static_cast<size_t>(p->size)};
}

std::unique_ptr<WeightSource> OmReader::weights() const {
  ByteSpan w = partition(PartitionType::kWeightsData);
  return std::make_unique<SpanWeightSource>(w.data, w.size, keep_alive_);
}

}  // namespace ge::om
