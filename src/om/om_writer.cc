#include "om/om_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "om/checksum.h"

namespace ge::om {

Status OmWriter::AddBlob(PartitionType type, std::shared_ptr<const void> owner, const void* data, size_t size) {
  if (static_cast<uint32_t>(type) > kMaxPartitionType) {
    return InvalidArgument("unknown partition type " + std::to_string(static_cast<uint32_t>(type)));
  }
  for (const Blob& b : blobs_) {
    if (b.type == type) return InvalidArgument(std::string("partition ") + PartitionTypeName(type) + " added twice");
  }
  if (blobs_.size() >= kMaxPartitions) return InvalidArgument("too many partitions");
  blobs_.push_back(Blob{type, std::move(owner), static_cast<const uint8_t*>(data), size, 0});
  uint64_t cursor = kOmHeaderSize + uint64_t{kOmPartitionEntrySize} * blobs_.size();
  for (Blob& b : blobs_) {
    const uint64_t align = b.type == PartitionType::kWeightsData ? kOmWeightsAlignment : kOmPartitionAlignment;
    b.offset = AlignUp(cursor, align);
    cursor = b.offset + b.size;
  }
  return Status::Ok();
}

Status OmWriter::AddPartition(PartitionType type, std::string bytes) {
  auto owner = std::make_shared<const std::string>(std::move(bytes));
  return AddBlob(type, owner, owner->data(), owner->size());
}

Status OmWriter::AddPartition(PartitionType type, std::vector<uint8_t> bytes) {
  auto owner = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  return AddBlob(type, owner, owner->data(), owner->size());
}

Status OmWriter::AddPartitionView(PartitionType type, const void* data, size_t size) {
  if (data == nullptr && size != 0) return InvalidArgument("null partition data");
  return AddBlob(type, nullptr, data, size);
}

template <typename Out>
void OmWriter::Emit(uint32_t checksum, Out&& out) const {
  const uint64_t table_end = kOmHeaderSize + uint64_t{kOmPartitionEntrySize} * blobs_.size();
  const uint64_t total = blobs_.empty() ? table_end : blobs_.back().offset + blobs_.back().size;
  uint8_t header[kOmHeaderSize] = {};
  std::memcpy(header + kOffMagic, kOmMagic, 4);
  StoreU32(header + kOffHeaderSize, kOmHeaderSize);
  StoreU32(header + kOffVersion, kOmFormatVersion);
  StoreU32(header + kOffChecksum, checksum);
  StoreU64(header + kOffTotalLength, total);
  StoreU32(header + kOffModelType, static_cast<uint32_t>(options_.model_type));
  StoreU32(header + kOffFlags, options_.dynamic ? kOmFlagDynamic : 0);
  StoreU64(header + kOffIsa, options_.isa_features.value_or(HostIsa().features));
  const std::string& vendor = HostIsa().vendor;
  std::memcpy(header + kOffVendor, vendor.data(), std::min(vendor.size(), kOmVendorSize - 1));
  StoreU32(header + kOffPartitionCount, static_cast<uint32_t>(blobs_.size()));
  const std::string& name = options_.model_name;
  std::memcpy(header + kOffName, name.data(), std::min(name.size(), kOmNameSize - 1));
  out(header, kOmHeaderSize);
  for (const Blob& b : blobs_) {
    uint8_t e[kOmPartitionEntrySize] = {};
    StoreU32(e, static_cast<uint32_t>(b.type));
    StoreU64(e + 8, b.offset);
    StoreU64(e + 16, b.size);
    out(e, kOmPartitionEntrySize);
  }
  static const uint8_t kZeros[kOmWeightsAlignment] = {};
  uint64_t cursor = table_end;
  for (const Blob& b : blobs_) {
    out(kZeros, b.offset - cursor);
    out(b.data, b.size);
    cursor = b.offset + b.size;
  }
}

StatusOr<std::vector<uint8_t>> OmWriter::WriteToMemory() const {
  std::vector<uint8_t> image;
  image.reserve(blobs_.empty() ? kOmHeaderSize : blobs_.back().offset + blobs_.back().size);
  auto append = [&image](const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    image.insert(image.end(), b, b + n);
  };
  Emit(0, append);
  const uint32_t checksum = Crc32c(0, image.data(), image.size());
  StoreU32(image.data() + kOffChecksum, checksum);
  return image;
}

Status OmWriter::WriteToFile(const std::string& path) const {
  uint32_t crc = 0;
  Emit(0, [&crc](const void* p, size_t n) { crc = Crc32c(crc, p, n); });
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return NotFound("cannot create '" + tmp + "': " + std::strerror(errno));
  int err = 0;
  Emit(crc, [&](const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n > 0 && err == 0) {
      const ssize_t w = ::write(fd, c, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        err = w < 0 ? errno : EIO;
        break;
      }
      c += w;
      n -= static_cast<size_t>(w);
    }
  });
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    return ResourceExhausted("cannot write '" + path + "': " + std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace ge::om
