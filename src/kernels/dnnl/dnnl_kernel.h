// DnnlKernel: the one PreparedKernel class of the dnnl engine. A kernel is a short list of oneDNN primitives
// (usually one) created at prepare, run in order on memory objects whose data handles are re-pointed at the io()
// slots on every run (the loader patches graph IO slots between executions).
//
// Ownership: the kernel owns its dnnl::engine and dnnl::stream, the primitives, every memory object, constant
// weights reordered into the primitive's preferred layout, and one scratchpad buffer shared by its steps
// (dnnl::scratchpad_mode::user, sized at prepare).
// Threading: one execution at a time (data handles and the scratchpad are mutated by a run). The task sets the
// calling thread's OpenMP thread count to the request's intra_op_threads when it differs; oneDNN then uses that
// many OpenMP threads. Errors at run come back as a Status naming the node; no exception leaves the task.
#pragma once
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
  dnnl::stream& stream() { return stream_; }

  // A memory object whose data handle is set from input / output slot `slot` before every run.
  dnnl::memory BindInput(int slot, const dnnl::memory::desc& md);
  dnnl::memory BindOutput(int slot, const dnnl::memory::desc& md);
  // Kernel-owned memory of md (allocated by oneDNN, freed with the kernel).
  dnnl::memory OwnedMemory(const dnnl::memory::desc& md);
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
  // scratchpad, the kernel's shared buffer is passed (pd must have been created with user scratchpad mode).
  void AddStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
               const std::vector<std::pair<int, dnnl::memory>>& args);
  // Before the steps: copy `bytes` from input slot `in` to output slot `out` unless both hold the same address
  // (post-op sum reads its addend from the destination).
  void SetPreCopy(int in, int out, size_t bytes);
  // After the steps: SiLU in place on output slot `slot` (`elements` floats, its stored size): silu_epilogue.h.
  void SetSiluEpilogue(int slot, int64_t elements) {
    silu_slot_ = slot;
    silu_elements_ = elements;
  }
  // Allocates the scratchpad and fixes the argument arrays; call once after the last AddStep.
  void Finalize();

  // The rt task body.
  static Status Run(void* args, rt::TaskContext& ctx);

 private:
  struct Bind {
    dnnl_memory_t mem;  // owned by memories_
    bool output;
    int slot;
  };
  struct Step {
    dnnl::primitive prim;
    size_t scratch_bytes = 0;
    dnnl::memory::desc scratch_md;
    std::vector<dnnl_exec_arg_t> args;
  };
  Status Execute();

  const ir::Node* node_;
  std::string impl_;
  int threads_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  std::vector<dnnl::memory> memories_;  // keeps every memory object referenced by binds_ and steps_ alive
  std::vector<Bind> binds_;
  std::vector<Step> steps_;
  dnnl::memory scratchpad_;  // u8 buffer of the largest step's scratchpad; empty when none needs one
  std::vector<ReorderedWeights> reordered_weights_;
  int copy_in_ = -1, copy_out_ = -1;
  bool reference_ = false;
  int silu_slot_ = -1;
  int64_t silu_elements_ = 0;
  size_t copy_bytes_ = 0;
};

// dnnl::primitive_attr with user-managed scratchpad (every primitive of a DnnlKernel uses it).
dnnl::primitive_attr UserScratchpadAttr();

}  // namespace ge::dnnl_kernels
