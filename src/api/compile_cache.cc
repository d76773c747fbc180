#include "api/compile_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

#include "base/isa.h"
#include "om/model_def.pb.h"

namespace ge::api {
namespace {

// The bytes of |path| into |key| (mmapped, so a large model is hashed at memory speed); false when unreadable.
bool AddFileBytes(const std::string& path, session::CacheKeyBuilder* key) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    return false;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  // MAP_POPULATE: one call maps every page (the hash reads them all) instead of a fault per page.
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) return false;
  key->AddBytes("model", data, size);
  munmap(data, size);
  return true;
}

std::string ShapesText(const std::map<std::string, std::vector<int64_t>>& shapes) {
  std::string text;
  for (const auto& [name, dims] : shapes) {
    text += std::to_string(name.size()) + ":" + name + "=";
    for (int64_t d : dims) text += std::to_string(d) + ",";
    text += ";";
  }
  return text;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What a compile reports, as far as the .om records it.
CompileReport ReportFromOm(const om::OmReader& om, const std::string& path) {
  CompileReport r;
  r.static_model = om.header().model_type == om::OmModelType::kStandard;
  r.runtime = r.static_model ? "sink" : "v2";
  r.target = IsaLevelName(IsaLevelOf(om.header().isa.features));
  if (!r.static_model) r.dynamic_reason = "as when it was compiled (the model came from the model cache)";
  r.notes.push_back("loaded from the model cache: " + path);
  if (!r.static_model) return r;
  proto::ModelDefProto def;
  const om::ByteSpan bytes = om.partition(om::PartitionType::kModelDef);
  if (bytes.size > INT32_MAX || !def.ParseFromArray(bytes.data, static_cast<int>(bytes.size))) return r;
  if (!def.target_isa().empty()) r.target = def.target_isa();
  r.feature_map_bytes = def.memory().feature_map_bytes();
  r.feature_map_lower_bound_bytes = def.memory().feature_map_lower_bound_bytes();
  r.weights_bytes = def.memory().weights_bytes();
  r.memory_strategy = def.memory().strategy();
  r.streams = def.num_streams();
  r.events = def.num_events();
  return r;
}

}  // namespace

CompileCache::CompileCache(const CompileSource& source, const CompileOptions& options, int resolved_threads,
                           session::CacheWarningSink warn)
    : cache_(session::ModelCache::FromOptions(options.options, std::move(warn))) {
  if (!cache_.has_value()) return;
  session::CacheKeyBuilder key;
  key.Add("kind", "compile api").AddEnvironment();
  if (!source.path.empty()) {
    if (source.data != nullptr || !AddFileBytes(source.path, &key)) return;  // the compile names the problem
    key.AddInt("geir_extension", EndsWith(source.path, ".geir") ? 1 : 0);
  } else {
    if (source.data == nullptr || source.size == 0) return;
    key.AddBytes("model", source.data, source.size);
  }
  key.AddInt("format", static_cast<int>(source.format));
  key.AddInt("threads", resolved_threads)
      .Add("target", options.target)
      .Add("input_shapes", ShapesText(options.input_shapes))
      .Add("input_shape_spec", options.input_shape_spec)
      .AddCompileOptions(options.options)
      .Add("runtime", options.runtime)
      .AddInt("tune", options.tune ? 1 : 0)
      .AddInt("embed_external_data", options.embed_external_data ? 1 : 0)
      .Add("model_name", options.model_name);
  key_ = key.Key();
}

std::optional<CompiledModel> CompileCache::Find(bool as_path) const {
  if (!enabled()) return std::nullopt;
  std::optional<session::CachedModel> hit = cache_->Lookup(key_);
  if (!hit.has_value()) return std::nullopt;
  CompiledModel out;
  out.report = ReportFromOm(*hit->reader, hit->path);
  out.cache_path = hit->path;
  if (!as_path) {
    const om::ByteSpan image = hit->reader->image();
    out.om.assign(image.data, image.data + image.size);
  }
  return out;
}

void CompileCache::Store(const CompiledModel& compiled) const {
  if (!enabled()) return;
  if (compiled.report.external_weight_tensors > 0 || compiled.report.external_data_tensors > 0) {
    cache_->Warn(
        "the model reads weights from files beside it (ONNX external data or ge.externalWeight); it is "
        "not cached");
    return;
  }
  (void)cache_->Store(key_, compiled.om.data(), compiled.om.size());
}

}  // namespace ge::api
