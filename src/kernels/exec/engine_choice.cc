#include "kernels/exec/engine_choice.h"

#include "kernels/exec/kernel_variant.h"

namespace ge::exec {

std::vector<const kernels::Engine*> CandidateEngines(const ir::Node& node, const kernels::EngineList& engines) {
  std::vector<const kernels::Engine*> out;
  const kernels::Engine* own = kernels::FindEngine(engines, node.engine());
  if (own == nullptr) return out;
  if (node.attrs().Has(kKernelImplAttr)) return {own};
  for (const auto& e : engines) {
    if (e.get() == own) break;
    if (e != nullptr && e->Supports(node)) out.push_back(e.get());
  }
  out.push_back(own);
  return out;
}

StatusOr<std::unique_ptr<PreparedKernel>> PrepareOnEngines(const PrepareRequest& request,
                                                           const kernels::EngineList& engines,
                                                           const kernels::Engine** chosen) {
  if (chosen != nullptr) *chosen = nullptr;
  for (const kernels::Engine* e : CandidateEngines(*request.node, engines)) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> k, e->Prepare(request));
    if (k == nullptr) continue;
    if (chosen != nullptr) *chosen = e;
    return k;
  }
  return std::unique_ptr<PreparedKernel>();
}

StatusOr<kernels::KernelChoice> ChooseOnEngines(const PrepareRequest& request, const kernels::EngineList& engines,
                                                const kernels::Engine** chosen) {
  *chosen = nullptr;
  for (const kernels::Engine* e : CandidateEngines(*request.node, engines)) {
    GE_ASSIGN_OR_RETURN(kernels::KernelChoice choice, e->Choose(request));
    if (!choice.prepared) continue;
    *chosen = e;
    return choice;
  }
  return kernels::KernelChoice();
}

std::vector<std::string> VariantsOnEngines(const PrepareRequest& request, const kernels::EngineList& engines) {
  const std::vector<const kernels::Engine*> candidates = CandidateEngines(*request.node, engines);
  // The default engine: the first candidate that prepares the node without a variant (the last one when none
  // before it does; a request here carries no variant).
  size_t lead = candidates.empty() ? 0 : candidates.size() - 1;
  for (size_t i = 0; i + 1 < candidates.size(); ++i) {
    auto k = candidates[i]->Prepare(request);
    if (k.ok() && *k != nullptr) {
      lead = i;
      break;
    }
  }
  std::vector<std::string> names;
  auto append = [&](const kernels::Engine* e) {
    for (std::string& n : e->Variants(request)) names.push_back(std::move(n));
  };
  if (!candidates.empty()) append(candidates[lead]);
  // The default engine names no variant of its own: the empty name (no variant) stands for its choice.
  const bool lead_named = !names.empty();
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i != lead) append(candidates[i]);
  }
  if (!lead_named && !names.empty()) names.insert(names.begin(), "");
  if (names.size() < 2) names.clear();  // one way to prepare it: nothing to choose
  return names;
}

}  // namespace ge::exec
