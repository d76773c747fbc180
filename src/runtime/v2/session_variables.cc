#include "runtime/v2/session_variables.h"

namespace ge::runtime::v2 {

StatusOr<Tensor> SessionVariables::Variable(const std::string& name, const TensorDesc& desc,
                                            const Tensor* /*init_value: the manager's, set at load, counts*/) {
  auto addr = manager_->GetVarAddr(name, desc);
  if (!addr.ok()) {
    auto current = manager_->GetCurVarDesc(name);
    if (current.ok()) {
      return FailedPrecondition("variable '" + name + "' is stored as " + current->ToString() +
                                " (variable acceleration of a static graph changed it); this dynamic graph reads it "
                                "as " + desc.ToString() + ": compile the session's graphs with ge.exec.variable_acc=0");
    }
    return NotFound("variable '" + name + "' is not placed in the session's variables (the model's VAR_INFO has it "
                    "not)");
  }
  GE_ASSIGN_OR_RETURN(void* data, manager_->GetVarMemoryAddr(addr->logical, addr->mem_type));
  GE_ASSIGN_OR_RETURN(int64_t elements, StorageNumElements(desc.shape.dims(), desc.format));
  const size_t bytes = static_cast<size_t>(elements) * DataTypeSize(desc.dtype);
  if (bytes > addr->size) {
    return Internal("variable '" + name + "': " + std::to_string(bytes) + " bytes do not fit its " +
                    std::to_string(addr->size));
  }
  // The memory is the manager's: the tensor keeps the manager alive, never frees the bytes.
  auto storage = TensorStorage::Borrow(data, bytes, manager_);
  return Tensor(desc.dtype, desc.shape.dims(), std::move(storage));
}

bool SessionVariables::IsInitialized(const std::string& name) const { return manager_->IsVarInitialized(name); }

void SessionVariables::Written(const std::string& name) {
  manager_->BumpWriteVersion(name);
  manager_->SetVarInitialized(name);
}

}  // namespace ge::runtime::v2
