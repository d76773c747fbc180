// A persistent model cache (ge.graph_compiler_cache_dir; seed 000, model cache; what TensorRT's engine cache and
// OpenVINO's cache_dir give users): a compiled .om stored in a directory under a key that hashes everything the
// compile result depends on, so that the next compile of the same graph (same or another process) loads it.
//
// Files: DIR/<32 hex digits>.om, each a plain .om (`ge inspect` and `ge run` read it). A store writes a temporary
// file in DIR and renames it over the key's name, so readers and concurrent writers only ever see whole files. A
// lookup verifies the file as any .om is verified (om::OmReader: sizes, partitions, checksum, ISA); a file that
// fails is reported (warning) and treated as a miss, and the compile that follows replaces it. A directory that
// cannot be created or written gives a warning; the compile still succeeds. Nothing is ever evicted.
//
// Threading: a ModelCache is immutable after construction; Lookup and Store may run concurrently, also from
// several processes on one directory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "om/om_reader.h"

namespace ge::session {

// GE's option name for the cache directory.
inline constexpr const char* kModelCacheDirOption = "ge.graph_compiler_cache_dir";

// A key over named fields: each field's name and bytes are hashed apart and the results hashed together, so
// fields never run into each other. The key is 128 bits, written as 32 lowercase hex digits.
class CacheKeyBuilder {
 public:
  CacheKeyBuilder& Add(std::string_view name, std::string_view value);
  CacheKeyBuilder& AddBytes(std::string_view name, const void* data, size_t size);
  CacheKeyBuilder& AddInt(std::string_view name, int64_t value);
  // Every option whose readers include the compiler (base/option_table.def), except the cache directory itself:
  // the options that can change a compile's result.
  CacheKeyBuilder& AddCompileOptions(const std::map<std::string, std::string>& options);
  // What a cached model also depends on beyond its inputs: the ge version, the build of the code running (the
  // shared object or executable, by path, size and modification time), the .om format version, the CPU's
  // features and vendor, and oneDNN's ISA limit (ONEDNN_MAX_CPU_ISA / DNNL_MAX_CPU_ISA).
  CacheKeyBuilder& AddEnvironment();
  std::string Key() const;

 private:
  std::string fields_;  // per field: name length, name, 16-byte hash of its bytes
};

// 128 bits of a non-cryptographic hash of |size| bytes (not for adversarial inputs; distinct inputs collide with
// probability about 2^-128).
struct Hash128 {
  uint64_t lo = 0, hi = 0;
};
Hash128 HashBytes(const void* data, size_t size, uint64_t seed = 0);

// How a cache reports what it skipped or could not do (a corrupt file, an unwritable directory). Default: a line
// "ge: warning: model cache: ..." on stderr.
using CacheWarningSink = std::function<void(const std::string& message)>;
void WarnOnStderr(const std::string& message);

struct CachedModel {
  // The file mapped and verified. Writers never change a file in place (they rename a new one over it), so the
  // mapping stays whole while a newer model replaces the file.
  std::unique_ptr<om::OmReader> reader;
  std::string path;
};

class ModelCache {
 public:
  // The cache the options ask for (kModelCacheDirOption), or nullopt when the key is absent or empty.
  static std::optional<ModelCache> FromOptions(const std::map<std::string, std::string>& options,
                                               CacheWarningSink warn = WarnOnStderr);
  explicit ModelCache(std::string dir, CacheWarningSink warn = WarnOnStderr);

  const std::string& dir() const { return dir_; }
  std::string PathFor(const std::string& key) const;
  // The verified model stored under |key|; nullopt when there is none or it fails verification (warned).
  std::optional<CachedModel> Lookup(const std::string& key) const;
  // Stores |om| under |key| (temporary file + rename). Returns false, with a warning, when it could not.
  bool Store(const std::string& key, const void* om, size_t size) const;
  void Warn(const std::string& message) const;

 private:
  std::string dir_;
  CacheWarningSink warn_;
};

}  // namespace ge::session
