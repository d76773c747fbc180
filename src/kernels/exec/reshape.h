// The reshape step (XNNPACK's create / reshape / setup split, for runtime v2): a node's shape-independent part —
// the node with its attributes, its constant inputs and the model's settings — is fixed once in a KernelSpec;
// Reshape prepares a kernel for one set of input descs (the op's inference derives the output descs, then
// PrepareKernel chooses and prepares the implementation); NewBinding on that kernel is the setup.
// A static model (runtime v1) prepares each node once at load with the descs the compiler planned (MakeRequest);
// runtime v2 keeps the spec and calls Reshape whenever a node's input shapes change, caching kernels by shape.
#pragma once
#include <memory>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

struct KernelSpec {
  const ir::Node* node = nullptr;  // outlives every kernel reshaped from the spec
  RequestSettings settings;
  // Per input: its value when constant (read by inference and by kernels at prepare), else nullptr.
  std::vector<const Tensor*> const_inputs;
};

// The spec of `node` from its graph: constants are the inputs whose values are constant.
KernelSpec MakeSpec(const ir::Node& node, const RequestSettings& settings);

// A kernel for `input_descs` (one per node input; a default desc for an omitted optional input). The output descs
// come from the op's inference and must be fully static; InvalidArgument naming the node otherwise, or when an
// input desc disagrees with the op. `output_descs`, when not null, receives them.
StatusOr<std::unique_ptr<PreparedKernel>> Reshape(const KernelSpec& spec, const std::vector<TensorDesc>& input_descs,
                                                  const kernels::EngineList& engines = {},
                                                  std::vector<TensorDesc>* output_descs = nullptr);

}  // namespace ge::exec
