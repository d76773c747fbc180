// Hybrid execution (seed 002 §5, issue 12 deliverable 4): static islands in a dynamic model. At ModelV2 load,
// maximal connected groups of compute nodes whose inputs and outputs all have known shapes and that runtime v1 can
// run are extracted into their own ir::Model, compiled static, loaded as a v1 SinkModel, and replaced in the
// (owned) IR by one node (domain "ge.v2", op "StaticIsland") that lowering turns into one StaticIsland kernel.
//
// Layering: runtime never links the compiler, so the compile step is injected (StaticIslandCompiler, supplied by
// whoever owns both: tools, sessions, tests). Without one, no islands form at load. `ge compile` forms them at
// compile time instead (FormStaticIslandsForOm) and stores the compiled islands in the .om (STATIC_ISLANDS), which
// ModelV2 loads without a compiler (LoadStaticIslands).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"
#include "rt/device.h"
#include "runtime/v1/sink_model.h"
#include "runtime/v2/lowering/graph_lowering.h"

namespace ge::runtime::v2 {

// Compiles a fully static ir::Model (rewritten in place) into a kStandard .om image (compiler::CompileToOm).
using StaticIslandCompiler = std::function<StatusOr<std::vector<uint8_t>>(ir::Model&)>;

struct StaticIslandOptions {
  StaticIslandCompiler compile;  // null: no islands
  size_t min_nodes = 8;          // ge.exec.v2StaticIslandMinNodes; 0: no islands
  rt::Device* device = nullptr;  // what the SinkModels run on (outlives them); null: each island makes a default one
};

// One island, shared by the replacement IR node (by index) and its runtime kernel.
struct StaticIsland {
  std::unique_ptr<rt::Device> owned_device;  // declared first: outlives the SinkModel
  std::shared_ptr<const std::vector<uint8_t>> image;  // the compiled .om the model was loaded from
  std::unique_ptr<SinkModel> model;
  size_t num_nodes = 0;  // IR nodes it replaced
};

struct StaticIslands {
  std::vector<std::shared_ptr<StaticIsland>> islands;  // indexed by the replacement node's "island" attribute
};

// Finds, compiles and loads the islands of |model|'s top-level graph and rewrites that graph (each island becomes
// one "ge.v2"::StaticIsland node). A group that fails to compile or load stays as it was.
StatusOr<std::unique_ptr<StaticIslands>> FormStaticIslands(ir::Model& model, const StaticIslandOptions& options);

// Compile time (`ge compile` of a dynamic model; compiler::CompileOptions::form_static_islands): forms the islands
// of |model| as FormStaticIslands does (each compiled by |compile| and test-loaded) and returns the STATIC_ISLANDS
// partition's bytes ("" when none formed; the IR is then unchanged).
StatusOr<std::string> FormStaticIslandsForOm(ir::Model& model, const StaticIslandCompiler& compile, size_t min_nodes);

// Load time: the islands a lowered .om carries (its STATIC_ISLANDS partition), each loaded as a SinkModel on
// |device| (null: a default device per island). DataLoss names what is corrupt.
StatusOr<std::unique_ptr<StaticIslands>> LoadStaticIslands(const void* data, size_t size, rt::Device* device);

bool IsStaticIslandNode(const ir::Node& n);
// The converter of a StaticIsland node (the islands come from LoweringOptions::islands).
Status ConvertStaticIsland(NodeLowering& ctx);

}  // namespace ge::runtime::v2

namespace ge::runtime::v2 {

// Node data of the StaticIsland kernel. The buffer vectors are scratch for the one execution at a time the graph
// instance runs (mutable, like ComputeNode::run).
struct StaticIslandNode {
  std::shared_ptr<StaticIsland> island;
  std::vector<ValueSlot*> in, out;
  std::vector<size_t> out_bytes;
  mutable std::vector<DataBuffer> in_buffers, out_buffers;
};

// Main: allocates the outputs (the execution's allocator), binds inputs and outputs zero-copy and runs the island's
// task list in one SinkModel::Execute.
KernelStatus StaticIslandKernel(KernelContext* c);

}  // namespace ge::runtime::v2
