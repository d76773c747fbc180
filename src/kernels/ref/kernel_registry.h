// One kernel table per engine. The ref table is filled by explicit calls to each family's Register*RefKernels.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/ref/kernel_context.h"

namespace ge::ref {

class KernelRegistry {
 public:
  void Add(const std::string& domain, const std::string& op_type, RefKernelFn fn);
  void Add(const std::string& op_type, RefKernelFn fn) { Add("", op_type, fn); }
  RefKernelFn Find(const std::string& domain, const std::string& op_type) const;  // nullptr when absent
  std::vector<std::pair<std::string, std::string>> Keys() const;

 private:
  std::map<std::pair<std::string, std::string>, RefKernelFn> kernels_;
};

// Every reference kernel of every family; built once on first use, immutable afterwards.
const KernelRegistry& RefKernels();

}  // namespace ge::ref
