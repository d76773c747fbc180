#include "runtime/graph_executor.h"

#include <utility>

namespace ge::runtime {

Status GraphExecutor::ExecuteGraph(ModelManager& manager, ModelId id, const std::vector<DataBuffer>& inputs,
                                   const std::vector<DataBuffer>& outputs) {
  GE_ASSIGN_OR_RETURN(ModelLease lease, manager.Acquire(id));
  return lease.model().Execute(inputs, outputs);
}

StatusOr<uint64_t> GraphExecutor::ExecuteGraphAsync(ModelManager& manager, ModelId id, RunRequest request,
                                                    rt::Duration push_timeout) {
  return manager.Submit(id, std::move(request), push_timeout);
}

Status GraphExecutor::ExecuteGraphWithStream(ModelManager& manager, ModelId id, const std::vector<DataBuffer>& inputs,
                                             const std::vector<DataBuffer>& outputs, rt::Stream& stream) {
  return manager.ExecuteWithStream(id, inputs, outputs, stream);
}

}  // namespace ge::runtime
