#include "session/model_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/isa.h"
#include "base/option_table.h"
#include "om/om_format.h"

#ifndef GE_VERSION_STRING
#define GE_VERSION_STRING "unknown"
#endif

namespace ge::session {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;

uint64_t Rotl(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

uint64_t Mix(uint64_t lane, uint64_t word) { return Rotl(lane + word * kPrime2, 31) * kPrime1; }

uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

std::string Hex(const Hash128& h) {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(h.hi),
                static_cast<unsigned long long>(h.lo));
  return text;
}

std::string ErrnoText() { return std::strerror(errno); }

// The file the running code was loaded from (libge.so, or an executable that links ge statically): path, size
// and modification time, so that a rebuilt ge never reads models an older build cached.
std::string BuildIdentity() {
  static const std::string identity = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&BuildIdentity), &info) == 0 || info.dli_fname == nullptr) {
      return std::string("unknown build");
    }
    std::string out = info.dli_fname;
    struct stat st {};
    if (stat(info.dli_fname, &st) == 0) {
      out += ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
    }
    return out;
  }();
  return identity;
}

bool WriteAll(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// mkdir -p; true when |dir| exists as a directory afterwards.
bool MakeDirs(const std::string& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  const size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !MakeDirs(dir.substr(0, slash))) return false;
  if (mkdir(dir.c_str(), 0777) == 0 || errno == EEXIST) return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  return false;
}

}  // namespace

Hash128 HashBytes(const void* data, size_t size, uint64_t seed) {
  const auto* p = static_cast<const uint8_t*>(data);
  // Four independent lanes over 32-byte blocks (instruction-level parallelism), then the tail word by word.
  uint64_t lane[4] = {seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1};
  size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    for (int k = 0; k < 4; ++k) lane[k] = Mix(lane[k], Load64(p + i + 8 * k));
  }
  uint64_t a = Rotl(lane[0], 1) + Rotl(lane[1], 7) + Rotl(lane[2], 12) + Rotl(lane[3], 18);
  uint64_t b = Rotl(lane[3], 1) + Rotl(lane[2], 7) + Rotl(lane[1], 12) + Rotl(lane[0], 18) + kPrime3;
  a += size;
  b ^= size * kPrime1;
  for (; i + 8 <= size; i += 8) {
    const uint64_t w = Load64(p + i);
    a = Rotl(a ^ Mix(0, w), 27) * kPrime1 + kPrime3;
    b = Rotl(b ^ Mix(kPrime3, w), 29) * kPrime2 + kPrime1;
  }
  for (; i < size; ++i) {
    a = Rotl(a ^ (p[i] * kPrime3), 11) * kPrime1;
    b = Rotl(b ^ (p[i] * kPrime1), 13) * kPrime2;
  }
  Hash128 h;
  h.lo = Avalanche(a ^ Rotl(b, 17));
  h.hi = Avalanche(b + a * kPrime3);
  return h;
}

CacheKeyBuilder& CacheKeyBuilder::AddBytes(std::string_view name, const void* data, size_t size) {
  const uint64_t name_size = name.size();
  fields_.append(reinterpret_cast<const char*>(&name_size), sizeof name_size);
  fields_.append(name.data(), name.size());
  const Hash128 h = HashBytes(data, size);
  fields_.append(reinterpret_cast<const char*>(&h.lo), sizeof h.lo);
  fields_.append(reinterpret_cast<const char*>(&h.hi), sizeof h.hi);
  return *this;
}

CacheKeyBuilder& CacheKeyBuilder::Add(std::string_view name, std::string_view value) {
  return AddBytes(name, value.data(), value.size());
}

CacheKeyBuilder& CacheKeyBuilder::AddInt(std::string_view name, int64_t value) {
  return Add(name, std::to_string(value));
}

CacheKeyBuilder& CacheKeyBuilder::AddCompileOptions(const std::map<std::string, std::string>& options) {
  std::string text;
  for (const auto& [key, value] : options) {  // std::map: sorted, so the text does not depend on insertion order
    if (key == kModelCacheDirOption) continue;
    const OptionInfo* info = FindOption(key);
    if (info != nullptr && (info->readers & kReaderCompiler) == 0) continue;
    text += std::to_string(key.size()) + ":" + key + "=" + std::to_string(value.size()) + ":" + value + ";";
  }
  return Add("options", text);
}

CacheKeyBuilder& CacheKeyBuilder::AddEnvironment() {
  Add("ge.version", GE_VERSION_STRING);
  Add("build", BuildIdentity());
  AddInt("om.format", om::kOmFormatVersion);
  const IsaFingerprint& isa = HostIsa();
  AddInt("isa.features", static_cast<int64_t>(isa.features));
  Add("isa.vendor", isa.vendor);
  for (const char* env : {"ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA"}) {
    const char* value = std::getenv(env);
    Add(env, value == nullptr ? "<unset>" : value);
  }
  return *this;
}

std::string CacheKeyBuilder::Key() const { return Hex(HashBytes(fields_.data(), fields_.size(), kPrime3)); }

void WarnOnStderr(const std::string& message) {
  std::fprintf(stderr, "ge: warning: model cache: %s\n", message.c_str());
}

std::optional<ModelCache> ModelCache::FromOptions(const std::map<std::string, std::string>& options,
                                                  CacheWarningSink warn) {
  static_assert(std::string_view(kModelCacheDirOption) == "ge.graph_compiler_cache_dir");
  auto it = options.find("ge.graph_compiler_cache_dir");  // spelled out: tests/cli/check_options.py looks for readers
  if (it == options.end() || it->second.empty()) return std::nullopt;
  return ModelCache(it->second, std::move(warn));
}

ModelCache::ModelCache(std::string dir, CacheWarningSink warn) : dir_(std::move(dir)), warn_(std::move(warn)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

std::string ModelCache::PathFor(const std::string& key) const { return dir_ + "/" + key + ".om"; }

void ModelCache::Warn(const std::string& message) const {
  if (warn_) warn_(message);
}

std::optional<CachedModel> ModelCache::Lookup(const std::string& key) const {
  const std::string path = PathFor(key);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) Warn("cannot read '" + path + "' (" + ErrnoText() + "); compiling");
    return std::nullopt;
  }
  auto reader = om::OmReader::Open(path);
  if (!reader.ok()) {
    Warn("'" + path + "' is not a valid model (" + reader.status().message() + "); compiling it again");
    return std::nullopt;
  }
  CachedModel cached;
  cached.path = path;
  cached.reader = std::move(*reader);
  return cached;
}

bool ModelCache::Store(const std::string& key, const void* om, size_t size) const {
  if (!MakeDirs(dir_)) {
    Warn("cannot create the directory '" + dir_ + "' (" + ErrnoText() + "); the model is not cached");
    return false;
  }
  const std::string path = PathFor(key);
  // Same directory as the final name, so the rename is atomic; a name no lookup reads (no ".om" ending).
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) {
    Warn("cannot write in '" + dir_ + "' (" + ErrnoText() + "); the model is not cached");
    return false;
  }
  const bool written = WriteAll(fd, om, size);
  const int write_errno = errno;
  (void)fchmod(fd, 0644);  // mkstemp made it 0600; other users of a shared cache directory may read it
  if (close(fd) != 0 || !written) {
    errno = write_errno;
    Warn("writing '" + tmp + "' failed (" + ErrnoText() + "); the model is not cached");
    unlink(tmp.c_str());
    return false;
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    Warn("cannot rename '" + tmp + "' to '" + path + "' (" + ErrnoText() + "); the model is not cached");
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace ge::session
