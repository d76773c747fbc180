#include "lowered_summary.h"

#include "json_text.h"
#include "tensor_text.h"
#include "kernels/builtin_engines.h"
#include "runtime/v2/execute_graph.h"
#include "runtime/v2/lowering/lowering.h"

namespace ge::cli {
namespace {

LoweredGraphSizes Count(const runtime::v2::ExecuteGraph* g) {
  LoweredGraphSizes out;
  if (g == nullptr) return out;
  out.nodes = g->num_nodes();
  for (size_t i = 0; i < g->num_nodes(); ++i) {
    ++out.by_kind[runtime::v2::KernelKindOf(g->node(static_cast<uint32_t>(i)).name)];
  }
  return out;
}

}  // namespace

StatusOr<LoweredSummary> SummarizeLowering(const ir::Model& model, const runtime::v2::ExecutePlan* plan,
                                           const runtime::v2::StaticIslands* islands) {
  runtime::v2::LoweringOptions lo;
  lo.engines = kernels::BuiltinEngines();
  lo.plan = plan;
  lo.islands = islands;
  lo.plan_only = true;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<runtime::v2::LoweredModel> lowered, runtime::v2::LowerModel(model, lo));
  LoweredSummary s;
  s.init = Count(lowered->init.get());
  s.main = Count(lowered->main.graph.get());
  s.deinit = Count(lowered->deinit.get());
  s.memo_nodes = lowered->stats.memo_nodes;
  s.static_islands = lowered->stats.static_islands;
  s.static_island_nodes = lowered->stats.static_island_nodes;
  return s;
}

std::string LoweredGraphJson(const LoweredGraphSizes& g) {
  std::string kinds = "{";
  for (const auto& [kind, n] : g.by_kind) {
    kinds += (kinds.size() > 1 ? "," : "") + std::string("\"") + JsonEscape(kind) + "\":" + std::to_string(n);
  }
  return "{\"nodes\":" + std::to_string(g.nodes) + ",\"by_kind\":" + kinds + "}}";
}

}  // namespace ge::cli
