// The compilation pipeline (DESIGN.md §3; GE's GraphManager::BuildGraph, `ge compile`): fix input shapes,
// prepare/optimize passes, then either build a static model (memory plan, stream plan, tasks: an .om of model
// type kStandard that runtime v1 loads as a SinkModel) or, when the graph keeps unknown dims or needs what the
// sink cannot run (subgraphs, sequences, strings), an IR .om flagged dynamic that runs on the interpreter until
// runtime v2 lowers it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/shape.h"
#include "base/status.h"
#include "base/trace_recorder.h"
#include "compiler/planning/memory_planner.h"
#include "compiler/planning/stream_allocator.h"
#include "ir/graph.h"
#include "kernels/builtin_engines.h"
#include "var/var_manager.h"

namespace ge::compiler {

struct CompileOptions {
  // GE option keys: ge.exec.disableReuseMemory, ge.streamMaxParallelNum (set: exactly that budget; unset: up to
  // 4 streams while memory stays within 1.15x the lower bound, one stream when oneDNN kernels run),
  // ge.constantFoldingMaxBytes, ge.fusion (1|0), ge.engine.<name> (1|0: e.g. ge.engine.dnnl=0 keeps the oneDNN
  // engine off convolutions, matmuls, pooling, softmax and norms), ge.format.activation (NHWC|NC1HWC0|NCHW: the layout of convolution chains),
  // ge.weights.prepack (1|0: constant weights stored in oneDNN's layouts),
  // ge.exec.precision_mode (fp32: float32 semantics, the default; allow_bf16: the dnnl convolutions, matmuls and
  // attention may compute in bfloat16 where the running CPU has AVX-512 BF16; recorded in the .om's MODEL_DEF).
  // ge.externalWeight (0: weights in the .om, the default; 1: a file per distinct weight, weight_<crc>_<bytes>;
  // 2: one combined file <.om name>_weight_combined) and ge.externalWeightDir (where those files go; default next
  // to the .om, M.om -> M.weights/; required by CompileToOm, which writes no file): every constant of at least 64
  // bytes becomes a ge::FileConstant node (om/weight_file.h) whose file path is relative to the .om's directory
  // when the files lie below it, else absolute. Static models only; a dynamic model keeps its weights.
  std::map<std::string, std::string> ge_options;
  // ONNX external data: a constant whose bytes the compiler leaves unchanged stays in the model's data file (a
  // ge::FileConstant reading it there, relative to the .om's directory when the file lies below it, else by
  // absolute path; such weights are not prepacked, the loader converts them once per process). true: copy them
  // into the .om (or ge.externalWeight's files) like any other constant (`ge compile --embed_external_data`).
  bool embed_external_data = false;
  // The engines the compiler may assign nodes to, in priority order (kernels/engine.h); ge's own list unless the
  // caller passes another (tests pass fakes or none).
  kernels::EngineList engines = kernels::BuiltinEngines();
  // Intra-op threads the model will run with (`--threads`): weights are prepacked for kernels of that many.
  int threads = 1;
  // The CPU level the model is for (`--target`): "native" (this machine as oneDNN sees it, the default),
  // "x86-64-v2", "x86-64-v3" (AVX2 + FMA) or "x86-64-v4" (AVX-512). It decides activation layouts (NC1HWC0's C0:
  // 8 below v4, 16 at v4), which kernel implementations are chosen and the layout of prepacked weights; it is
  // recorded in the .om, which then refuses to load where the CPU (or ONEDNN_MAX_CPU_ISA) is below it.
  std::string target = "native";
  // `--tune`: time each dnnl node's kernel variants here and record the fastest in the model (tune_pass.cc).
  bool tune = false;
  // Long phases report how far they got (what, done, total): tuning per node. Called on the compiling thread;
  // empty: no reports.
  std::function<void(const std::string& what, int64_t done, int64_t total)> progress;
  // Per graph input: the dims to compile for (`--input_shape`). Inputs not listed keep their declared dims; an
  // unknown dim left after that stays symbolic (the model is dynamic and runs on runtime v2; the report says so).
  std::map<std::string, Dims> input_shapes;
  // Per input, per dim: a range (input_shape_spec.h) for the dims input_shapes gives as kUnknownDim; the dim stays
  // symbolic and the range is recorded in the IR .om (ir::Model::input_ranges), which runtime v2 enforces.
  std::map<std::string, std::vector<DimRange>> input_ranges;
  std::string model_name;  // default: the graph's name
  // Write the IR .om (run by runtime v2) even when the graph could be a static model (`ge test-onnx --v2`).
  bool force_dynamic = false;
  // Dynamic models: lowers the compiled IR for runtime v2 and returns its EXECUTE_PLAN bytes; the .om is then of
  // model type kLowered (seed 002 §4.2: lowered at compile time, the plan checked at load). Callers that link
  // runtime v2 pass runtime::v2::PlanExecuteGraphsForOm (`ge compile`, sessions, `ge test-onnx --v2`); empty: the
  // .om is an IR model, lowered at load. A lowering failure fails the compile.
  std::function<StatusOr<std::string>(const ir::Model&)> lower_for_runtime_v2;
  // Hybrid execution for dynamic models lowered for runtime v2 (runtime::v2::FormStaticIslandsForOm): replaces
  // static subgraphs of at least `min_nodes` nodes (ge.exec.v2StaticIslandMinNodes, default 8; 0: none) by
  // ge.v2::StaticIsland nodes, each compiled static by |compile| (this compiler, same target and options), and
  // returns the STATIC_ISLANDS partition ("" when none). Empty: no islands at compile time.
  using IslandCompiler = std::function<StatusOr<std::vector<uint8_t>>(ir::Model&)>;
  std::function<StatusOr<std::string>(ir::Model&, const IslandCompiler& compile, size_t min_nodes)>
      form_static_islands;
  // The session's variables (seed 000): Variable nodes get their logical addresses here and the `.om` carries
  // them in VAR_INFO. Not owned; null: a private manager (a model compiled outside a session).
  var::VarManager* variables = nullptr;
  // `ge compile --trace`: the compile phases (shapes, passes, planning, serialization) as slices. Not owned; null:
  // nothing recorded.
  trace::TraceRecorder* trace = nullptr;
};

struct CompileReport {
  bool static_model = false;            // true: kStandard .om for the sink runtime
  std::string dynamic_reason;           // why not, when static_model is false
  std::vector<std::string> notes;       // e.g. "input x: dim 0 unknown, compiled as 1"
  size_t nodes_before = 0, nodes_after = 0;
  uint64_t feature_map_bytes = 0, feature_map_lower_bound_bytes = 0, weights_bytes = 0;
  std::string memory_strategy;
  int num_streams = 0, num_events = 0;
  size_t num_tasks = 0;
  uint64_t elided_concats = 0;  // Concats that run no task (their producers write into the joined tensor)
  std::string target;  // the resolved --target, e.g. "x86-64-v4"
  // Kernel implementation per engine node, counted by name (e.g. "dnnl.conv(jit:avx2)": 16); reference
  // implementations also get a note.
  std::map<std::string, int> impls;
  // FileConstant nodes made (ge.externalWeight's and those reading ONNX external data) and their bytes; the weight
  // files written (absolute paths).
  int external_weight_tensors = 0;
  uint64_t external_weights_bytes = 0;
  std::vector<std::string> external_weight_files;
  // Variables whose stored desc this compile changed (variable acceleration): the session converts their bytes.
  std::vector<std::string> changed_variables;
  // Every session variable the model's graph reads or writes (by name; VAR_INFO places them).
  std::vector<std::string> variables;
  // Of the FileConstant nodes, those reading the model's ONNX external data in place, and those data files.
  int external_data_tensors = 0;
  uint64_t external_data_bytes = 0;
  std::vector<std::string> external_data_files;
  // Dynamic models: static islands compiled into the .om (CompileOptions::form_static_islands) and the IR nodes
  // they hold.
  int static_islands = 0;
  size_t static_island_nodes = 0;
};

// Compiles |model| (rewritten in place by the passes) into an .om image.
StatusOr<std::vector<uint8_t>> CompileToOm(ir::Model& model, const CompileOptions& options,
                                           CompileReport* report = nullptr);
Status CompileToOmFile(ir::Model& model, const CompileOptions& options, const std::string& path,
                       CompileReport* report = nullptr);

}  // namespace ge::compiler
