#include "compiler/passes/pass_manager.h"

#include <chrono>
#include <functional>

namespace ge::compiler {

std::string PassContext::Option(const std::string& name, const std::string& def) const {
  auto it = options.find(name);
  return it == options.end() ? def : it->second;
}

int64_t PassContext::OpsetFor(const std::string& domain) const {
  auto it = opsets.find(domain == "ai.onnx" ? "" : domain);
  return it == opsets.end() ? 1 : it->second;
}

StatusOr<bool> GraphLevelPass::Run(ir::Model& model, const PassContext& ctx) {
  if (!model.graph) return InvalidArgument("model has no graph");
  return RunOnGraph(*model.graph, ctx);
}

namespace {

void CollectSubgraphs(const ir::Graph& g, std::vector<ir::Graph*>* out) {
  for (const ir::Node* n : g.nodes()) {
    for (auto& [attr, sub] : n->subgraphs()) {
      out->push_back(sub.get());
      CollectSubgraphs(*sub, out);
    }
  }
}

}  // namespace

StatusOr<bool> PassManager::RunOne(size_t index, ir::Model& model, const PassContext& ctx) {
  GraphPass& pass = *passes_[index];
  const std::string context = std::string("pass ") + pass.name();
  auto start = std::chrono::steady_clock::now();
  auto changed = pass.Run(model, ctx);
  if (!changed.ok()) return changed.status().WithContext(context);
  bool any = *changed;
  if (pass.RecurseIntoSubgraphs()) {
    // Collected first: the pass may rewrite nodes (and so subgraph owners) of the graphs it visits.
    std::vector<ir::Graph*> subs;
    CollectSubgraphs(*model.graph, &subs);
    for (ir::Graph* sub : subs) {
      auto c = pass.RunOnSubgraph(*sub, ctx);
      if (!c.ok()) return c.status().WithContext(context + " (subgraph '" + sub->name() + "')");
      any = any || *c;
    }
  }
  const auto end = std::chrono::steady_clock::now();
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(end - start);
  if (ctx.trace != nullptr) {
    ctx.trace->AddSlice(trace::kHostTrack, pass.name(), "pass", ctx.trace->Since(start),
                        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count(),
                        any ? "{\"changed\":true}" : "{\"changed\":false}");
  }
  PassStats& s = stats_[index];
  s.runs++;
  s.changes += any ? 1 : 0;
  s.micros += micros.count();
  if (ctx.validate) {
    Status v = model.graph->Validate();
    if (!v.ok()) return Internal(context + " left an invalid graph: " + v.message());
  }
  return any;
}

StatusOr<bool> PassManager::RunRound(ir::Model& model, const PassContext& ctx) {
  if (!model.graph) return InvalidArgument("model has no graph");
  PassContext local = ctx;
  if (local.opsets.empty()) local.opsets = model.opsets;
  stats_.resize(passes_.size());
  bool any = false;
  for (size_t i = 0; i < passes_.size(); ++i) {
    stats_[i].name = passes_[i]->name();
    GE_ASSIGN_OR_RETURN(bool changed, RunOne(i, model, local));
    any = any || changed;
  }
  return any;
}

Status PassManager::Run(ir::Model& model, const PassContext& ctx) { return RunRound(model, ctx).status(); }

Status PassManager::RunToFixedPoint(ir::Model& model, const PassContext& ctx, int max_rounds) {
  for (int round = 0; round < max_rounds; ++round) {
    GE_ASSIGN_OR_RETURN(bool changed, RunRound(model, ctx));
    if (!changed) return Status::Ok();
  }
  return FailedPrecondition("passes did not reach a fixed point in " + std::to_string(max_rounds) + " rounds");
}

std::string PassManager::StatsText() const {
  std::string out;
  for (const PassStats& s : stats_) {
    out += s.name + ": runs=" + std::to_string(s.runs) + " changed=" + std::to_string(s.changes) +
           " time=" + std::to_string(s.micros) + "us\n";
  }
  return out;
}

}  // namespace ge::compiler
