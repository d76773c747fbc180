#include "kernels/ref/kernel_context.h"

#include <cstring>

#include "kernels/ref/kernel_registry.h"

namespace ge::ref {

StatusOr<Tensor*> KernelContext::AllocateOutput(int i, const Dims& dims, DataType dtype) {
  if (i < 0 || i >= num_outputs()) return Internal("output index " + std::to_string(i) + " out of range");
  if (i < static_cast<int>(preallocated.size()) && preallocated[i].valid() && preallocated[i].dtype() == dtype &&
      preallocated[i].dims() == dims && dtype != DataType::kString) {
    std::memset(preallocated[i].raw_data(), 0, preallocated[i].nbytes());
    outputs[i] = Value(preallocated[i]);
    return &outputs[i].tensor;
  }
  auto t = Tensor::Create(dtype, dims);
  if (!t.ok()) return t.status().WithContext("node '" + node_name + "' (" + op_type + ") output " + std::to_string(i));
  outputs[i] = Value(std::move(t).value());
  return &outputs[i].tensor;
}

StatusOr<Tensor*> KernelContext::AllocateOutput(int i) {
  if (i < 0 || i >= static_cast<int>(inferred.size())) return Internal("no inferred desc for output " + std::to_string(i));
  const TensorDesc& d = inferred[i];
  if (!d.shape.IsFullyKnown()) {
    return Internal("node '" + node_name + "' (" + op_type + "): output " + std::to_string(i) +
                    " shape is not known after inference: " + d.shape.ToString());
  }
  return AllocateOutput(i, d.shape.dims(), d.dtype);
}

Status KernelContext::Error(const std::string& msg) const {
  return InvalidArgument("node '" + node_name + "' (" + op_type + "): " + msg);
}

Status KernelContext::Unsupported(const std::string& msg) const {
  return Unimplemented("node '" + node_name + "' (" + op_type + "): " + msg);
}

KernelRegistry::KernelRegistry() : kernels_(ops::kNumOpIds, nullptr) {}

void KernelRegistry::Add(OpId id, RefKernelFn fn) {
  if (ops::IsKnownOp(id)) kernels_[static_cast<int>(id)] = fn;
}

RefKernelFn KernelRegistry::Find(OpId id) const {
  return ops::IsKnownOp(id) ? kernels_[static_cast<int>(id)] : nullptr;
}

std::vector<OpId> KernelRegistry::Ids() const {
  std::vector<OpId> out;
  for (int i = 0; i < ops::kNumOpIds; ++i) {
    if (kernels_[i] != nullptr) out.push_back(static_cast<OpId>(i));
  }
  return out;
}

}  // namespace ge::ref
