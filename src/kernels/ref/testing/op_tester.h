// Test helper: runs one op on registries built from chosen families, so a family's tests link only that family.
#pragma once
#include <string>
#include <vector>

#include "base/testing/expect_match.h"  // TensorsMatch: the tree's one comparison
#include "kernels/ref/node_runner.h"

namespace ge::ref::testing {

class OpTester {
 public:
  using RegisterOpsFn = void (*)(ops::OpRegistry*);
  using RegisterKernelsFn = void (*)(KernelRegistry*);
  OpTester(RegisterOpsFn ops, RegisterKernelsFn kernels) {
    ops(&ops_);
    kernels(&kernels_);
  }
  // An input Tensor that is !valid() is passed as an omitted optional input.
  StatusOr<std::vector<Value>> Run(const std::string& op, const std::vector<Tensor>& inputs,
                                   const ir::AttrMap& attrs = ir::AttrMap(), int num_outputs = 1, int64_t opset = 17,
                                   const std::string& domain = "");
  StatusOr<std::vector<Value>> RunValues(const std::string& op, const std::vector<Value>& inputs,
                                         const ir::AttrMap& attrs = ir::AttrMap(), int num_outputs = 1,
                                         int64_t opset = 17, const std::string& domain = "");
  // Runs and returns output 0 as a tensor (fails the Status when it is not one).
  StatusOr<Tensor> Run1(const std::string& op, const std::vector<Tensor>& inputs,
                        const ir::AttrMap& attrs = ir::AttrMap(), int64_t opset = 17);
  // Runs only the op's inference on descs; values[i] (nullptr or missing = unknown) is input i's known value.
  StatusOr<std::vector<TensorDesc>> InferOnly(const std::string& op, const std::vector<TensorDesc>& descs,
                                              const std::vector<const Tensor*>& values = {},
                                              const ir::AttrMap& attrs = ir::AttrMap(), int num_outputs = 1,
                                              int64_t opset = 17, const std::string& domain = "");
  ops::OpRegistry& op_registry() { return ops_; }
  KernelRegistry& kernel_registry() { return kernels_; }

 private:
  ops::OpRegistry ops_;
  KernelRegistry kernels_;
};

}  // namespace ge::ref::testing
