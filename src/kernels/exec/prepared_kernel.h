// Prepared kernels: what a loaded static model (runtime v1's SinkModel, later v2's Launch kernels) runs for one
// node. A kernel is prepared once at load (InitNodes: attributes parsed, shapes fixed, strides and loops chosen)
// and then run many times as an rt task {fn, binding} with no allocation and no look-up by name.
//
// Immutable after Prepare: everything one execution changes lives in a KernelBinding (the node's address slots and
// the kernel's mutable state: engine memory objects, scratch buffers, a reference kernel's context). A loaded
// model makes one binding per kernel for each of its execution contexts, so one prepared kernel serves several
// concurrent executions (issue 10, "reentrant loaded models").
//
// Addresses: every input and output has one slot in KernelBinding::io. The loader fills the slots of a binding
// (feature-map offsets resolved against that context's memory, constants pointing into the weights) and, for
// graph inputs and outputs, patches them before each execution so user buffers are bound without copies
// (zero-copy IO, seed 002 "InitIoNodes"). A kernel reads its slots on every run and never caches addresses derived
// from them across runs.
//
// Threading: fn may run on any stream worker; one binding is run by one execution at a time, different bindings
// of one kernel concurrently. Intra-op parallelism uses TaskContext::pool.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "base/isa.h"
#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ir/graph.h"
#include "rt/task.h"

namespace ge::kernels {
class Engine;
using EngineList = std::vector<std::shared_ptr<const Engine>>;  // kernels/engine.h
}  // namespace ge::kernels

namespace ge::exec {

// The address slots of one node: one per input and per output, in the node's order. nullptr = omitted optional.
// A shape-agnostic kernel (PreparedKernel::shape_agnostic) also reads each present slot's dims for the run:
// input_dims[i] / output_dims[i] point at the rank the kernel was prepared with dims, set by the runtime before
// every run (runtime v2 points them at its values' shapes); other kernels leave them null and never read them.
struct KernelIo {
  std::vector<void*> inputs;
  std::vector<void*> outputs;
  std::vector<const int64_t*> input_dims;
  std::vector<const int64_t*> output_dims;
};

class PreparedKernel;

// What one binding of a kernel may change while it runs, besides its slots. Owned by the binding.
class KernelState {
 public:
  virtual ~KernelState() = default;
};

// A prepared kernel bound into one execution context: the task's args (fn(binding, ctx)).
struct KernelBinding {
  const PreparedKernel* kernel = nullptr;  // outlives the binding
  KernelIo io;                             // sized for the node by NewBinding, all null
  std::unique_ptr<KernelState> state;      // the kernel's, or null when it needs none
};

// Packed constant weights of one input (PreparedKernel::PackedConstants): the node input they replace, the
// layout's description (the node's packed_layout attribute) and the bytes.
struct PackedConstant {
  int input = -1;
  std::string layout;
  std::vector<uint8_t> bytes;
};

class PreparedKernel {
 public:
  virtual ~PreparedKernel() = default;
  PreparedKernel(const PreparedKernel&) = delete;
  PreparedKernel& operator=(const PreparedKernel&) = delete;

  // The task body to add to an rt::Model with a binding of this kernel as its args.
  rt::TaskFn fn() const { return fn_; }
  // A fresh binding: null slots and new state (engine memory, scratch). Thread-safe; fails only when the state
  // cannot be allocated. `shared_scratch`: at least scratch_bytes() bytes, 64-byte aligned, that the binding uses
  // as its scratch instead of its own — for bindings whose runs never overlap (one execution context, one
  // stream); null: the binding allocates its own.
  StatusOr<std::unique_ptr<KernelBinding>> NewBinding(void* shared_scratch = nullptr) const;
  // Bytes of scratch one run needs and does not keep between runs (0: none).
  virtual size_t scratch_bytes() const { return 0; }
  int num_inputs() const { return num_inputs_; }
  int num_outputs() const { return num_outputs_; }
  // Which implementation runs, e.g. "exec.unary_f32" or "ref" (the reference-kernel adapter). For inspection.
  virtual const char* impl_name() const = 0;
  // Prepared for every set of input shapes that differs from the request's descs only in runtime_input_dims
  // (a subset of the request's varying_input_dims; the output dims follow from the inputs); each run reads the
  // actual dims from KernelIo::input_dims / output_dims. False: the kernel serves exactly the descs it was
  // prepared for.
  bool shape_agnostic() const { return !runtime_input_dims_.empty(); }
  // Per input, the dims the kernel reads at run (empty when not shape-agnostic).
  const std::vector<std::vector<bool>>& runtime_input_dims() const { return runtime_input_dims_; }
  // A shape-agnostic kernel that runs slower than one prepared for fixed dims (e.g. a generic GEMM instead of one
  // blocked for the shape with prepacked weights): runtime v2 prepares a specialized kernel once a shape repeats.
  bool prefers_specialized() const { return prefers_specialized_; }
  // Set by PrepareKernel on a shape-agnostic fallback when a faster kernel exists for fixed dims.
  void PreferSpecialized() { prefers_specialized_ = true; }
  // Constant weights the kernel packed at prepare, for the compiler to store in the model in their place
  // (packed_weights.h) so that loading maps them: false when it packed none or already reads mapped ones.
  virtual bool PackedConstants(PackedConstant* out) const { return false; }

 protected:
  PreparedKernel() = default;
  // The per-binding state; none by default.
  virtual StatusOr<std::unique_ptr<KernelState>> CreateState() const { return std::unique_ptr<KernelState>(); }
  // The same on shared scratch (NewBinding's); kernels with scratch_bytes() > 0 override it.
  virtual StatusOr<std::unique_ptr<KernelState>> CreateStateOnScratch(void* /*scratch*/) const { return CreateState(); }
  // Set by each kernel's constructor (runtime_input_dims_: by kernels prepared for varying dims, one entry per
  // input).
  rt::TaskFn fn_ = nullptr;
  std::vector<std::vector<bool>> runtime_input_dims_;
  bool prefers_specialized_ = false;
  int num_inputs_ = 0;
  int num_outputs_ = 0;
};

// The kernel a task body runs, from its args (a KernelBinding).
template <typename K>
inline const K& BoundKernel(const KernelBinding& b) {
  return *static_cast<const K*>(b.kernel);
}

// Everything Prepare may look at. All descs are fully static (known dtype and dims) tensor descs.
struct PrepareRequest {
  const ir::Node* node = nullptr;        // op type, domain, name, attributes; must outlive the kernel
  int64_t opset = 17;                    // of the node's domain
  std::vector<TensorDesc> input_descs;   // one per node input; a default desc for an omitted optional input
  std::vector<TensorDesc> output_descs;  // one per node output
  // Per input: the value when the input is a constant (shape operands, pads, axes ...), else nullptr. Points at
  // tensors that outlive the kernel; the same bytes are what the input slot will address.
  std::vector<const Tensor*> const_inputs;
  // Per input: whether it is a session variable (ops/variable/variable_ref.h) — memory that persists across runs
  // and changes only when a graph writes it. Such an input's write version (a counter every write increments,
  // owned by the session's VarManager and outliving the kernel) when the loader knows it, else nullptr. A kernel
  // may keep a converted copy of a variable input (weights in its packed layout) and convert again only when the
  // version moved; without a version it converts on every run.
  std::vector<bool> variable_inputs;
  std::vector<const std::atomic<uint64_t>*> input_versions;
  uint64_t seed = 0;  // for random ops without a seed attribute
  // Runtime v2: per input, which dims may differ from input_descs between runs (the graph's unknown dims); empty,
  // or an empty entry: fixed. An engine may then prepare one shape-agnostic kernel for all of them
  // (PreparedKernel::shape_agnostic); one that does not prepares for input_descs exactly.
  std::vector<std::vector<bool>> varying_input_dims;
  // Runtime v2, value-dependent nodes: per input, whether its const_inputs entry is only this first run's value
  // (the op's inference reads it; later runs may bring other values). A shape-agnostic kernel must not keep such
  // a value: it reads the input's slot at run. Empty: every const_inputs entry is constant.
  std::vector<bool> varying_values;
  int intra_op_threads = 1;  // threads one kernel may use (engines with their own thread runtime, e.g. oneDNN/OpenMP)
  // The model's precision_mode is allow_bf16: float32 in and out, but an engine may compute in bfloat16.
  bool allow_bf16 = false;
  // The model's target ISA (`ge compile --target`): engines choose only implementations it allows, so a model
  // compiled for x86-64-v3 runs the same kernels on an AVX-512 CPU. kNone: whatever this CPU runs best.
  IsaLevel max_isa = IsaLevel::kNone;
};

// The request for `node` of a static graph: its values' descs, constant inputs, and the model-wide settings. The
// one place requests are built, so that the compiler (kernel selection, prepacked weights, tuning) prepares exactly
// what the loader will.
struct RequestSettings {
  int64_t opset = 17;       // of the node's domain
  uint64_t seed = 0;
  int intra_op_threads = 1;
  bool allow_bf16 = false;
  IsaLevel max_isa = IsaLevel::kNone;
  // ge.exec.variable_acc: kernels may keep converted copies of variable inputs (PrepareRequest::variable_inputs).
  bool variable_acc = true;
};
PrepareRequest MakeRequest(const ir::Node& node, const RequestSettings& settings);

// Picks the fastest implementation that supports the request: the kernel of the node's engine (ir::Node::engine(),
// set by the compiler's engine assignment) when `engines` lists it and it accepts the request; else a specialised
// kernel of ge's own when one exists, else the
// reference-kernel adapter (which runs the ref kernel on tensors borrowing the slots and copies its outputs into
// the output slots, checking they have the planned dtype and dims). Fails with Unimplemented naming the node when
// neither supports it (no ref kernel, or a node that owns subgraphs).
StatusOr<std::unique_ptr<PreparedKernel>> PrepareKernel(const PrepareRequest& request,
                                                        const kernels::EngineList& engines = {});

// True when the node can run as a prepared kernel at all (no subgraphs, a ref kernel exists, no string, sequence
// or optional values among its inputs and outputs). The compiler uses it to decide static (sink) versus dynamic.
bool CanPrepare(const ir::Node& node);

}  // namespace ge::exec
