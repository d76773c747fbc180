// GraphExecutor: GE's stateless execution facade (seed 002 §3.4-3.5). Three paths, all by model id:
//   ExecuteGraph           - NnExecute on the caller's thread, synchronous (GE's RunGraph path).
//   ExecuteGraphAsync      - through the model's Run loop and DataInputer (GE's RunGraphAsync path).
//   ExecuteGraphWithStream - NnExecute enqueued on the caller's rt::Stream (GE's RunGraphWithStreamAsync path).
// Holds no state; the model stays pinned in the ModelManager for the duration of each run.
// Thread-safe as ModelManager is; one model's executions are serialized by the model.
#pragma once
#include <vector>

#include "base/status.h"
#include "rt/stream.h"
#include "runtime/data_inputer.h"
#include "runtime/model_manager.h"

namespace ge::runtime {

class GraphExecutor {
 public:
  GraphExecutor() = delete;

  static Status ExecuteGraph(ModelManager& manager, ModelId id, const std::vector<DataBuffer>& inputs,
                             const std::vector<DataBuffer>& outputs);
  // Returns the request id; the callback is called exactly once unless this returns an error.
  static StatusOr<uint64_t> ExecuteGraphAsync(ModelManager& manager, ModelId id, RunRequest request,
                                              rt::Duration push_timeout = rt::kWaitForever);
  // The buffers must stay valid until |stream| has passed the run (Synchronize).
  static Status ExecuteGraphWithStream(ModelManager& manager, ModelId id, const std::vector<DataBuffer>& inputs,
                                       const std::vector<DataBuffer>& outputs, rt::Stream& stream);
};

}  // namespace ge::runtime
