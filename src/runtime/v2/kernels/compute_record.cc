#include "runtime/v2/kernels/compute_record.h"

#include <algorithm>
#include <cstring>

#include "ops/inplace.h"
#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {
namespace {

// The input whose block output 0 may take over (ComputeRecord::inplace_in), or -1: the op writes its output
// element by element over that input (or is a view of it), the value dies at this node, lives in allocator memory
// (not a constant, caller's input or persistent value) and has output 0's dtype and layout. Dims are checked per run
// (equal byte counts).
int InplaceInput(const ComputeNode& n) {
  if (n.memo || n.node == nullptr || n.out.empty() || n.out[0] == nullptr || n.out[0]->boxed_kind ||
      n.out[0]->persistent || n.node->num_outputs() < 1 || n.node->output(0) == nullptr) {
    return -1;
  }
  const ops::OpId op = ops::OpIdOf(*n.node);
  const bool view = (ops::IsDataView(op) || op == ops::OpId::kTranspose) && n.out.size() == 1;
  int first = 0, last = -1;
  if (ops::IsInplaceUnary(op) || view) last = 0;
  if (ops::IsInplaceBinary(op) && n.in.size() == 2) last = 1;
  const TensorDesc& out = n.node->output(0)->desc();
  for (int i = first; i <= last && i < static_cast<int>(n.in.size()); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr || s->boxed_kind || s->persistent || s->constant || n.node->input(i) == nullptr) continue;
    if (std::find(n.free_after.begin(), n.free_after.end(), s) == n.free_after.end()) continue;
    const TensorDesc& in = n.node->input(i)->desc();
    if (in.dtype != out.dtype || n.in_format[i] != n.out_format[0]) continue;
    if (view && IsNonPlainLayout(n.in_format[i])) continue;
    return i;
  }
  return -1;
}

// Whether Transpose |n| at its input's current shape only moves dims of size 1 (its output is its input's bytes).
bool TransposeMovesUnitDimsOnly(const ComputeNode& n) {
  const ValueSlot* in = n.in.empty() ? nullptr : n.in[0];
  if (in == nullptr) return false;
  return ops::TransposeMovesOnlyUnitDims(n.node->attrs().GetInts("perm", {}), in->t.shape.dims, in->t.shape.rank);
}

}  // namespace

ComputeRecord* ComputeRecords::Add(const ComputeNode& node) {
  const size_t bytes = ComputeRecord::Bytes(node.in.size(), node.out.size(), node.free_after.size());
  const size_t words = bytes / sizeof(uint64_t);
  // Every record is followed by records or zeroed headers, two at least (ComputeRecord::next, twice).
  const size_t header_words = sizeof(ComputeRecord) / sizeof(uint64_t);
  if (used_words_ + words + 2 * header_words > kChunkWords) {
    chunks_.push_back(std::make_unique<uint64_t[]>(std::max(words + 2 * header_words, kChunkWords)));
    used_words_ = 0;
  }
  uint64_t* at = chunks_.back().get() + used_words_;
  used_words_ += words;
  std::memset(at, 0, bytes);
  auto* r = new (at) ComputeRecord;
  r->node = &node;
  r->num_in = static_cast<uint16_t>(node.in.size());
  r->num_out = static_cast<uint16_t>(node.out.size());
  r->num_free = static_cast<uint16_t>(node.free_after.size());
  r->memo = node.memo ? 1 : 0;
  r->inplace_in = static_cast<int8_t>(InplaceInput(node));
  if (r->inplace_in >= 0) {
    const ops::OpId op = ops::OpIdOf(*node.node);
    r->inplace_kind = ops::IsDataView(op)          ? ComputeRecord::kDataView
                      : op == ops::OpId::kTranspose ? ComputeRecord::kTransposeView
                                                    : ComputeRecord::kElementwise;
    r->view = r->inplace_kind == ComputeRecord::kDataView ? 1 : 0;
  }
  std::copy(node.in.begin(), node.in.end(), r->in());
  std::copy(node.out.begin(), node.out.end(), r->out());
  std::copy(node.free_after.begin(), node.free_after.end(), r->frees());
  return r;
}

void SyncRecord(ComputeRecord* r) {
  const ComputeNode& n = *r->node;
  const ComputeNode::Run& run = n.run;
  const bool fast =
      run.inferred && !run.value_dependent && !run.always_infer && !run.data_dependent && run.current != nullptr &&
      !run.specialize_next;
  if (!fast) {
    r->fn = nullptr;
    return;
  }
  exec::KernelBinding* b = run.current->binding.get();
  r->fn = run.current->fn;
  r->binding = b;
  r->kernel = b->kernel;
  r->io_in = b->io.inputs.data();
  r->io_out = b->io.outputs.data();
  // The slow path has just inferred for (or confirmed) the inputs' current descs.
  for (size_t i = 0; i < r->num_in; ++i) r->in_versions()[i] = r->in()[i] != nullptr ? r->in()[i]->t.version : 0;
  std::copy(run.out_bytes.begin(), run.out_bytes.end(), r->out_bytes());
  if (r->inplace_kind == ComputeRecord::kTransposeView) r->view = TransposeMovesUnitDimsOnly(n) ? 1 : 0;
}

}  // namespace ge::runtime::v2
