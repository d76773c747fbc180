// The public compile API (DESIGN.md §3, §9; GE's atc / aclgrphBuildModel): an ONNX model or a graph in ge's IR
// text form (.geir), from a file or from bytes in memory, compiled into an offline model (.om) held in memory or
// written to a file, with the compile report. What `ge compile` does, for any program that links libge.
//
//   ge::CompileOptions options;
//   options.input_shapes["x"] = {1, 3, 224, 224};
//   auto om = ge::Compile(ge::CompileSource::FromFile("net.onnx"), options);   // StatusOr<CompiledModel>
//   auto model = ge::OfflineModel::LoadFromMemory(om->om.data(), om->om.size());
//
// A static graph becomes a compiled model for the sink runtime (memory plan, streams, tasks); a graph that keeps
// unknown dims, or needs what the sink cannot run, becomes a model lowered for runtime v2 (report.static_model is
// false, report.dynamic_reason says why). OfflineModel loads either.
//
// Threading: every function here is thread-safe; compiles share nothing. Self-contained header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ge/api.h"
#include "ge/model.h"
#include "ge/status.h"

namespace ge {

enum class ModelFormat {
  kAuto,     // decided from the bytes (DetectModelFormat) and, for files, a .geir extension
  kOnnx,     // an ONNX ModelProto
  kGeir,     // ge's IR text form (`ge compile --dump_graph` writes it; it may hold ge's own ops)
  kOm,       // a compiled offline model (what this API writes; OfflineModel loads it)
  kUnknown,  // DetectModelFormat: none of the above
};

// What model bytes hold: kOm (the .om magic), kGeir (IR text: its first word is ir_version, producer, opset or
// graph), kOnnx (anything else that starts like a protobuf message) or kUnknown (empty, or text that is no IR).
// Looks at the first bytes only; the parser that reads them checks the rest.
GE_API ModelFormat DetectModelFormat(const void* data, size_t size);
GE_API const char* ModelFormatName(ModelFormat format);

// Where the model comes from: a file, or bytes the caller keeps valid for the duration of the Compile call.
struct CompileSource {
  std::string path;
  const void* data = nullptr;
  size_t size = 0;
  ModelFormat format = ModelFormat::kAuto;
  // Bytes only: the folder ONNX external-data locations are relative to (a file's own folder for a path); empty:
  // the current directory.
  std::string base_dir;

  static CompileSource FromFile(std::string path) {
    CompileSource s;
    s.path = std::move(path);
    return s;
  }
  static CompileSource FromBytes(const void* data, size_t size, std::string base_dir = "") {
    CompileSource s;
    s.data = data;
    s.size = size;
    s.base_dir = std::move(base_dir);
    return s;
  }
};

struct CompileOptions {
  // Intra-op threads the model will run with: kernels are chosen and weights prepacked for that many (`--threads`).
  // 0: the CPUs this process may use, as OfflineModelOptions::intra_op_threads defaults to.
  int threads = 0;
  // The CPU level the model is for (`--target`): "native", "x86-64-v2", "x86-64-v3" or "x86-64-v4". Recorded in
  // the .om, which then refuses to load on a CPU below it.
  std::string target = "native";
  // Per graph input: the dims to compile for; -1 keeps a dim symbolic. Inputs not named keep their declared dims.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // The same in `ge compile --input_shape` text ("x:1,3,224,224;ids:1,1~512"), where a range LO~HI keeps a dim
  // symbolic and is enforced at run time. An input may be named here or in input_shapes, not in both.
  std::string input_shape_spec;
  // GE's option keys the compiler reads (ge.exec.precision_mode, ge.externalWeight, ge.exec.disableReuseMemory,
  // ge.fusion, ge.engine.<name>, ...; `ge options` lists them): an unknown key (InvalidArgument naming the closest
  // known one), a key the compiler does not read or a bad value is refused, as `ge compile --option` refuses it.
  // ge.externalWeight with an in-memory result needs ge.externalWeightDir.
  std::map<std::string, std::string> options;
  // "auto": the sink runtime when every shape is known, else runtime v2; "v2": runtime v2 always; "v1": the sink
  // runtime or FailedPrecondition saying why the model cannot have it.
  std::string runtime = "auto";
  // Time each oneDNN node's kernel variants on this machine and record the fastest (`--tune`; slow).
  bool tune = false;
  // Called as long phases advance, on the compiling thread: (phase, done, total); today "tune", once per node
  // before it is timed. Empty: no calls.
  std::function<void(const std::string& phase, int64_t done, int64_t total)> progress;
  // ONNX external data: false (default) leaves constants the compiler does not change in their data file (read
  // there at load); true copies them into the .om.
  bool embed_external_data = false;
  // The model's name in the .om; empty: the graph's name.
  std::string model_name;
  // With ge.graph_compiler_cache_dir in `options` (a persistent model cache: each compiled .om is stored there,
  // keyed by the model's bytes, these options, the CPU and the ge build, and loaded instead of compiled next time):
  // true returns a model found in the cache as its file (CompiledModel::cache_path, om left empty), for the caller
  // to map with OfflineModel::LoadFromFile instead of copying it into memory.
  bool cached_model_as_path = false;
};

// What the compiler made (`ge compile --json` prints the same).
struct CompileReport {
  bool static_model = false;       // true: a compiled model for the sink runtime; false: lowered for runtime v2
  std::string dynamic_reason;      // why not static, when static_model is false
  std::string runtime;             // "sink" or "v2": which runtime will run the .om
  std::string target;              // the resolved target, e.g. "x86-64-v4"
  std::vector<std::string> notes;  // e.g. "input x: dim 0 unknown, compiled as 1"
  size_t nodes_before = 0, nodes_after = 0;
  uint64_t feature_map_bytes = 0, feature_map_lower_bound_bytes = 0, weights_bytes = 0;
  std::string memory_strategy;
  int streams = 0, events = 0;
  size_t tasks = 0;
  uint64_t elided_concats = 0;       // Concats that run no task (their producers write the joined tensor)
  std::map<std::string, int> impls;  // kernel implementation per engine node, counted by name
  int external_weight_tensors = 0;   // weights read from files beside the .om or the ONNX data files
  uint64_t external_weights_bytes = 0;
  std::vector<std::string> external_weight_files;  // the weight files written (absolute paths)
  int external_data_tensors = 0;                   // of those, the ONNX external-data tensors read in place
  uint64_t external_data_bytes = 0;
  int static_islands = 0;  // runtime v2 models: static subgraphs compiled for the sink runtime
  size_t static_island_nodes = 0;
};

struct CompiledModel {
  std::vector<uint8_t> om;  // the .om image: OfflineModel::LoadFromMemory, or write it to a file
  CompileReport report;
  // The model cache's file the model came from (report.notes says so); empty when it was compiled. With
  // CompileOptions::cached_model_as_path, `om` is then empty.
  std::string cache_path;
};

// Compiles into memory. Errors: InvalidArgument (bad option, shape spec or model, naming the node or value),
// NotFound (no such file), Unimplemented (an op ge lacks), FailedPrecondition (runtime "v1" for a dynamic model).
GE_API StatusOr<CompiledModel> Compile(const CompileSource& source, const CompileOptions& options = {});
// Runs a model source uncompiled on the reference interpreter (`ge run M.onnx`): the graph exactly as the file
// gives it, node by node, slow; for checking results. The model has the offline-model API (inputs, outputs, both
// forms of Execute, runtime() "interpreter"); of the options only seed matters, and trace is refused (the interpreter
// records no timeline). Errors as Compile parses.
GE_API StatusOr<std::unique_ptr<OfflineModel>> LoadOnInterpreter(const CompileSource& source,
                                                                 const OfflineModelOptions& options = {});
// Compiles into the file om_path (written whole or not at all); ge.externalWeight's files go beside it. The model
// cache (ge.graph_compiler_cache_dir) is Compile's: here it is InvalidArgument.
GE_API StatusOr<CompileReport> CompileToFile(const CompileSource& source, const std::string& om_path,
                                             const CompileOptions& options = {});

}  // namespace ge
