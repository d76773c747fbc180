// SessionVariables: the reference kernels' VariableStore (kernels/ref/kernel_context.h) over a session's VarManager
// (seed 000), so that runtime v2 reads and writes the same variable memory as runtime v1 and every graph of the
// session. A Variable node gets the variable's memory (allocated on first use, filled with its init value, by the
// manager); a write (Assign/AssignAdd/AssignSub) bumps the variable's write version, so v1 kernels that keep a
// converted copy of it convert again, and marks it initialized.
//
// Variables are read in the desc the manager holds them in; one whose stored desc differs (a static graph's
// variable acceleration changed it) is a FailedPrecondition naming both descs.
// Threading: as the VarManager (every method thread-safe); the bytes themselves are not guarded (seed 000: runs
// that update one variable at once race, as in GE).
#pragma once
#include <memory>
#include <string>

#include "kernels/ref/kernel_context.h"
#include "var/var_manager.h"

namespace ge::runtime::v2 {

class SessionVariables final : public ref::VariableStore {
 public:
  explicit SessionVariables(std::shared_ptr<var::VarManager> manager) : manager_(std::move(manager)) {}

  StatusOr<Tensor> Variable(const std::string& name, const TensorDesc& desc, const Tensor* init_value) override;
  bool IsInitialized(const std::string& name) const override;
  void Written(const std::string& name) override;

  var::VarManager* manager() const { return manager_.get(); }

 private:
  std::shared_ptr<var::VarManager> manager_;
};

}  // namespace ge::runtime::v2
