// One kernel table per engine. The ref table is filled by explicit calls to each family's Register*RefKernels.
#pragma once
#include <string>
#include <vector>

#include "kernels/ref/kernel_context.h"
#include "ops/op_id.h"

namespace ge::ref {

using ops::OpId;

// Kernels by op id; an id outside the op table is never registered.
class KernelRegistry {
 public:
  KernelRegistry();
  void Add(OpId id, RefKernelFn fn);
  RefKernelFn Find(OpId id) const;  // nullptr when absent
  // The interpreter's view: through ops::OpIdOf. Domain "ai.onnx" is treated as "".
  RefKernelFn Find(const std::string& domain, const std::string& op_type) const {
    return Find(ops::OpIdOf(domain, op_type));
  }
  // The ops with a kernel, in id order.
  std::vector<OpId> Ids() const;

 private:
  std::vector<RefKernelFn> kernels_;  // indexed by id; nullptr where absent
};

// Every reference kernel of every family; built once on first use, immutable afterwards.
const KernelRegistry& RefKernels();

}  // namespace ge::ref
