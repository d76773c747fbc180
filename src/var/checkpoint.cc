#include "var/checkpoint.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "om/checksum.h"
#include "om/ir_proto.h"
#include "om/om_format.h"
#include "var/checkpoint.pb.h"
#include "var/var_info.h"

namespace ge::var {
namespace {

using om::AlignUp;
using om::LoadU32;
using om::LoadU64;
using om::StoreU32;
using om::StoreU64;

// An index this large is corrupt (it would describe millions of variables); bounds what parsing it allocates.
constexpr uint64_t kMaxIndexBytes = uint64_t{256} << 20;

std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string VarWhat(const std::string& name) { return "checkpoint variable '" + name + "'"; }

// The variable's storage bytes, after checking that its value matches its desc.
StatusOr<uint64_t> CheckVariable(const CheckpointVariable& v) {
  if (v.name.empty()) return InvalidArgument("a checkpoint variable needs a name");
  auto bytes = VarBytes(v.desc);
  if (!bytes.ok()) return bytes.status().WithContext(VarWhat(v.name));
  GE_ASSIGN_OR_RETURN(Dims dims, CheckpointValueDims(v.desc));
  if (!v.value.valid() || v.value.dtype() != v.desc.dtype || v.value.dims() != dims) {
    return InvalidArgument(VarWhat(v.name) + ": value " +
                           (v.value.valid() ? DataTypeName(v.value.dtype()) + DimsToString(v.value.dims())
                                            : std::string("<none>")) +
                           " does not match desc " + v.desc.ToString() + " (value " + DataTypeName(v.desc.dtype) +
                           DimsToString(dims) + ")");
  }
  return *bytes;
}

// --- writing ---

struct Layout {
  std::string index;              // serialized CheckpointProto
  std::vector<uint64_t> offsets;  // each variable's, from the data region's start
  uint64_t data_offset = 0;       // from the file's start
  uint64_t data_size = 0;
  uint64_t total() const { return data_offset + data_size; }
};

StatusOr<Layout> PlanLayout(const Checkpoint& c) {
  proto::CheckpointProto index;
  std::set<std::string> names;
  Layout layout;
  uint64_t cursor = 0;
  for (const CheckpointVariable& v : c.variables) {
    GE_ASSIGN_OR_RETURN(const uint64_t bytes, CheckVariable(v));
    if (!names.insert(v.name).second) return InvalidArgument(VarWhat(v.name) + " appears twice");
    cursor = AlignUp(cursor, kCheckpointAlignment);
    proto::CheckpointVarProto* p = index.add_vars();
    p->set_name(v.name);
    om::DescToProto(v.desc, p->mutable_desc());
    p->set_data_offset(cursor);
    p->set_data_size(bytes);
    layout.offsets.push_back(cursor);
    cursor += bytes;
  }
  index.set_var_info(c.var_info);
  if (index.ByteSizeLong() > kMaxIndexBytes) {
    return ResourceExhausted("checkpoint index of " + std::to_string(index.ByteSizeLong()) + " bytes exceeds " +
                             std::to_string(kMaxIndexBytes) + " bytes");
  }
  if (!index.SerializeToString(&layout.index)) return Internal("checkpoint index: serialization failed");
  layout.data_offset = AlignUp(kCheckpointHeaderSize + layout.index.size(), kCheckpointAlignment);
  layout.data_size = cursor;
  return layout;
}

// Calls out(bytes, n) for the file's bytes in order, with |checksum| in the header.
template <typename Out>
void EmitCheckpoint(const Checkpoint& c, const Layout& layout, uint32_t checksum, Out&& out) {
  static const uint8_t kZeros[kCheckpointAlignment] = {};
  auto emit = [&out](const void* p, uint64_t n) {
    if (n != 0) out(p, n);
  };
  uint8_t header[kCheckpointHeaderSize] = {};
  std::memcpy(header + kCkptOffMagic, kCheckpointMagic, 4);
  StoreU32(header + kCkptOffVersion, kCheckpointVersion);
  StoreU32(header + kCkptOffHeaderSize, kCheckpointHeaderSize);
  StoreU32(header + kCkptOffChecksum, checksum);
  StoreU64(header + kCkptOffTotalLength, layout.total());
  StoreU64(header + kCkptOffIndexOffset, kCheckpointHeaderSize);
  StoreU64(header + kCkptOffIndexSize, layout.index.size());
  StoreU64(header + kCkptOffDataOffset, layout.data_offset);
  StoreU64(header + kCkptOffDataSize, layout.data_size);
  emit(header, sizeof header);
  emit(layout.index.data(), layout.index.size());
  emit(kZeros, layout.data_offset - kCheckpointHeaderSize - layout.index.size());
  uint64_t cursor = 0;
  for (size_t i = 0; i < c.variables.size(); ++i) {
    const Tensor& value = c.variables[i].value;
    emit(kZeros, layout.offsets[i] - cursor);
    emit(value.raw_data(), value.nbytes());
    cursor = layout.offsets[i] + value.nbytes();
  }
}

// --- reading ---

struct Header {
  uint32_t checksum = 0;
  uint64_t index_offset = 0, index_size = 0, data_offset = 0, data_size = 0;
};

uint32_t ComputeChecksum(const uint8_t* data, size_t size) {
  static const uint8_t kZero[4] = {};
  uint32_t c = om::Crc32c(0, data, kCkptOffChecksum);
  c = om::Crc32c(c, kZero, 4);
  return om::Crc32c(c, data + kCkptOffChecksum + 4, size - kCkptOffChecksum - 4);
}

// [offset, offset + size) after the header and inside a file of |total| bytes.
Status CheckRegion(const char* what, uint64_t offset, uint64_t size, uint64_t total) {
  if (offset < kCheckpointHeaderSize || offset > total || size > total - offset) {
    return DataLoss(std::string("checkpoint ") + what + " [" + std::to_string(offset) + ", +" + std::to_string(size) +
                    ") lies outside the file's " + std::to_string(total) + " bytes after the header");
  }
  return Status::Ok();
}

StatusOr<Header> ReadHeader(const uint8_t* p, size_t size) {
  if (size < 4 || std::memcmp(p + kCkptOffMagic, kCheckpointMagic, 4) != 0) {
    return DataLoss("not a ge checkpoint: it does not start with \"GECK\"");
  }
  if (size < kCheckpointHeaderSize) {
    return DataLoss("checkpoint truncated: " + std::to_string(size) + " bytes, less than its " +
                    std::to_string(kCheckpointHeaderSize) + "-byte header");
  }
  const uint32_t version = LoadU32(p + kCkptOffVersion);
  if (version != kCheckpointVersion) {
    return DataLoss("checkpoint format version " + std::to_string(version) + ", this build reads version " +
                    std::to_string(kCheckpointVersion));
  }
  const uint32_t header_size = LoadU32(p + kCkptOffHeaderSize);
  if (header_size != kCheckpointHeaderSize) {
    return DataLoss("checkpoint header size " + std::to_string(header_size) + ", expected " +
                    std::to_string(kCheckpointHeaderSize));
  }
  const uint64_t total = LoadU64(p + kCkptOffTotalLength);
  if (total != size) {
    return DataLoss(total > size ? "checkpoint truncated: its header says " + std::to_string(total) +
                                       " bytes, the file has " + std::to_string(size)
                                 : "checkpoint has " + std::to_string(size) + " bytes, its header says " +
                                       std::to_string(total) + " (trailing bytes)");
  }
  Header h;
  h.checksum = LoadU32(p + kCkptOffChecksum);
  if (const uint32_t actual = ComputeChecksum(p, size); actual != h.checksum) {
    return DataLoss("checkpoint checksum mismatch (header " + Hex(h.checksum) + ", contents " + Hex(actual) +
                    "): the file is corrupt");
  }
  if (LoadU64(p + kCkptOffReserved) != 0) return DataLoss("checkpoint header: reserved bytes are not zero");
  h.index_offset = LoadU64(p + kCkptOffIndexOffset);
  h.index_size = LoadU64(p + kCkptOffIndexSize);
  h.data_offset = LoadU64(p + kCkptOffDataOffset);
  h.data_size = LoadU64(p + kCkptOffDataSize);
  GE_RETURN_IF_ERROR(CheckRegion("index", h.index_offset, h.index_size, total));
  GE_RETURN_IF_ERROR(CheckRegion("data region", h.data_offset, h.data_size, total));
  if (h.data_offset % kCheckpointAlignment != 0) {
    return DataLoss("checkpoint data region offset " + std::to_string(h.data_offset) + " is not a multiple of " +
                    std::to_string(kCheckpointAlignment));
  }
  if (h.index_size != 0 && h.data_size != 0 && h.index_offset < h.data_offset + h.data_size &&
      h.data_offset < h.index_offset + h.index_size) {
    return DataLoss("checkpoint index and data region overlap");
  }
  if (h.index_size > kMaxIndexBytes) {
    return DataLoss("checkpoint index of " + std::to_string(h.index_size) + " bytes exceeds " +
                    std::to_string(kMaxIndexBytes) + " bytes");
  }
  return h;
}

// One index entry, checked against the data region of |region_size| bytes.
struct VarEntry {
  std::string name;
  TensorDesc desc;
  uint64_t offset = 0, size = 0;
};

StatusOr<VarEntry> ReadEntry(const proto::CheckpointVarProto& p, int index, uint64_t region_size) {
  if (p.name().empty()) return DataLoss("checkpoint variable #" + std::to_string(index) + " has no name");
  const std::string what = VarWhat(p.name());
  VarEntry e{p.name(), {}, p.data_offset(), p.data_size()};
  GE_ASSIGN_OR_RETURN(e.desc, om::DescFromProto(p.desc(), what));
  auto bytes = VarBytes(e.desc);
  if (!bytes.ok()) return DataLoss(what + ": " + bytes.status().message());
  if (*bytes != e.size) {
    return DataLoss(what + ": its desc " + e.desc.ToString() + " holds " + std::to_string(*bytes) +
                    " bytes, the index says " + std::to_string(e.size));
  }
  if (e.offset % kCheckpointAlignment != 0) {
    return DataLoss(what + ": data offset " + std::to_string(e.offset) + " is not a multiple of " +
                    std::to_string(kCheckpointAlignment));
  }
  if (e.offset > region_size || e.size > region_size - e.offset) {
    return DataLoss(what + ": bytes [" + std::to_string(e.offset) + ", +" + std::to_string(e.size) +
                    ") lie outside the data region of " + std::to_string(region_size) + " bytes");
  }
  return e;
}

// Names unique; non-empty byte ranges pairwise disjoint.
Status CheckDistinct(const std::vector<VarEntry>& entries) {
  std::set<std::string> names;
  std::vector<const VarEntry*> by_offset;
  for (const VarEntry& e : entries) {
    if (!names.insert(e.name).second) return DataLoss(VarWhat(e.name) + " appears twice");
    if (e.size != 0) by_offset.push_back(&e);
  }
  std::sort(by_offset.begin(), by_offset.end(),
            [](const VarEntry* a, const VarEntry* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const VarEntry& prev = *by_offset[i - 1];
    if (by_offset[i]->offset < prev.offset + prev.size) {
      return DataLoss("checkpoint variables '" + prev.name + "' and '" + by_offset[i]->name + "' overlap");
    }
  }
  return Status::Ok();
}

StatusOr<CheckpointVariable> CopyOut(const VarEntry& e, const uint8_t* region) {
  GE_ASSIGN_OR_RETURN(Dims dims, CheckpointValueDims(e.desc));
  auto value = Tensor::Create(e.desc.dtype, dims);
  if (!value.ok()) return value.status().WithContext(VarWhat(e.name));
  if (e.size != 0) std::memcpy(value->raw_data(), region + e.offset, e.size);
  return CheckpointVariable{e.name, e.desc, *std::move(value)};
}

// --- files ---

Status FileError(const std::string& what, const std::string& path, int err) {
  const std::string m = what + " '" + path + "': " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return NotFound(m);
  if (err == ENOSPC || err == EDQUOT || err == EFBIG || err == ENOMEM) return ResourceExhausted(m);
  return FailedPrecondition(m);
}

// 0, or the errno of the failed write.
int WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w < 0 ? errno : EIO;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return 0;
}

std::string TempPathFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

// Makes the rename durable; best effort (some file systems cannot sync a directory).
void SyncParentDirectory(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// --- sessions ---

rt::MemcpyKind ToHostKind(rt::MemType t) {
  return t == rt::MemType::kHost ? rt::MemcpyKind::kHostToHost : rt::MemcpyKind::kDeviceToHost;
}
rt::MemcpyKind FromHostKind(rt::MemType t) {
  return t == rt::MemType::kHost ? rt::MemcpyKind::kHostToHost : rt::MemcpyKind::kHostToDevice;
}

StatusOr<std::vector<std::string>> NamesToSave(const VarManager& manager, const std::vector<std::string>& names) {
  if (!names.empty()) {
    std::set<std::string> seen;
    for (const std::string& n : names) {
      if (!seen.insert(n).second) return InvalidArgument("variable '" + n + "' is named twice");
    }
    return names;
  }
  const VarResource res = manager.resource();
  std::vector<std::string> out;
  for (const auto& [name, desc] : res.cur_var_tensor_desc_map) {
    auto it = res.var_addr_mgr_map.find(VarKey(res.BatchMapped(name), desc));
    if (it != res.var_addr_mgr_map.end() && it->second.kind == VarKind::kVariable) out.push_back(name);
  }
  return out;
}

StatusOr<CheckpointVariable> ReadSessionVariable(VarManager* manager, rt::Device* device, const std::string& name) {
  GE_ASSIGN_OR_RETURN(TensorDesc desc, manager->GetCurVarDesc(name));
  GE_ASSIGN_OR_RETURN(VarAddr addr, manager->GetVarAddr(name, desc));
  GE_ASSIGN_OR_RETURN(Dims dims, CheckpointValueDims(desc));
  GE_ASSIGN_OR_RETURN(Tensor value, Tensor::Create(desc.dtype, dims));
  if (value.nbytes() != addr.size) {
    return Internal("variable '" + name + "' of " + desc.ToString() + " has " + std::to_string(addr.size) +
                    " bytes, its desc " + std::to_string(value.nbytes()));
  }
  if (addr.size != 0) {
    GE_ASSIGN_OR_RETURN(void* memory, manager->GetVarMemoryAddr(addr.logical, addr.mem_type));
    Status s = device->Memcpy(value.raw_data(), memory, addr.size, ToHostKind(addr.mem_type));
    if (!s.ok()) return s.WithContext("reading variable '" + name + "'");
  }
  return CheckpointVariable{name, desc, std::move(value)};
}

// OK when the session lacks the variable or has it with the checkpoint's dtype, dims and format and enough bytes.
Status CheckRestorable(const VarManager& manager, const CheckpointVariable& v, uint64_t bytes) {
  auto cur = manager.GetCurVarDesc(v.name);
  if (!cur.ok()) return cur.status().code() == StatusCode::kNotFound ? Status::Ok() : cur.status();
  GE_ASSIGN_OR_RETURN(VarAddr addr, manager.GetVarAddr(v.name, *cur));
  const std::string both = VarWhat(v.name) + " is " + v.desc.ToString() + " (" + std::to_string(bytes) +
                           " bytes), the session's variable is " + cur->ToString() + " (" +
                           std::to_string(addr.size) + " bytes)";
  if (addr.size < bytes) return InvalidArgument(both + ": cannot restore into a smaller variable");
  if (cur->dtype != v.desc.dtype || cur->shape.dims() != v.desc.shape.dims() || cur->format != v.desc.format) {
    return InvalidArgument(both + ": cannot restore into a variable of another dtype, shape or format");
  }
  return Status::Ok();
}

Status RestoreOne(const CheckpointVariable& v, VarManager* manager, rt::Device* device, uint32_t device_id) {
  if (!manager->IsVarExist(v.name)) {
    VarRequest r;
    r.name = v.name;
    r.kind = VarKind::kVariable;
    r.desc = v.desc;
    GE_RETURN_IF_ERROR(manager->AssignVarMem(r).status());
  }
  GE_ASSIGN_OR_RETURN(VarAddr addr, manager->GetVarAddr(v.name, v.desc));
  if (v.value.nbytes() != 0) {
    GE_ASSIGN_OR_RETURN(void* memory, manager->GetVarMemoryAddr(addr.logical, addr.mem_type));
    GE_RETURN_IF_ERROR(device->Memcpy(memory, v.value.raw_data(), v.value.nbytes(), FromHostKind(addr.mem_type)));
  }
  manager->SetVarIsReady(v.name, v.desc, device_id);
  manager->BumpWriteVersion(v.name);  // kernels holding a converted copy convert again
  return Status::Ok();
}

}  // namespace

StatusOr<Dims> CheckpointValueDims(const TensorDesc& desc) {
  GE_RETURN_IF_ERROR(VarBytes(desc).status());  // static, non-negative, NC1HWC0 of rank 3 to 5
  const Dims& d = desc.shape.dims();
  if (PrimaryFormat(desc.format) != Format::kNC1HWC0) return d;
  const int64_t c0 = FormatC0(desc.format);
  Dims storage{d[0], d[1] / c0 + (d[1] % c0 != 0 ? 1 : 0)};
  storage.insert(storage.end(), d.begin() + 2, d.end());
  storage.push_back(c0);
  return storage;
}

StatusOr<std::string> SerializeCheckpoint(const Checkpoint& checkpoint) {
  GE_ASSIGN_OR_RETURN(const Layout layout, PlanLayout(checkpoint));
  std::string image;
  image.reserve(layout.total());
  EmitCheckpoint(checkpoint, layout, 0, [&image](const void* p, size_t n) {
    image.append(static_cast<const char*>(p), n);
  });
  StoreU32(reinterpret_cast<uint8_t*>(image.data()) + kCkptOffChecksum, om::Crc32c(0, image.data(), image.size()));
  return image;
}

StatusOr<Checkpoint> ParseCheckpoint(const void* data, size_t size) {
  if (data == nullptr && size != 0) return InvalidArgument("null checkpoint buffer");
  const uint8_t* p = static_cast<const uint8_t*>(data);
  GE_ASSIGN_OR_RETURN(const Header h, ReadHeader(p, size));
  proto::CheckpointProto index;
  if (!index.ParseFromArray(p + h.index_offset, static_cast<int>(h.index_size))) {
    return DataLoss("checkpoint index does not parse");
  }
  std::vector<VarEntry> entries;
  for (int i = 0; i < index.vars_size(); ++i) {
    GE_ASSIGN_OR_RETURN(VarEntry e, ReadEntry(index.vars(i), i, h.data_size));
    entries.push_back(std::move(e));
  }
  GE_RETURN_IF_ERROR(CheckDistinct(entries));
  Checkpoint c;
  c.var_info = std::move(*index.mutable_var_info());
  for (const VarEntry& e : entries) {
    GE_ASSIGN_OR_RETURN(CheckpointVariable v, CopyOut(e, p + h.data_offset));
    c.variables.push_back(std::move(v));
  }
  return c;
}

Status WriteCheckpointFile(const std::string& path, const Checkpoint& checkpoint) {
  GE_ASSIGN_OR_RETURN(const Layout layout, PlanLayout(checkpoint));
  uint32_t crc = 0;
  EmitCheckpoint(checkpoint, layout, 0, [&crc](const void* p, size_t n) { crc = om::Crc32c(crc, p, n); });
  const std::string tmp = TempPathFor(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return FileError("cannot create checkpoint", tmp, errno);
  int err = 0;
  EmitCheckpoint(checkpoint, layout, crc, [&](const void* p, size_t n) {
    if (err == 0) err = WriteAll(fd, p, n);
  });
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    return FileError("cannot write checkpoint", path, err);
  }
  SyncParentDirectory(path);
  return Status::Ok();
}

StatusOr<Checkpoint> ReadCheckpointFile(const std::string& path, uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT ? NotFound("no checkpoint file '" + path + "'")
                           : FileError("cannot open checkpoint", path, errno);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument("checkpoint '" + path + "' is not a regular file");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    return ResourceExhausted("checkpoint '" + path + "' has " + std::to_string(size) + " bytes, more than the " +
                             std::to_string(max_bytes) + "-byte limit");
  }
  void* map = size == 0 ? nullptr : ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);
  if (map == MAP_FAILED) return FileError("cannot map checkpoint", path, map_errno);
  auto parsed = ParseCheckpoint(map, size);
  if (map != nullptr) ::munmap(map, size);
  if (!parsed.ok()) return parsed.status().WithContext("checkpoint '" + path + "'");
  return parsed;
}

StatusOr<Checkpoint> SaveVariables(VarManager* manager, rt::Device* device, const std::vector<std::string>& names) {
  if (manager == nullptr || device == nullptr) return InvalidArgument("SaveVariables: no manager or device");
  GE_ASSIGN_OR_RETURN(const std::vector<std::string> to_save, NamesToSave(*manager, names));
  Checkpoint c;
  for (const std::string& name : to_save) {
    GE_ASSIGN_OR_RETURN(CheckpointVariable v, ReadSessionVariable(manager, device, name));
    c.variables.push_back(std::move(v));
  }
  GE_ASSIGN_OR_RETURN(c.var_info, SerializeVarInfo(*manager));
  return c;
}

Status RestoreVariables(const Checkpoint& checkpoint, VarManager* manager, rt::Device* device, uint32_t device_id) {
  if (manager == nullptr || device == nullptr) return InvalidArgument("RestoreVariables: no manager or device");
  std::set<std::string> names;
  for (const CheckpointVariable& v : checkpoint.variables) {
    GE_ASSIGN_OR_RETURN(const uint64_t bytes, CheckVariable(v));
    if (!names.insert(v.name).second) return InvalidArgument(VarWhat(v.name) + " appears twice");
    GE_RETURN_IF_ERROR(CheckRestorable(*manager, v, bytes));
  }
  for (const CheckpointVariable& v : checkpoint.variables) {
    Status s = RestoreOne(v, manager, device, device_id);
    if (!s.ok()) return s.WithContext("restoring " + VarWhat(v.name));
  }
  return Status::Ok();
}

}  // namespace ge::var
