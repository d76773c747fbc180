// Model builder (GE's ModelBuilder + TaskGenerator, compiler/graph/build/): turns an optimized, fully static
// root graph into the compiled form runtime v1 loads: placements from the feature-map memory plan, streams and
// events from the stream plan, one TaskDef per kernel / event / output copy, and the IR with its constants moved
// into the weights partition (deduplicated, 512-byte aligned).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/trace_recorder.h"
#include "compiler/planning/memory_planner.h"
#include "compiler/planning/stream_allocator.h"
#include "ir/graph.h"
#include "om/model_def.pb.h"

namespace ge::compiler {

// Constants of fewer bytes stay inline in MODEL_DEF's IR; larger ones go to WEIGHTS_DATA (or external files).
constexpr uint64_t kInlineWeightBytes = 64;

struct BuildOptions {
  MemoryPlanOptions memory;
  StreamAllocOptions streams;
  // Automatic stream count: when concurrent streams would need more feature-map memory than this factor times
  // the order's lower bound, the stream budget is halved (down to one stream). Off when the user set a count.
  bool auto_streams = true;
  double stream_memory_budget = 1.15;
  uint64_t seed = 0;
  // Variables (seed 000): name → logical address in the session's variable memory (VarManager::AssignVarMem),
  // for every Variable node of the graph.
  std::map<std::string, uint64_t> variable_addresses;
  // `ge compile --trace`: the build's phases (stream and memory planning, serialization, tasks) as slices. Not
  // owned; null: none.
  trace::TraceRecorder* trace = nullptr;
};

struct CompiledModel {
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  std::vector<uint8_t> weights;  // WEIGHTS_DATA
};

// Why |model| cannot be built as a static sink model (a node owning subgraphs, a value that is not a tensor of
// known dtype and dims, a node no prepared kernel supports); empty when it can.
std::string StaticModelBlocker(const ir::Model& model);

// Fails with FailedPrecondition when StaticModelBlocker is non-empty.
StatusOr<CompiledModel> BuildStaticModel(const ir::Model& model, const BuildOptions& options);

// After the external-weights pass (passes.h) turned constants of the built |model| into ge::FileConstant outputs
// (a node appended per constant, no value added or removed): re-serializes the IR and WEIGHTS_DATA of |cm| and
// places those outputs in SEG_FILE_CONSTANT. The memory plan, streams and tasks stay as built: a FileConstant runs
// no task, and its value was planned as the constant it was.
Status UpdateForFileConstants(const ir::Model& model, CompiledModel* cm);

// Bytes of a static tensor value (dtype size x elements); fails on unknown dims or overflow.
StatusOr<uint64_t> StaticTensorBytes(const TensorDesc& desc);

}  // namespace ge::compiler
