#include "runtime/v2/kernels/compute_record.h"

#include <algorithm>
#include <cstring>

#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {

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
}

}  // namespace ge::runtime::v2
