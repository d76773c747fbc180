// What `ge test-onnx` (ge-dev) drives: an ONNX test case's model on the interpreter, or its compiled .om image
// through the public offline-model API (include/ge/model.h), or on runtime v2 directly where the IO holds
// sequences, which the public API does not pass. (`ge run` is on the public API alone: run_command.cc.)
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
    return FailedPrecondition("--trace=" + path + ": only the sink runtime and runtime v2 record a timeline");
  }
  virtual const std::vector<ModelIo>& inputs() const = 0;
  virtual const std::vector<ModelIo>& outputs() const = 0;
  // Checks |inputs| against the declarations, runs once, fills |outputs| in graph-output order.
  virtual Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) = 0;
};

struct OpenOptions {
  int threads = 1;  // intra-op threads of the sink runtime's device
  ThreadContention contention = ThreadContention::kAdaptive;  // how they react to other processes
  uint64_t seed = 0;
  bool profile = false;  // time every kernel (sink runtime, runtime v2): see ModelRunner::Profile
  bool trace = false;    // record a timeline (sink runtime, runtime v2): ModelRunner::WriteTrace
  bool interpreter = false;  // IR .om models on the reference interpreter instead of runtime v2
  std::map<std::string, std::string> ge_options;  // runtime options, e.g. ge.exec.v2Executor
};

// Runs an IR model on the interpreter.
StatusOr<std::unique_ptr<ModelRunner>> OpenIrModel(std::unique_ptr<ir::Model> model, const OpenOptions& options);
// Opens an .om image held in memory (taken over).
StatusOr<std::unique_ptr<ModelRunner>> OpenOmImage(std::vector<uint8_t> image, const OpenOptions& options);

}  // namespace ge::cli
