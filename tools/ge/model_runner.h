// What `ge run` drives: a model opened from .onnx (interpreter), or an .om through the public offline-model API
// (include/ge/model.h), whose loader picks the runtime (sink, runtime v2, or the interpreter when asked) as it
// does for library users. Only --pipeline_stages and `ge test-onnx` images with sequence IO use runtime v2
// directly.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "base/value.h"
#include "ir/graph.h"
#include "ge/model.h"

namespace ge::cli {

struct ModelIo {
  std::string name;
  TensorDesc desc;
};

class ModelRunner {
 public:
  virtual ~ModelRunner() = default;
  virtual const char* engine() const = 0;  // "interpreter", "v2" or "sink"
  // Intra-op threads the engine really uses (the interpreter runs on the calling thread only).
  virtual int threads() const = 0;
  // Kernel implementations of the loaded model counted by name ("dnnl.conv(jit:avx2)", "exec.binary_f32", "ref");
  // empty for the interpreter. The target ISA the model was compiled for ("" when none).
  virtual std::map<std::string, int> impls() const { return {}; }
  virtual std::string target() const { return ""; }
  // Figures about run-time memory for `ge run --json` ("memory": {...}), as JSON members; "" when none.
  virtual std::string MemoryJson() const { return ""; }
  // Kernel time per node since load, when opened with OpenOptions::profile (sink runtime, runtime v2); empty otherwise.
  virtual std::vector<KernelProfile> Profile() const { return {}; }
  // The timeline recorded since load (OpenOptions::trace) as trace-event JSON (`ge run --trace`).
  virtual Status WriteTrace(const std::string& path) const {
    return FailedPrecondition("--trace=" + path +
                              ": only the sink runtime and runtime v2 (without --pipeline_stages) record a timeline");
  }
  virtual const std::vector<ModelIo>& inputs() const = 0;
  virtual const std::vector<ModelIo>& outputs() const = 0;
  // Checks |inputs| against the declarations, runs once, fills |outputs| in graph-output order.
  virtual Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) = 0;
  // Runs a batch of requests; one Run after another unless the engine overlaps them (runtime v2's pipeline).
  virtual Status RunBatch(const std::vector<std::vector<Value>>& requests, std::vector<std::vector<Value>>* outputs) {
    outputs->assign(requests.size(), {});
    for (size_t k = 0; k < requests.size(); ++k) GE_RETURN_IF_ERROR(Run(requests[k], &(*outputs)[k]));
    return Status::Ok();
  }
  // Pipeline stages the engine runs (runtime v2 with OpenOptions::pipeline_stages); 0 when none.
  virtual size_t pipeline_stages() const { return 0; }
};

struct OpenOptions {
  int threads = 1;  // intra-op threads of the sink runtime's device
  ThreadContention contention = ThreadContention::kAdaptive;  // how they react to other processes
  uint64_t seed = 0;
  bool profile = false;  // time every kernel (sink runtime, runtime v2): see ModelRunner::Profile
  bool trace = false;    // record a timeline (sink runtime, runtime v2 without a pipeline): ModelRunner::WriteTrace
  bool interpreter = false;  // IR .om models on the reference interpreter instead of runtime v2
  std::map<std::string, std::string> ge_options;  // runtime options, e.g. ge.exec.v2Executor
  // IR .om models: run on runtime v2's pipeline of this many partitioned stages (pipeline_model.h); 0: one ModelV2.
  size_t pipeline_stages = 0;
};

// Opens |path| by content: an .om (magic "GEOM") or else ONNX. Load is everything until ready to execute.
StatusOr<std::unique_ptr<ModelRunner>> OpenModel(const std::string& path, const OpenOptions& options);
// Runs an IR model on the interpreter.
StatusOr<std::unique_ptr<ModelRunner>> OpenIrModel(std::unique_ptr<ir::Model> model, const OpenOptions& options);
// Opens an .om image held in memory (taken over).
StatusOr<std::unique_ptr<ModelRunner>> OpenOmImage(std::vector<uint8_t> image, const OpenOptions& options);

}  // namespace ge::cli
