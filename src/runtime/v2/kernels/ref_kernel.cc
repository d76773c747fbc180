// RefKernel: a node run on its reference kernel on ge::Values, exactly as the interpreter runs it (inference with
// every input value known, then the kernel). Inputs held in allocator memory are borrowed for the call; outputs
// that still point into borrowed memory are copied, since that memory is freed after its last reader.
#include <algorithm>

#include "kernels/ref/kernel_registry.h"
#include "kernels/ref/node_runner.h"
#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {
namespace {

bool Borrowed(const Tensor& t, const std::vector<const TensorStorage*>& borrowed) {
  return t.valid() && std::find(borrowed.begin(), borrowed.end(), t.storage().get()) != borrowed.end();
}

Status Own(Tensor* t, const std::vector<const TensorStorage*>& borrowed) {
  if (!Borrowed(*t, borrowed)) return Status::Ok();
  GE_ASSIGN_OR_RETURN(*t, t->Clone());
  return Status::Ok();
}

}  // namespace

Status RunRefNode(const RefNode& n) {
  const ir::Node& node = *n.node;
  std::vector<Value> values(n.in.size());
  std::vector<const TensorStorage*> borrowed;
  ref::NodeCall call;
  for (size_t i = 0; i < n.in.size(); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr) {
      call.inputs.push_back(nullptr);
      continue;
    }
    values[i] = SlotValue(*s);
    if (values[i].is_tensor() && !(s->keep.valid() && values[i].tensor.storage() == s->keep.storage())) {
      borrowed.push_back(values[i].tensor.storage().get());
    }
    call.inputs.push_back(&values[i]);
  }
  call.op_type = node.op_type();
  call.domain = node.domain();
  call.node_name = node.name();
  call.attrs = &node.attrs();
  call.opset = n.opset;
  call.node = &node;
  call.num_outputs = node.num_outputs();
  call.runner = n.runner;
  if (n.rng == nullptr) n.rng = std::make_unique<std::mt19937_64>(n.seed);
  call.rng = n.rng.get();
  call.variables = n.variables;
  GE_ASSIGN_OR_RETURN(std::vector<Value> outs, ref::RunNode(ops::BuiltinOps(), ref::RefKernels(), call));
  for (size_t i = 0; i < n.out.size() && i < outs.size(); ++i) {
    ValueSlot* s = n.out[i];
    if (s == nullptr) continue;
    Value& v = outs[i];
    if (v.kind == Value::Kind::kNone) {
      return Internal("node '" + node.name() + "' (" + node.op_type() + ") did not produce output " + std::to_string(i));
    }
    if (v.is_tensor()) GE_RETURN_IF_ERROR(Own(&v.tensor, borrowed));
    for (Tensor& t : v.sequence) GE_RETURN_IF_ERROR(Own(&t, borrowed));
    if (s->t.block != nullptr) {
      return Internal("value '" + s->name + "' still holds memory when node '" + node.name() + "' writes it");
    }
    if (s->boxed_kind) {
      s->boxed = std::move(v);
      continue;
    }
    if (!v.is_tensor()) {
      return Internal("node '" + node.name() + "' (" + node.op_type() + ") produced a " +
                      (v.is_sequence() ? "sequence" : "empty optional") + " for tensor value '" + s->name + "'");
    }
    GE_RETURN_IF_ERROR(SetSlotTensor(s, std::move(v.tensor)));
  }
  return Status::Ok();
}

KernelStatus RefKernel(KernelContext* c) {
  Status s = RunRefNode(c->data<RefNode>());
  return s.ok() ? kStatusSuccess : c->exec->SetError(std::move(s));
}

}  // namespace ge::runtime::v2
