// Lowering (seed 002 §4.2, ge_facts.md §8 "Lowering"): an IR model (the graph of an IR .om, or a compiled graph
// with unknown dims) becomes an ExecuteModel: Init (constants, kernels prepared for static shapes), Main (per
// compute node InferShape where an input shape can change, AllocMemory, Launch, FreeMemory after the last reader)
// and DeInit. Each IR node is lowered by its converter (converters.h, one table keyed by op id).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"
#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"
#include "runtime/v2/execute_graph.h"
#include "runtime/v2/executor.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/value_slot.h"

namespace ge::ref {
class VariableStore;  // kernels/ref/kernel_context.h
}  // namespace ge::ref

namespace ge::runtime::v2 {

struct StaticIslands;  // static_island.h
struct ComputeNode;    // kernels/node_data.h

struct LoweringOptions {
  kernels::EngineList engines;     // who prepares kernels (exec::PrepareKernel); empty: ge's own kernels only
  exec::RequestSettings settings;  // seed, intra-op threads, ISA cap (opset is set per node)
  size_t kernel_cache_capacity = 8;  // prepared kernels kept per node (distinct shapes), LRU-evicted
  // Prepare shape-agnostic kernels where an engine offers one for the graph's unknown dims (one kernel for every
  // length); false: one kernel per distinct shape.
  bool shape_agnostic_kernels = true;
  // Offline optimization: a compute node's InferShape, AllocMemory, Launch and the FreeMemory of the values it reads
  // last become one Compute kernel (one call per node when shapes repeat). Off for the multi-thread executor,
  // which runs memory and launch kernels on separate workers.
  bool fuse_compute = true;
  // With fuse_compute: nodes computing from shapes only (Shape/Size, then deterministic nodes of constants and
  // such values, e.g. a Reshape target or a causal mask's Range) keep their outputs and recompute only when an
  // input shape changes (ComputeNode::memo).
  bool memoize_shape_values = true;
  // Islands FormStaticIslands made of the model (outlive the lowered model); null: none.
  const StaticIslands* islands = nullptr;
  // Lowering only for its plan or sizes (`ge compile`, `ge inspect`), never run: StaticIsland nodes without their
  // islands lower to placeholder kernels of the same shape.
  bool plan_only = false;
  // Lower along this plan (an .om's EXECUTE_PLAN): its orders and converters, each checked against the IR; the
  // resulting graph sizes must match the plan's when it was made with the same fuse_compute. null: lowering decides.
  const ExecutePlan* plan = nullptr;
  // The session's variables (session_variables.h) for ge::Variable and the Assign family; outlives the lowered
  // model. null: a model with variables fails when one runs.
  ref::VariableStore* variables = nullptr;
};

// One lowered IR graph (the model's graph, or a subgraph of a control-flow node).
struct LoweredGraph {
  std::unique_ptr<ExecuteGraph> graph;
  std::vector<ValueSlot*> inputs, outputs;  // the IR graph's inputs and outputs, in order
  std::vector<const ir::Value*> ir_inputs, ir_outputs;
  std::vector<ValueSlot*> run_owned;  // slots the graph's nodes fill: released after a failed run
  std::unique_ptr<Executor> executor;  // subgraphs: sequential, on the model's ExecutionState
};

// Counts for inspection and tests.
struct LoweringStats {
  size_t init_nodes = 0, main_nodes = 0, deinit_nodes = 0;
  size_t compute_static = 0, compute_dynamic = 0, fused = 0, ref_nodes = 0, control_nodes = 0, subgraphs = 0;
  size_t static_islands = 0, static_island_nodes = 0;  // StaticIsland kernels, IR nodes they replaced
  size_t memo_nodes = 0;  // shape-derived Compute kernels (ComputeNode::memo)
};

// Owns everything the three graphs point at. Members are declared so that the graphs go first, then the slots,
// then the execution state.
struct LoweredModel {
  ExecutionState state;  // the one execution of the model's graphs; allocator and pool set by the owner
  std::vector<std::unique_ptr<ValueSlot>> slots;
  ComputeRecords records;  // the fused Compute kernels' node data, in execution order
  kernels::EngineList engines;
  std::unique_ptr<ExecuteGraph> init, deinit;
  LoweredGraph main;
  LoweringStats stats;
  std::vector<const ComputeNode*> memo_nodes;  // shape-derived nodes (ComputeNode::memo), for ReleaseLargeMemoValues
  ExecutePlan plan;  // what this lowering decided (orders, converters, sizes): the .om's EXECUTE_PLAN
};

// |model| must outlive the result (kernels keep pointers to its nodes and constants).
StatusOr<std::unique_ptr<LoweredModel>> LowerModel(const ir::Model& model, const LoweringOptions& options);

// Shape-derived values of more than kMemoKeepBytes are not kept between runs: the owner releases them after each
// run (and their nodes recompute), so that values sized by a dynamic dim (an L x L mask) pin no allocator memory
// of every size they take under shape churn. Shapes, indices and other small values stay.
constexpr size_t kMemoKeepBytes = 4096;
void ReleaseLargeMemoValues(LoweredModel* lowered);

// Whether a desc is a plain tensor v2 keeps in RtTensor form (else the value is boxed: sequence, optional, string).
bool IsPlainTensorDesc(const TensorDesc& d);

}  // namespace ge::runtime::v2
