#include "runtime/v2/lowering/execute_plan.h"

#include <limits>

#include "om/execute_plan.pb.h"
#include "runtime/v2/lowering/lowering.h"

namespace ge::runtime::v2 {

const char* ConverterKindName(ConverterKind k) {
  switch (k) {
    case ConverterKind::kCompute: return "compute";
    case ConverterKind::kRef: return "ref";
    case ConverterKind::kInitConstant: return "init_constant";
    case ConverterKind::kControlFlow: return "control_flow";
    case ConverterKind::kStaticIsland: return "static_island";
  }
  return "unknown";
}

StatusOr<std::string> SerializeExecutePlan(const ExecutePlan& plan) {
  proto::ExecutePlanProto p;
  p.set_version(kExecutePlanVersion);
  for (const GraphPlan& g : plan.graphs) {
    if (g.order.size() != g.converter.size()) return Internal("execute plan: order and converters differ in length");
    proto::ExecuteGraphPlanProto* gp = p.add_graphs();
    for (uint32_t i : g.order) gp->add_order(i);
    for (ConverterKind k : g.converter) gp->add_converter(static_cast<uint32_t>(k));
  }
  p.set_fused(plan.fused);
  p.set_init_nodes(plan.init_nodes);
  p.set_main_nodes(plan.main_nodes);
  p.set_deinit_nodes(plan.deinit_nodes);
  for (const auto& [kind, n] : plan.main_kernels) (*p.mutable_main_kernels())[kind] = n;
  p.set_compute_static(plan.compute_static);
  p.set_compute_dynamic(plan.compute_dynamic);
  p.set_ref_nodes(plan.ref_nodes);
  p.set_control_nodes(plan.control_nodes);
  p.set_subgraphs(plan.subgraphs);
  std::string out;
  if (!p.SerializeToString(&out)) return Internal("execute plan: serialization failed");
  return out;
}

StatusOr<ExecutePlan> ParseExecutePlan(const void* data, size_t size) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) return DataLoss("EXECUTE_PLAN is too large");
  proto::ExecutePlanProto p;
  if (!p.ParseFromArray(data, static_cast<int>(size))) return DataLoss("corrupt EXECUTE_PLAN: not a valid protobuf");
  if (p.version() != kExecutePlanVersion) {
    return FailedPrecondition("EXECUTE_PLAN version " + std::to_string(p.version()) + ", this ge reads " +
                              std::to_string(kExecutePlanVersion) + "; recompile the model with this ge");
  }
  ExecutePlan plan;
  for (int gi = 0; gi < p.graphs_size(); ++gi) {
    const proto::ExecuteGraphPlanProto& gp = p.graphs(gi);
    if (gp.order_size() != gp.converter_size()) {
      return DataLoss("corrupt EXECUTE_PLAN: graph " + std::to_string(gi) + " has " + std::to_string(gp.order_size()) +
                      " nodes in its order but " + std::to_string(gp.converter_size()) + " converters");
    }
    GraphPlan g;
    g.order.assign(gp.order().begin(), gp.order().end());
    for (uint32_t k : gp.converter()) {
      if (k > kMaxConverterKind) {
        return DataLoss("corrupt EXECUTE_PLAN: graph " + std::to_string(gi) + " names unknown converter " +
                        std::to_string(k));
      }
      g.converter.push_back(static_cast<ConverterKind>(k));
    }
    plan.graphs.push_back(std::move(g));
  }
  plan.fused = p.fused();
  plan.init_nodes = p.init_nodes();
  plan.main_nodes = p.main_nodes();
  plan.deinit_nodes = p.deinit_nodes();
  for (const auto& [kind, n] : p.main_kernels()) plan.main_kernels[kind] = n;
  plan.compute_static = p.compute_static();
  plan.compute_dynamic = p.compute_dynamic();
  plan.ref_nodes = p.ref_nodes();
  plan.control_nodes = p.control_nodes();
  plan.subgraphs = p.subgraphs();
  return plan;
}

StatusOr<std::string> PlanExecuteGraphsForOm(const ir::Model& model) {
  LoweringOptions options;  // ModelV2's defaults: ge's own engines decide nothing here (no kernel is prepared)
  options.plan_only = true;  // islands formed at compile time are loaded only with the .om
  GE_ASSIGN_OR_RETURN(std::unique_ptr<LoweredModel> lowered, LowerModel(model, options));
  return SerializeExecutePlan(lowered->plan);
}

}  // namespace ge::runtime::v2
