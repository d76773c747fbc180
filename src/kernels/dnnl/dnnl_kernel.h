// DnnlKernel: the one PreparedKernel class of the dnnl engine. A kernel is a short list of oneDNN primitives
// (usually one) created at prepare, run in order on memory objects whose data handles are re-pointed at the
// binding's slots on every run (the loader patches graph IO slots between executions).
//
// Ownership: the kernel owns its dnnl::engine, the primitives, constant weights reordered into the primitive's
// preferred layout and other memory filled at prepare (shared, read-only at run). Each binding (CreateState) owns
// what a run mutates: its memory objects for the slots, the intermediates between steps, one scratchpad shared by
// its steps (dnnl::scratchpad_mode::user, sized at prepare) and a dnnl::stream.
// Threading: the kernel is immutable after Finalize; bindings run concurrently (oneDNN primitives are
// thread-safe with user scratchpads). The task sets the calling thread's OpenMP thread count to the request's
// intra_op_threads when it differs; oneDNN then uses that many OpenMP threads, or one while the device's pool
// grants fewer than prepared (rt::IntraOpPool::active_threads: another process is taking the CPU). Errors at run come back as a
// Status naming the node; no exception leaves the task.
#pragma once
#include <atomic>
#include <dnnl.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/exec/prepared_kernel.h"

namespace ge::dnnl_kernels {

class DnnlKernel final : public exec::PreparedKernel {
 public:
  // impl: e.g. "dnnl.conv"; the main primitive's oneDNN implementation is appended at Finalize, and " bf16" when
  // it reads bf16 (allow_bf16): "dnnl.conv(brgconv:avx512_core_bf16) bf16".
  // threads: OpenMP threads one run may use (>= 1).
  DnnlKernel(const ir::Node& node, std::string impl, int threads);
  const char* impl_name() const override { return impl_.c_str(); }
  // Whether a step runs one of oneDNN's reference implementations (impl_select.h); known after Finalize.
  bool reference() const { return reference_; }

  dnnl::engine& engine() { return engine_; }
  // For work at prepare (weight reorders); runs use their binding's own stream.
  dnnl::stream& stream() { return stream_; }

  // A memory object whose data handle is set from input / output slot `slot` before every run (each binding has
  // its own; the returned one only names it in AddStep).
  dnnl::memory BindInput(int slot, const dnnl::memory::desc& md);
  dnnl::memory BindOutput(int slot, const dnnl::memory::desc& md);

  // Shape-agnostic kernels: a plain (row-major) slot whose oneDNN dims are taken from the slot's dims on every run
  // (KernelIo::input_dims / output_dims): `prepend_ones` dims of 1, then the product of the slot's first `fold`
  // dims as one dim (none when fold is 0), then its remaining dims. `prepared` is the desc the primitive was
  // created with (DNNL_RUNTIME_DIM_VAL where the dims vary); the returned placeholder only names the slot in
  // AddStep. A binding re-creates the slot's memory object when its dims changed since its last run. Then call
  // SetShapeAgnostic with, per node input, the dims the kernel reads at run (PreparedKernel::runtime_input_dims).
  struct SlotDims {
    int prepend_ones = 0;
    int fold = 0;
  };
  dnnl::memory BindInputDims(int slot, const dnnl::memory::desc& prepared, SlotDims map);
  dnnl::memory BindOutputDims(int slot, const dnnl::memory::desc& prepared, SlotDims map);
  void SetShapeAgnostic(std::vector<std::vector<bool>> runtime_input_dims, bool prefers_specialized) {
    runtime_input_dims_ = std::move(runtime_input_dims);
    prefers_specialized_ = prefers_specialized;
  }
  // Memory a step writes and a later step of the same run reads (a layout reorder's output): it lives in the
  // binding's scratch (shared with bindings whose runs never overlap), so nothing in it survives a run; the
  // returned object has no data and only names it in AddStep.
  dnnl::memory IntermediateMemory(const dnnl::memory::desc& md);
  // Another view of intermediate `of` (same bytes) described by md, which must not be larger: a reorder step reads
  // a primitive's output with other dims (oneDNN's [seq, batch, dirs * hidden] as [seq, batch, dirs, hidden]).
  dnnl::memory IntermediateAlias(const dnnl::memory& of, const dnnl::memory::desc& md);
  // Memory a step writes and later runs of the same binding read (a versioned step's output): allocated per
  // binding; the returned object has no data and only names it in AddStep.
  dnnl::memory PersistentMemory(const dnnl::memory::desc& md);
  // Kernel-owned memory of md that prepare fills (reordered weights, folded constants) and runs only read; shared
  // by every binding.
  dnnl::memory PreparedMemory(const dnnl::memory::desc& md);
  // The same over bytes prepared elsewhere and shared (shared_reorders.h); the kernel holds |bytes| alive.
  dnnl::memory SharedPreparedMemory(const dnnl::memory::desc& md, std::shared_ptr<void> bytes);
  // Memory wrapping a constant input's bytes: a reorder source, or prepacked weights a primitive reads. Never
  // written (the bytes may be a read-only mapping of the model file).
  dnnl::memory ConstMemory(const dnnl::memory::desc& md, const void* data);

  // Constant weights this kernel reordered into a oneDNN layout at prepare (what the compiler prepacks).
  struct ReorderedWeights {
    int input;
    dnnl::memory memory;  // kernel-owned
  };
  void RecordPackedWeights(int input, const dnnl::memory& m) { reordered_weights_.push_back({input, m}); }
  const std::vector<ReorderedWeights>& reordered_weights() const { return reordered_weights_; }

  // Appends a primitive run after the previous ones. args must not include DNNL_ARG_SCRATCHPAD: when pd has a
  // scratchpad, the binding's shared buffer is passed (pd must have been created with user scratchpad mode).
  // Memory not made by the functions above is treated as read-only and shared by every binding.
  void AddStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
               const std::vector<std::pair<int, dnnl::memory>>& args);
  // A step that runs only when `version` moved since this binding last ran it (every run when `version` is null):
  // converting a session variable that changes only when written (variable acceleration).
  void AddVersionedStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
                        const std::vector<std::pair<int, dnnl::memory>>& args, const std::atomic<uint64_t>* version);
  // Before the steps: copy `bytes` from input slot `in` to output slot `out` unless both hold the same address
  // (post-op sum reads its addend from the destination).
  void SetPreCopy(int in, int out, size_t bytes);
  // After the steps: SiLU in place on output slot `slot` (`elements` floats, its stored size): silu_epilogue.h.
  void SetSiluEpilogue(int slot, int64_t elements) {
    silu_slot_ = slot;
    silu_elements_ = elements;
  }
  // Sizes the scratchpad and names the implementation; call once after the last AddStep.
  void Finalize();
  size_t scratch_bytes() const override { return scratch_bytes_; }

  // The rt task body; args is a KernelBinding of this kernel.
  static Status Run(void* args, rt::TaskContext& ctx);

 private:
  enum class MemKind : unsigned char { kInput, kOutput, kIntermediate, kPersistent, kShared };
  struct MemSpec {
    dnnl::memory memory;  // kShared: the memory itself; otherwise a data-less placeholder with the desc
    MemKind kind;
    int slot;  // kInput / kOutput
    size_t scratch_offset = 0;  // kIntermediate: bytes into the binding's scratch (set at Finalize)
    int alias_of = -1;          // kIntermediate: the intermediate whose bytes this one views (IntermediateAlias)
    bool runtime_dims = false;  // BindInputDims / BindOutputDims: dims from the slot each run
    SlotDims map;
    int ndims = 0;              // the oneDNN rank (runtime_dims)
    dnnl::memory::data_type dtype = dnnl::memory::data_type::f32;
  };
  struct Step {
    dnnl::primitive prim;
    size_t scratch_bytes = 0;
    dnnl::memory::desc scratch_md;
    std::vector<std::pair<int, int>> args;  // {DNNL_ARG_*, index into mems_}
    bool versioned = false;                       // AddVersionedStep
    const std::atomic<uint64_t>* version = nullptr;
  };
  struct State;
  StatusOr<std::unique_ptr<exec::KernelState>> CreateState() const override { return CreateStateOnScratch(nullptr); }
  // scratch: the binding's scratchpad (shared with other bindings whose runs never overlap), or null: its own.
  StatusOr<std::unique_ptr<exec::KernelState>> CreateStateOnScratch(void* scratch) const override;
  int AddMemory(const dnnl::memory& m, MemKind kind, int slot);
  dnnl::memory BindDims(int slot, bool output, const dnnl::memory::desc& prepared, SlotDims map);
  // Shape-agnostic runs: re-creates the memory of every runtime-dims slot whose dims changed.
  Status UpdateRuntimeDims(const exec::KernelIo& io, State& st) const;
  int IndexOf(const dnnl::memory& m);  // registers memory it has not seen as kShared
  // threads: what this run's own loops (the SiLU epilogue) may use.
  Status Execute(const exec::KernelIo& io, State& st, int threads) const;

  const ir::Node* node_;
  std::string impl_;
  int threads_;
  dnnl::engine engine_;
  dnnl::stream stream_;       // prepare only
  std::vector<MemSpec> mems_;
  std::vector<Step> steps_;
  // The binding's scratch: the largest step's scratchpad at offset 0, then every intermediate (64-byte aligned).
  size_t scratch_bytes_ = 0;
  std::vector<ReorderedWeights> reordered_weights_;
  std::vector<std::shared_ptr<void>> shared_prepared_;  // SharedPreparedMemory's bytes
  int copy_in_ = -1, copy_out_ = -1;
  bool reference_ = false;
  int silu_slot_ = -1;
  int64_t silu_elements_ = 0;
  size_t copy_bytes_ = 0;
};

// dnnl::primitive_attr with user-managed scratchpad (every primitive of a DnnlKernel uses it).
dnnl::primitive_attr UserScratchpadAttr();

}  // namespace ge::dnnl_kernels
