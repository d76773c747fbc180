// The execute plan (seed 002 §4.2; om/execute_plan.proto): what lowering decided for a model — per IR graph the
// execution order of its nodes and each node's converter — and the sizes of the execute graphs it produced.
// `ge compile` lowers a dynamic model once and stores the plan in the .om (model type kLowered); the loader lowers
// along it (LoweringOptions::plan), checking every entry against the IR, so a corrupt plan is an error, never a
// wrong graph.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::runtime::v2 {

constexpr uint32_t kExecutePlanVersion = 1;

// Which converter (converters.h) lowers a node.
enum class ConverterKind : uint8_t { kCompute = 0, kRef = 1, kInitConstant = 2, kControlFlow = 3, kStaticIsland = 4 };
constexpr uint32_t kMaxConverterKind = 4;
const char* ConverterKindName(ConverterKind k);

struct GraphPlan {
  std::vector<uint32_t> order;          // indices into the IR graph's nodes()
  std::vector<ConverterKind> converter; // per entry of order
};

struct ExecutePlan {
  std::vector<GraphPlan> graphs;  // the model's graph, then subgraphs in lowering order
  bool fused = true;
  uint64_t init_nodes = 0, main_nodes = 0, deinit_nodes = 0;
  std::map<std::string, uint64_t> main_kernels;  // Main's kernels by kind ("Compute", "RefKernel", ...)
  uint64_t compute_static = 0, compute_dynamic = 0, ref_nodes = 0, control_nodes = 0, subgraphs = 0;
};

// The EXECUTE_PLAN partition's bytes, and back. Parse checks the encoding (version, converter kinds); whether
// the plan fits the IR is checked by lowering.
StatusOr<std::string> SerializeExecutePlan(const ExecutePlan& plan);
StatusOr<ExecutePlan> ParseExecutePlan(const void* data, size_t size);

// Lowers |model| as ModelV2 would by default (sequential executor, fused kernels) and returns its plan's bytes:
// the compiler's hook for dynamic models (compiler::CompileOptions::lower_for_runtime_v2).
StatusOr<std::string> PlanExecuteGraphsForOm(const ir::Model& model);

}  // namespace ge::runtime::v2
