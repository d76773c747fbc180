#include "ops/variable/variable_ref.h"
#include "compiler/planning/buffer_lifetimes.h"

#include <algorithm>

#include "compiler/planning/model_builder.h"
#include "ops/inplace.h"
#include "ops/op_id.h"

namespace ge::compiler {

namespace {

using ops::IsDataView;
using ops::IsInplaceBinary;
using ops::IsInplaceUnary;
using ops::OpId;

bool SameTensor(const TensorDesc& a, const TensorDesc& b) {
  return a.kind == ValueKind::kTensor && b.kind == ValueKind::kTensor && a.dtype == b.dtype && a.format == b.format &&
         a.shape.IsFullyKnown() && b.shape.IsFullyKnown() && a.shape.dims() == b.shape.dims();
}

// vc[node][s]: the highest position in stream s's list that happens before or is |node| (-1: none).
using Clock = std::vector<int64_t>;

bool SameBytes(const TensorDesc& a, const TensorDesc& b) {
  return a.kind == ValueKind::kTensor && b.kind == ValueKind::kTensor && a.dtype == b.dtype &&
         !IsNonPlainLayout(a.format) && !IsNonPlainLayout(b.format) && a.shape.IsFullyKnown() &&
         b.shape.IsFullyKnown() && NumElements(a.shape.dims()) == NumElements(b.shape.dims());
}

}  // namespace

bool OutputMayOverwriteInput(const ir::Node& node, int input) {
  if (node.num_outputs() < 1 || node.output(0) == nullptr) return false;
  const ir::Value* in = node.input(input);
  if (in == nullptr) return false;
  const OpId op = ops::OpIdOf(node);
  if (IsDataView(op) && node.num_outputs() == 1) {
    return input == 0 && SameBytes(in->desc(), node.output(0)->desc());
  }
  if (!SameTensor(in->desc(), node.output(0)->desc())) return false;
  // A fused convolution's residual Sum is read element by element where Y is written (oneDNN's sum post-op);
  // not when the Sum is also the convolution's X, which is read everywhere.
  if (op == OpId::kGeFusedConv) return input == 3 && node.input(0) != in;
  if (IsInplaceUnary(op) || IsDataView(op)) return input == 0;
  if (IsInplaceBinary(op)) return node.num_inputs() == 2 && (input == 0 || input == 1);
  return false;
}

StatusOr<FeatureMapBuffers> CollectFeatureMapBuffers(const ir::Graph& graph, const std::vector<const ir::Node*>& order,
                                                     const StreamPlan& streams,
                                                     const std::vector<NoTaskConcat>& concats) {
  const int num_streams = std::max(1, streams.num_streams);
  const int64_t n = static_cast<int64_t>(order.size());
  std::unordered_map<const ir::Node*, int64_t> step_of;
  step_of.reserve(order.size());
  for (int64_t i = 0; i < n; ++i) step_of[order[i]] = i;

  // Vector clocks and positions.
  std::vector<Clock> vc(n, Clock(num_streams, -1));
  std::vector<int64_t> pos(n, 0);
  std::vector<int> stream(n, 0);
  std::vector<int64_t> next_pos(num_streams, 0);
  std::vector<int64_t> last_on_stream(num_streams, -1);
  std::unordered_map<const ir::Node*, std::vector<const ir::Node*>> waits;  // wait node -> record nodes
  for (const StreamEvent& e : streams.events) waits[e.wait_node].push_back(e.record_node);
  for (int64_t i = 0; i < n; ++i) {
    const int s = std::max(0, streams.StreamOf(order[i]));
    stream[i] = s;
    if (last_on_stream[s] >= 0) vc[i] = vc[last_on_stream[s]];
    auto w = waits.find(order[i]);
    if (w != waits.end()) {
      for (const ir::Node* r : w->second) {
        auto it = step_of.find(r);
        if (it == step_of.end()) return Internal("stream plan records an event after a node outside the order");
        for (int k = 0; k < num_streams; ++k) vc[i][k] = std::max(vc[i][k], vc[it->second][k]);
      }
    }
    pos[i] = next_pos[s]++;
    vc[i][s] = pos[i];
    last_on_stream[s] = i;
  }
  // not_after[s][p]: the last step whose node is not ordered after position p of stream s (prefix max over the
  // steps whose clock entry for s is below p).
  std::vector<std::vector<int64_t>> not_after(num_streams);
  for (int s = 0; s < num_streams; ++s) {
    std::vector<int64_t> max_step_with_clock(next_pos[s] + 1, -1);  // index clock+1
    for (int64_t i = 0; i < n; ++i) {
      int64_t c = vc[i][s] + 1;
      max_step_with_clock[c] = std::max(max_step_with_clock[c], i);
    }
    // not_after[s][p] = max over clock+1 <= p of max_step_with_clock.
    not_after[s].assign(next_pos[s] + 1, -1);
    int64_t run = -1;
    for (int64_t p = 0; p <= next_pos[s]; ++p) {
      run = std::max(run, max_step_with_clock[p]);
      not_after[s][p] = run;
    }
  }
  auto release_after = [&](int64_t step) {
    // Steps that may not be ordered after |step|: clock entry for its stream below its position.
    return std::max(step, not_after[stream[step]][pos[step]]);
  };

  FeatureMapBuffers out;
  std::unordered_map<const ir::Value*, int64_t> buffer_of;
  for (int64_t i = 0; i < n; ++i) {
    const ir::Node* node = order[i];
    for (const ir::Value* v : node->outputs()) {
      // Variables (and writes' ref outputs) live in variable memory.
      if (v == nullptr || v->is_constant() || graph.IsGraphOutput(v) || ops::RefVariable(v) != nullptr) continue;
      GE_ASSIGN_OR_RETURN(uint64_t bytes, StaticTensorBytes(v->desc()));
      PlanBuffer b;
      b.id = static_cast<int64_t>(out.buffers.size());
      b.size_bytes = bytes;
      b.first_step = i;
      int64_t last = release_after(i);
      for (const ir::Use& u : v->uses()) {
        // Uses inside subgraphs cannot occur in a static model (no node owns subgraphs).
        auto it = step_of.find(u.node);
        if (it == step_of.end()) return Internal("value " + v->name() + " is used by a node outside the order");
        last = std::max(last, release_after(it->second));
      }
      b.last_step = last;
      buffer_of[v] = b.id;
      out.buffers.push_back(b);
      out.values.push_back(v);
    }
  }
  for (const NoTaskConcat& c : concats) {
    auto parent = buffer_of.find(c.node->output(0));
    if (parent == buffer_of.end()) return Internal("no-task Concat '" + c.node->name() + "' has no output buffer");
    PlanBuffer& p = out.buffers[parent->second];
    for (int i = 0; i < c.node->num_inputs(); ++i) {
      auto slice = buffer_of.find(c.node->input(i));
      if (slice == buffer_of.end()) return Internal("no-task Concat '" + c.node->name() + "' reads no buffer");
      PlanBuffer& a = out.buffers[slice->second];
      a.alias_of = p.id;
      a.alias_offset = c.input_offsets[i];
      p.first_step = std::min(p.first_step, a.first_step);
      p.last_step = std::max(p.last_step, a.last_step);
    }
  }
  // In-place candidates (the planner accepts one only when the source's lifetime ends where this one starts).
  for (size_t k = 0; k < out.buffers.size(); ++k) {
    if (out.buffers[k].alias_of != -1) continue;
    const ir::Value* v = out.values[k];
    const ir::Node* node = v->producer();
    if (node == nullptr || node->output(0) != v) continue;
    for (int in = 0; in < node->num_inputs(); ++in) {
      auto src = buffer_of.find(node->input(in));
      if (src == buffer_of.end() || out.buffers[src->second].alias_of != -1 || !OutputMayOverwriteInput(*node, in)) {
        continue;
      }
      // A value read twice by this node (x + x) is fine: both reads are of the same element.
      out.buffers[k].inplace_source = src->second;
      break;
    }
  }
  return out;
}

}  // namespace ge::compiler
