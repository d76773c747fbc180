// The model cache for the in-memory compile API (ge::Compile; Python's InferenceSession and ge.compile reach it
// through their ge.* options): ge.graph_compiler_cache_dir, with the directory's rules of session/model_cache.h.
//
// The key hashes the model as given (a file's bytes, read through mmap, or the caller's bytes: for ONNX and IR text
// they are the serialized graph, imported the same way by the same ge), how its format is decided, every
// CompileOptions field that changes the result (threads as resolved, target, input shapes, runtime, tune, external
// data, model name, the compiler's ge.* options) and the environment (ge version and build, CPU features). A model
// whose .om reads files beside it (ONNX external data, ge.externalWeight) is not cached: those files could change
// under the same key.
//
// A hit's CompileReport is read back from the .om (runtime, target, memory plan, streams, events), with a note
// naming the cache file; fields only a compile knows (kernel implementations, node counts) are empty.
#pragma once
#include <optional>
#include <string>

#include "ge/compile.h"
#include "session/model_cache.h"

namespace ge::api {

class CompileCache {
 public:
  // Disabled when options.options has no cache directory or the model cannot be read for its key (the compile
  // then reports the problem).
  CompileCache(const CompileSource& source, const CompileOptions& options, int resolved_threads,
               session::CacheWarningSink warn = session::WarnOnStderr);

  bool enabled() const { return cache_.has_value() && !key_.empty(); }
  const std::string& key() const { return key_; }
  // The cached model (its bytes, or with |as_path| only its file's path), or nullopt on a miss.
  std::optional<CompiledModel> Find(bool as_path) const;
  void Store(const CompiledModel& compiled) const;

 private:
  std::optional<session::ModelCache> cache_;
  std::string key_;
};

}  // namespace ge::api
