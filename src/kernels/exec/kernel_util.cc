#include "kernels/exec/kernel_util.h"

namespace ge::exec {

LoopIsa PickLoopIsa(IsaLevel max_level) {
  const uint64_t cpu = HostIsa().features;
  const bool any = max_level == IsaLevel::kNone;
  constexpr uint64_t kAvx512 = kIsaAvx512F | kIsaAvx512BW | kIsaAvx512VL | kIsaAvx512DQ;
  if ((cpu & kAvx512) == kAvx512 && (any || max_level >= IsaLevel::kX86_64_V4)) return LoopIsa::kAvx512;
  if ((cpu & kIsaAvx2) != 0 && (cpu & kIsaFma) != 0 && (any || max_level >= IsaLevel::kX86_64_V3)) {
    return LoopIsa::kAvx2;
  }
  return LoopIsa::kBaseline;
}

std::string NodeLabel(const ir::Node& node) { return "node '" + node.name() + "' (" + node.op_type() + ")"; }

bool IsStaticTensor(const TensorDesc& d) {
  return d.kind == ValueKind::kTensor && d.dtype != DataType::kUndefined && d.shape.IsFullyKnown();
}

bool InputPresent(const PrepareRequest& r, int i) { return r.node->input(i) != nullptr; }
bool OutputPresent(const PrepareRequest& r, int i) { return r.node->output(i) != nullptr; }

const Tensor* ConstInput(const PrepareRequest& r, int i) {
  return i < static_cast<int>(r.const_inputs.size()) ? r.const_inputs[i] : nullptr;
}

Status ValidateRequest(const PrepareRequest& r) {
  if (r.node == nullptr) return InvalidArgument("prepare request without a node");
  const ir::Node& n = *r.node;
  if (static_cast<int>(r.input_descs.size()) != n.num_inputs() ||
      static_cast<int>(r.output_descs.size()) != n.num_outputs()) {
    return InvalidArgument(NodeLabel(n) + ": prepare request has " + std::to_string(r.input_descs.size()) +
                           " input and " + std::to_string(r.output_descs.size()) + " output descs, the node has " +
                           std::to_string(n.num_inputs()) + " and " + std::to_string(n.num_outputs()));
  }
  if (!r.const_inputs.empty() && static_cast<int>(r.const_inputs.size()) != n.num_inputs()) {
    return InvalidArgument(NodeLabel(n) + ": prepare request has " + std::to_string(r.const_inputs.size()) +
                           " const-input slots for " + std::to_string(n.num_inputs()) + " inputs");
  }
  for (int i = 0; i < n.num_inputs(); ++i) {
    if (InputPresent(r, i) && !IsStaticTensor(r.input_descs[i])) {
      return InvalidArgument(NodeLabel(n) + ": input " + std::to_string(i) +
                             " is not a static tensor: " + r.input_descs[i].ToString());
    }
    const Tensor* c = ConstInput(r, i);
    if (c != nullptr && (c->dtype() != r.input_descs[i].dtype || c->dims() != r.input_descs[i].shape.dims())) {
      return InvalidArgument(NodeLabel(n) + ": constant input " + std::to_string(i) + " is " +
                             DataTypeName(c->dtype()) + DimsToString(c->dims()) + ", its desc says " +
                             r.input_descs[i].ToString());
    }
  }
  for (int i = 0; i < n.num_outputs(); ++i) {
    if (OutputPresent(r, i) && !IsStaticTensor(r.output_descs[i])) {
      return InvalidArgument(NodeLabel(n) + ": output " + std::to_string(i) +
                             " is not a static tensor: " + r.output_descs[i].ToString());
    }
  }
  return Status::Ok();
}

bool HasVaryingDims(const PrepareRequest& r, int input) {
  for (size_t i = 0; i < r.varying_input_dims.size(); ++i) {
    if (input >= 0 && static_cast<size_t>(input) != i) continue;
    for (bool b : r.varying_input_dims[i]) {
      if (b) return true;
    }
  }
  return false;
}

}  // namespace ge::exec
