// The runtime's loader (DESIGN.md §2 "the loader chosen by model type"): opens an .om and picks the runtime for
// its model type — runtime v1's SinkModel for compiled static models (kStandard), runtime v2's ModelV2 for IR
// models (dynamic dims, control flow, sequences), the reference interpreter for an IR model only when asked
// (ModelLoadOptions::interpreter; it stays as the test oracle). It is the one place that decides: the public
// LoadFromFile / LoadFromMemory go through it, and so does `ge run`.
#include <future>
#include <optional>
#include <utility>

#include "ge/model.h"
#include "kernels/builtin_engines.h"
#include "om/om_reader.h"
#include "runtime/interpreter_model.h"
#include "runtime/v2/model_v2.h"
#include "runtime/model_manager.h"
#include "runtime/offline_model_internal.h"
#include "runtime/pipeline_executable_model.h"
#include "runtime/v1/sink_model.h"

namespace ge {
namespace runtime {

namespace {

constexpr int kChecksumTrack = trace::kHostTrack + 1;  // the checksum runs beside the load

// The runtime for the model type of an image OmReader verified (all but the checksum, which the caller checks).
StatusOr<LoadedModel> LoadVerified(const kernels::EngineList& engines, const ModelSource& source,
                                   const ModelLoadOptions& options, rt::Device& device,
                                   std::shared_ptr<const om::OmReader> om) {
  LoadedModel loaded;
  switch (om->header().model_type) {
    case om::OmModelType::kStandard: {
      if (om->header().dynamic) break;
      if (options.pipeline_stages > 0) {
        return FailedPrecondition(source.Describe() +
                                  ": pipeline_stages: only an IR or lowered .om (runtime v2) runs as a pipeline; this "
                                  "one is compiled for the sink runtime (compile with --runtime=v2)");
      }
      SinkModelOptions sink_options;
      sink_options.feature_map = options.feature_map;
      sink_options.feature_map_size = options.feature_map_size;
      sink_options.const_memory = options.const_memory;
      sink_options.const_memory_size = options.const_memory_size;
      sink_options.profile = options.profile;
      sink_options.trace = options.trace;
      sink_options.max_concurrent_executions = options.max_concurrent_executions;
      sink_options.engines = engines;
      sink_options.value_bins = options.value_bins;
      sink_options.variables = options.variables;
      GE_ASSIGN_OR_RETURN(std::unique_ptr<SinkModel> model, SinkModel::Load(std::move(om), &device, sink_options));
      loaded.feature_map_bytes = options.feature_map != nullptr ? 0 : model->stats().feature_map_bytes;
      loaded.weights_bytes = model->stats().weights_bytes;
      loaded.model = std::move(model);
      return loaded;
    }
    case om::OmModelType::kIr:
    case om::OmModelType::kLowered: {
      if (options.interpreter && options.trace != nullptr) {
        return FailedPrecondition(source.Describe() + ": the reference interpreter records no timeline (trace)");
      }
      if (options.interpreter) {
        // The interpreter runs the IR a lowered .om keeps too; compiled static islands only runtime v2 runs.
        if (om->has(om::PartitionType::kStaticIslands)) {
          return FailedPrecondition(source.Describe() +
                                    ": its static islands are compiled (runtime v2 only); for the interpreter, "
                                    "compile with --option=ge.exec.v2StaticIslandMinNodes=0");
        }
        GE_ASSIGN_OR_RETURN(std::unique_ptr<InterpreterModel> model,
                            InterpreterModel::Load(std::move(om), options.seed));
        loaded.model = std::move(model);
        return loaded;
      }
      if (options.pipeline_stages > 0 && options.trace != nullptr) {
        return FailedPrecondition(source.Describe() + ": a pipelined model records no timeline (trace)");
      }
      v2::ModelV2Options v2_options;
      GE_RETURN_IF_ERROR(v2_options.ApplyGeOptions(options.runtime_options));
      v2_options.engines = engines;
      v2_options.intra_op_threads = device.intra_op_threads();
      v2_options.device = &device;
      // ge's own kernels share the device's intra-op threads.
      if (device.intra_op_threads() > 1) v2_options.pool = device.intra_op_pool();
      v2_options.seed = options.seed;
      v2_options.variables = options.variables;
      v2_options.profile = options.profile;
      v2_options.trace = options.trace;
      if (options.pipeline_stages > 0) {
        v2::PipelineOptions pipeline;
        pipeline.stages = options.pipeline_stages;
        pipeline.stage_options = v2_options;
        GE_ASSIGN_OR_RETURN(loaded.model, PipelineExecutableModel::Load(std::move(om), pipeline));
        return loaded;
      }
      // Concurrent Executes overlap, each on its own execution context (profile and trace: one at a time).
      v2_options.max_concurrent_executions = options.max_concurrent_executions;
      GE_ASSIGN_OR_RETURN(std::unique_ptr<v2::ModelV2> model, v2::ModelV2::Load(std::move(om), v2_options));
      // Unknown dims are fine (the tensor form of Execute runs them); IO the API cannot express is not.
      if (!model->unsupported_io_reason().empty()) {
        return FailedPrecondition(
            "model '" + model->name() + "': " + model->unsupported_io_reason() +
            "; the offline-model API and `ge run` pass numeric tensors (`ge test-onnx` runs sequence IO)");
      }
      loaded.model = std::move(model);
      return loaded;
    }
    default:
      break;
  }
  return Unimplemented(source.Describe() + ": no runtime loads .om model type " +
                       std::to_string(static_cast<int>(om->header().model_type)) +
                       (om->header().dynamic ? " (dynamic)" : ""));
}

}  // namespace

ModelLoader OmModelLoader(kernels::EngineList engines) {
  return [engines = std::move(engines)](const ModelSource& source, const ModelLoadOptions& options,
                                        rt::Device& device) -> StatusOr<LoadedModel> {
    // A session's compiled graph: opened and verified when it was compiled.
    if (source.opened != nullptr) return LoadVerified(engines, source, options, device, source.opened);
    // Everything but the checksum is verified before a byte is read; the checksum (a pass over the whole image)
    // runs beside the load, and no model is handed out before it passed. A damaged image is reported as such even
    // when the load failed on it first.
    om::VerifyOptions structure;
    structure.check_checksum = false;
    std::shared_ptr<const om::OmReader> om;
    std::optional<trace::TraceScope> open(std::in_place, options.trace, "open the .om: map, verify the structure");
    if (!source.path.empty()) {
      GE_ASSIGN_OR_RETURN(om, om::OmReader::Open(source.path, structure));
    } else {
      GE_ASSIGN_OR_RETURN(om, om::OmReader::FromMemory(source.data, source.size, source.keep_alive, structure));
    }
    open.reset();
    if (options.trace != nullptr) options.trace->NameTrack(kChecksumTrack, "loader: checksum");
    std::future<Status> checksum = std::async(std::launch::async, [om, trace = options.trace] {
      trace::TraceScope verify(trace, "verify the .om checksum", "load", kChecksumTrack);
      const om::ByteSpan image = om->image();
      Status s = om::VerifyOmChecksum(image.data, image.size, om->header());
      return s.ok() || om->path().empty() ? s : s.WithContext(om->path());
    });
    StatusOr<LoadedModel> loaded = LoadVerified(engines, source, options, device, om);
    Status verified = checksum.get();
    if (!verified.ok()) return verified;
    return loaded;
  };
}

ModelLoader OmModelLoader() { return OmModelLoader(kernels::BuiltinEngines()); }

}  // namespace runtime

StatusOr<std::unique_ptr<OfflineModel>> OfflineModel::LoadFromFile(const std::string& path,
                                                                   const OfflineModelOptions& options) {
  return runtime::OfflineModelAccess::Load(runtime::ModelSource::File(path), options, runtime::OmModelLoader());
}

StatusOr<std::unique_ptr<OfflineModel>> OfflineModel::LoadFromMemory(const void* data, size_t size,
                                                                     const OfflineModelOptions& options) {
  GE_ASSIGN_OR_RETURN(runtime::ModelSource source, runtime::OfflineModelAccess::MemorySource(data, size, options));
  return runtime::OfflineModelAccess::Load(std::move(source), options, runtime::OmModelLoader());
}

}  // namespace ge
