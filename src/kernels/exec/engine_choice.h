// The one rule by which a node's kernel is chosen among engines, at compile (kernel selection, tuning) and at load
// (PrepareKernel), so that both always agree: the engines of the list in priority order up to and including the
// node's own engine (the one engine assignment or kernel selection gave it), each offered the node when it
// Supports it (its own engine always); the first that prepares a kernel runs the node. A node whose kernel the
// compiler already chose (kKernelImplAttr recorded, its engine set to the chosen one) is offered to that engine
// only. Nodes on no engine of the list run on ge's fast kernels or the reference adapter (PrepareKernel).
#pragma once
#include <string>
#include <vector>

#include "kernels/engine.h"

namespace ge::exec {

// The engines the rule offers the node to, in order; empty when its engine is not in the list.
std::vector<const kernels::Engine*> CandidateEngines(const ir::Node& node, const kernels::EngineList& engines);

// The first candidate's kernel; nullptr (and *chosen nullptr) when every candidate declines.
StatusOr<std::unique_ptr<PreparedKernel>> PrepareOnEngines(const PrepareRequest& request,
                                                           const kernels::EngineList& engines,
                                                           const kernels::Engine** chosen = nullptr);

// The compile-time report of the same choice: the first candidate whose Choose prepares a kernel, and its choice
// (prepared false and *chosen nullptr when every candidate declines).
StatusOr<kernels::KernelChoice> ChooseOnEngines(const PrepareRequest& request, const kernels::EngineList& engines,
                                                const kernels::Engine** chosen);

// Tuning: the variant names every candidate can prepare the node as, the default choice first (the list of the
// engine that takes the node without a variant leads); empty when there is no choice to offer.
std::vector<std::string> VariantsOnEngines(const PrepareRequest& request, const kernels::EngineList& engines);

}  // namespace ge::exec
