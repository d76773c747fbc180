// ModelV2 (GE's ModelV2Executor, seed 002 §4.3): a model run on runtime v2. Load lowers the IR (lowering/), runs
// Init once and drops it, and creates the Main executor (option ge.exec.v2Executor); Execute feeds input tensors
// of any shape the model accepts and returns outputs at their run-time shapes; Unload runs DeInit.
//
// Two interfaces: the dynamic one (Execute on ge::Values, what `ge run` and `ge test-onnx --v2` use) and the
// ExecutableModel one (fixed-size buffers, for the loader behind the public offline-model API; only for models
// whose inputs and outputs all have known dims).
// Threading: every method may be called from any thread. Each execution runs on an ExecutionContext of its own
// (execution_context.h: its lowering of the model, allocators and executor) taken from a pool of at most
// ModelV2Options::max_concurrent_executions, made when executions first overlap; so up to that many Executes run
// at once, and more wait for a context to come back. A profiled or traced model runs one at a time. The statistics
// (memory_stats, kernels_prepared, Profile, ...) sum over the contexts, each read under its lock.
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/value.h"
#include "ir/graph.h"
#include "om/om_reader.h"
#include "rt/device.h"
#include "rt/task.h"
#include "runtime/executable_model.h"
#include "runtime/v2/execution_context.h"
#include "runtime/v2/executor.h"
#include "runtime/v2/lowering/lowering.h"
#include "runtime/v2/lowering/static_island.h"
#include "runtime/v2/session_variables.h"
#include "var/var_manager.h"

namespace ge::runtime::v2 {

class ArenaAllocator;

// Bounds of one input dim (base/shape.h); an input outside them is refused.
using DimRange = ge::DimRange;

struct ModelV2Options {
  ExecutorKind executor = ExecutorKind::kSequential;  // ge.exec.v2Executor
  int executor_threads = 2;   // workers of the multi-thread executor
  // Executions that may run at once (execution_context.h), each on its own context made when executions first
  // overlap (a lowering of the model with its own caches and memory). >= 1; profile and trace force 1.
  int max_concurrent_executions = 1;
  int intra_op_threads = 1;   // threads one kernel may use
  uint64_t seed = 0;          // random ops without a seed attribute
  size_t kernel_cache_capacity = 8;
  bool shape_agnostic_kernels = true;  // ge.exec.v2ShapeAgnosticKernels (LoweringOptions::shape_agnostic_kernels)
  kernels::EngineList engines;  // empty: kernels::BuiltinEngines()
  // Per input name, per dim: its range (dims without one: any size). Known dims must match exactly regardless.
  // Ranges the model records (ir::Model::input_ranges, from `ge compile`) apply to inputs not named here.
  std::map<std::string, std::vector<DimRange>> input_ranges;
  // Where the caching allocator takes memory from (outlives the model); null: plain host memory (SimpleAllocator).
  rt::Device* device = nullptr;
  // Intra-op threads for ge's kernels (outlives the model); null: they run serially.
  rt::IntraOpPool* pool = nullptr;
  // ge.exec.staticMemoryPolicy semantics for run-time memory (caching_allocator.h); the cap follows the peak.
  std::string static_memory_policy;
  // Hybrid execution (lowering/static_island.h): compiles static islands at load. The runtime never links the
  // compiler: the owner supplies compiler::CompileToOm here; null: no islands.
  StaticIslandCompiler compile_static_island;
  size_t static_island_min_nodes = 8;  // ge.exec.v2StaticIslandMinNodes; 0: no islands
  // Time every Main kernel (`ge run --profile`; the sequential order, two clock reads per node): see Profile().
  bool profile = false;
  // Record a timeline (`ge run --trace`; not owned, outlives the model): the load phases (lowering, Init) on
  // trace::kHostTrack and every Main kernel on trace::WorkerTrack(0), through |profile|'s sequential timing
  // executor; with the multi-thread |executor|, on that executor's threads, trace::WorkerTrack(thread) each. Null:
  // nothing recorded, and the executors carry no timing code.
  trace::TraceRecorder* trace = nullptr;
  // The session's variables (seed 000), shared with its other graphs; the .om's VAR_INFO is restored into them.
  // null: a model with variables gets its own manager (on |device|, which it then needs).
  std::shared_ptr<var::VarManager> variables;

  // Applies GE option keys this runtime reads (ge.exec.v2Executor, ge.exec.v2KernelCacheCapacity: prepared kernels
  // kept per node, ge.exec.staticMemoryPolicy, ge.exec.v2StaticIslandMinNodes); others are ignored.
  Status ApplyGeOptions(const std::map<std::string, std::string>& options);
};

class ModelV2 final : public ExecutableModel {
 public:
  // |model| must outlive the ModelV2 unless owned by it (the unique_ptr form); |keep_alive| holds what its constants
  // borrow (the .om mapping).
  static StatusOr<std::unique_ptr<ModelV2>> Load(std::unique_ptr<ir::Model> model, const ModelV2Options& options,
                                                 std::string name = "", std::shared_ptr<const void> keep_alive = nullptr);
  // An IR .om (model type kIr), or a lowered one (kLowered: lowered along its EXECUTE_PLAN, checked against the IR).
  static StatusOr<std::unique_ptr<ModelV2>> Load(std::shared_ptr<const om::OmReader> om, const ModelV2Options& options);
  ~ModelV2() override;

  // Inputs in graph-input order: dtypes, ranks and known dims must match the model's declarations, and dims with
  // a range must lie in it. *outputs: the graph outputs at their run-time shapes; a tensor already in *outputs is
  // reused (written in place, re-dimensioned) when it is held nowhere else, its dtype repeats and its storage is
  // large enough, so under shape churn outputs stop allocating once the largest was seen.
  Status Execute(const std::vector<Value>& inputs, std::vector<Value>* outputs);
  // Runs DeInit and frees the graphs; later Executes fail. Idempotent.
  Status Unload();

  const std::vector<const ir::Value*>& graph_inputs() const { return ir_inputs_; }
  const std::vector<const ir::Value*>& graph_outputs() const { return ir_outputs_; }
  const LoweringStats& stats() const { return lowering_stats_; }
  // What lowering did (the orders and converters it followed, the graphs' sizes): the .om's EXECUTE_PLAN.
  const ExecutePlan& plan() const { return lowered_plan_; }
  // Execution contexts made so far (1 after load, at most max_concurrent_executions).
  size_t execution_contexts() const { return contexts_ != nullptr ? contexts_->size() : 0; }
  // Kernels prepared since load, summed over nodes (cache misses; for tests and statistics).
  uint64_t kernels_prepared() const;
  // Runs in which a shape-derived node was skipped, summed over nodes (for tests and statistics).
  uint64_t memo_skips() const;
  // The variables the model's Variable nodes address (the session's, or the model's own); null: none.
  const std::shared_ptr<var::VarManager>& variables() const { return variables_; }
  // Outputs that took over the block of an input dying at their node (in place), since load.
  uint64_t inplace_takes() const;
  // Run-time memory (between runs: nothing is in use but what runs keep): the caching allocator's figures (values
  // up to 4 KiB), the arena's (larger values: segment bytes mapped and touched, bytes in use, peaks), the bytes the
  // single-thread front holds, and the kernels the per-node caches hold. All zero where the model has no device
  // (plain host memory).
  struct MemoryStats {
    size_t cap_bytes = 0, in_use_bytes = 0, cached_bytes = 0, peak_total_bytes = 0, front_held_bytes = 0;
    size_t arena_bytes = 0, arena_touched_bytes = 0, arena_in_use_bytes = 0, arena_peak_in_use_bytes = 0;
    size_t arena_peak_bytes = 0;
    size_t arena_segments = 0;
    size_t cached_kernels = 0;
  };
  MemoryStats memory_stats() const;
  // With ModelV2Options::profile: per Main kernel, in execution order, the time spent in it since load. op_type and
  // impl are those of the IR node it runs (impl: its current prepared kernel's implementation, "ref" for the
  // reference kernel); empty without profile.
  struct NodeProfile {
    std::string kernel, op_type, impl;
    double seconds = 0;
    uint64_t runs = 0;
  };
  std::vector<NodeProfile> Profile() const;
  // Why the buffer form of Execute cannot run the model (an input or output has unknown dims), or empty.
  const std::string& dynamic_io_reason() const { return dynamic_reason_; }
  // Why not even the tensor form can (an input or output that is not a numeric tensor of known rank), or empty.
  const std::string& unsupported_io_reason() const { return unsupported_io_; }

  // ExecutableModel (fixed-size buffers).
  const std::string& name() const override { return name_; }
  const std::vector<IoDesc>& inputs() const override { return io_inputs_; }
  const std::vector<IoDesc>& outputs() const override { return io_outputs_; }
  Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) override;
  Status ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) override;
  Status ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                      rt::Stream& stream) override;
  void Abort() override { stop_.store(true); }
  void ResetAbort() override { stop_.store(false); }
  const char* runtime_name() const override { return "v2"; }
  std::vector<runtime::NodeProfile> profile() const override;
  bool memory_stats(ModelMemoryStats* stats) const override;

 private:
  // Both Loads: |plan| (a lowered .om's) or null.
  static StatusOr<std::unique_ptr<ModelV2>> Create(std::unique_ptr<ir::Model> model, const ModelV2Options& options,
                                                   std::string name, std::shared_ptr<const void> keep_alive,
                                                   std::unique_ptr<ExecutePlan> plan,
                                                   std::unique_ptr<StaticIslands> islands,
                                                   om::ByteSpan var_info = {});
  ModelV2() = default;
  Status Init(const ModelV2Options& options, om::ByteSpan var_info);
  // Lowers the model along lowering_, runs its Init graph and creates its Main executor (|first|: the context made
  // at load, which alone is profiled or traced).
  StatusOr<std::unique_ptr<ExecutionContext>> MakeContext(bool first);
  // Places the model's variables (|var_info|: the .om's VAR_INFO, may be empty) in the session's manager or the
  // model's own; sets their init values.
  Status InitVariables(const ModelV2Options& options, om::ByteSpan var_info);
  Status CheckInputs(const std::vector<Value>& inputs) const;
  // Execute on a context of the pool; |affinity|: ContextPool::Acquire's (the stream of ExecuteAsync, or null).
  Status ExecuteOn(const void* affinity, const std::vector<Value>& inputs, std::vector<Value>* outputs);
  Status ExecuteBuffersOn(const void* affinity, const std::vector<DataBuffer>& inputs,
                          const std::vector<DataBuffer>& outputs);
  void ProfileContext(const ExecutionContext& context, std::vector<NodeProfile>* profile) const;

  std::shared_ptr<const void> keep_alive_;  // what the IR's constants borrow; declared first, destroyed last
  std::unique_ptr<ir::Model> owned_model_;
  std::shared_ptr<var::VarManager> variables_;  // null: the model has no variables
  std::unique_ptr<SessionVariables> variable_store_;  // outlives the lowered model (its RefNodes point at it)
  std::unique_ptr<StaticIslands> islands_;
  std::unique_ptr<ExecutePlan> plan_;  // a kLowered .om's EXECUTE_PLAN; null: lowering decides
  ModelV2Options options_;             // as loaded (MakeContext reads it)
  LoweringOptions lowering_;           // every context lowers the IR the same way
  NodeTimes node_times_;               // ModelV2Options::profile (the first context's executor)
  std::unique_ptr<KernelTraceLabels> trace_labels_;  // ModelV2Options::trace; outlives the first context's runs
  KernelTracer tracer_;
  // The contexts (after the islands, variables and tracer they point at, so destroyed before them).
  std::unique_ptr<ContextPool> contexts_;
  // The first context's, kept for the accessors (valid after Unload).
  std::vector<const ir::Value*> ir_inputs_, ir_outputs_;
  LoweringStats lowering_stats_;
  ExecutePlan lowered_plan_;
  std::string name_;
  std::map<std::string, std::vector<DimRange>> ranges_;
  std::vector<const std::vector<DimRange>*> input_ranges_;  // per input, or null
  std::vector<IoDesc> io_inputs_, io_outputs_;
  std::string dynamic_reason_;  // dynamic_io_reason()
  std::string unsupported_io_;  // unsupported_io_reason()
  std::atomic<bool> stop_{false};
  std::mutex unload_mu_;   // serializes Unload
  bool unloaded_ = false;  // under unload_mu_
};

}  // namespace ge::runtime::v2
