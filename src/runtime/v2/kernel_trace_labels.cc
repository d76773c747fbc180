#include "runtime/v2/kernel_trace_labels.h"

#include "base/trace_json.h"
#include "runtime/v1/kernel_trace_label.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {

const trace::TraceLabel* KernelTraceLabels::For(uint32_t i) {
  const ExecNode& node = graph_->node(i);
  const ComputeNode* c = nullptr;
  if (node.fn == ComputeKernel) c = static_cast<const ComputeRecord*>(node.ctx.node_data)->node;
  if (node.fn == LaunchKernel) c = static_cast<const ComputeNode*>(node.ctx.node_data);
  const void* kernel = nullptr;
  if (c != nullptr && c->run.current != nullptr) kernel = c->run.current->kernel.get();
  // current_[i] is only touched by the thread running node i (runs of one node never overlap).
  Current& cur = current_[i];
  if (cur.label != nullptr && cur.kernel == kernel) return cur.label;
  std::lock_guard<std::mutex> lk(mu_);
  const std::string where = "\"exec_node\":" + trace::JsonQuote(node.name);
  if (c != nullptr && c->node != nullptr) {
    const std::string impl = c->memo             ? "shape-derived"
                             : kernel != nullptr ? c->run.current->kernel->impl_name()
                                                 : "ref";
    labels_.push_back(KernelTraceLabel(*c->node, impl, where));
  } else if (node.fn == RefKernel && static_cast<const RefNode*>(node.ctx.node_data)->node != nullptr) {
    labels_.push_back(KernelTraceLabel(*static_cast<const RefNode*>(node.ctx.node_data)->node, "ref", where));
  } else {
    labels_.push_back(trace::TraceLabel{node.name, "runtime",
                                        "{\"kind\":" + trace::JsonQuote(KernelKindOf(node.name)) + "," + where + "}"});
  }
  cur.kernel = kernel;
  cur.label = &labels_.back();
  return cur.label;
}

}  // namespace ge::runtime::v2
