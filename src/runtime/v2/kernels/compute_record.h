// ComputeRecord: the hot state of one fused Compute kernel (the node_data of a "<node>/Compute" kernel), built by
// lowering and packed with the other records of the model in execution order, so that a node whose input descs
// did not change since its last run touches its record (one or two cache lines, read in sequence), its slots'
// first lines and its kernel's io arrays, and nothing else: compare versions, allocate outputs, run the prepared
// kernel's task, free dead inputs. Everything else (inference, kernel selection, the reference fallback, names for
// errors) stays on the cold ComputeNode.
//
// Layout: the fixed header, then ValueSlot* [num_in inputs, num_out outputs, num_free dead values], size_t
// out_bytes[num_out], uint32_t in_versions[num_in] (rounded up to 8 bytes).
// Threading: written only by its own kernel (one execution of the graph instance at a time).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/exec/prepared_kernel.h"
#include "runtime/v2/lowering/value_slot.h"

namespace ge::runtime::v2 {

struct ComputeNode;

struct ComputeRecord {
  const ComputeNode* node = nullptr;  // cold; owned by the graph
  // The current prepared kernel (its entry in node->run.cache): null = take the slow path (first run, inference
  // reads values, outputs sized by data, more inputs than versions are kept for).
  rt::TaskFn fn = nullptr;
  exec::KernelBinding* binding = nullptr;
  const exec::PreparedKernel* kernel = nullptr;  // binding->kernel, fetched ahead
  void** io_in = nullptr;   // binding->io.inputs.data() (sized once by NewBinding)
  void** io_out = nullptr;  // binding->io.outputs.data()
  uint16_t num_in = 0, num_out = 0, num_free = 0;
  // Shape-derived node (ComputeNode::memo): skipped while its inputs' descs and value generations repeat.
  uint8_t memo = 0;
  // In place (ops/inplace.h): output 0 takes over the block of input `inplace_in` when that value dies here and
  // has output 0's byte count (-1: never). kTransposeView: only while the current shapes make the Transpose move
  // unit dims only (`view`, set by SyncRecord). A view that took its input's block runs nothing.
  enum InplaceKind : uint8_t { kElementwise = 0, kDataView = 1, kTransposeView = 2 };
  int8_t inplace_in = -1;
  uint8_t inplace_kind = kElementwise;
  uint8_t view = 0;  // output 0 is input 0's bytes at the current shapes

  ValueSlot** slots() { return reinterpret_cast<ValueSlot**>(this + 1); }
  ValueSlot** in() { return slots(); }
  ValueSlot** out() { return slots() + num_in; }
  ValueSlot** frees() { return slots() + num_in + num_out; }
  size_t* out_bytes() { return reinterpret_cast<size_t*>(slots() + num_in + num_out + num_free); }
  uint32_t* in_versions() { return reinterpret_cast<uint32_t*>(out_bytes() + num_out); }

  // The record lowering packed after this one (usually the next Compute kernel to run), or one zeroed (no
  // fn, no slots) at the end of a chunk; the same holds for that one: for fetching ahead only.
  ComputeRecord* next() {
    return reinterpret_cast<ComputeRecord*>(reinterpret_cast<char*>(this) + Bytes(num_in, num_out, num_free));
  }
  static size_t Bytes(size_t num_in, size_t num_out, size_t num_free) {
    const size_t words = (num_in + num_out + num_free) + num_out + (num_in + 1) / 2;
    return sizeof(ComputeRecord) + words * sizeof(uint64_t);
  }
};
static_assert(sizeof(ComputeRecord) % alignof(uint64_t) == 0, "tail arrays follow the header");

// Owns the records of one lowered model, packed in creation (execution) order in chunks with stable addresses.
class ComputeRecords {
 public:
  // A record for |node| with its slots copied (in, out, free_after); the run state is left for the first run.
  ComputeRecord* Add(const ComputeNode& node);

 private:
  static constexpr size_t kChunkWords = 8192;  // 64 KiB
  std::vector<std::unique_ptr<uint64_t[]>> chunks_;
  size_t used_words_ = kChunkWords;  // in the last chunk
};

// Refreshes |r|'s run state from its node after the slow path ran the node (kernel chosen, shapes inferred).
void SyncRecord(ComputeRecord* r);

}  // namespace ge::runtime::v2
