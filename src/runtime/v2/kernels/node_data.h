// The data lowering attaches to runtime kernels (KernelContext::node_data) and the kernels themselves.
//
// A compute node lowered by the generic converter is one ComputeNode shared by its kernels: InferShape (Main, only
// where an input shape can change), AllocMemory, Launch (Main), PrepareStatic (Init, when shapes are static). The
// fields above `run` are fixed at lowering; `run` is changed only by those kernels, which the executor orders
// (InferShape → AllocMemory → Launch) and which run for one execution of the graph instance at a time.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "ir/graph.h"
#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"
#include "kernels/ref/kernel_context.h"
#include "ops/op_schema.h"
#include "runtime/v2/kernel_context.h"
#include "runtime/v2/lowering/value_slot.h"

namespace ge::runtime::v2 {

// A node run on its reference kernel on ge::Values, as the interpreter runs it (fallback for what prepared kernels
// cannot run: sequences, optionals, strings, data-dependent output shapes, control flow, Init constants).
struct RefNode {
  const ir::Node* node = nullptr;  // outlives the graph (the model owns the IR)
  int64_t opset = 17;
  std::vector<ValueSlot*> in, out;  // per node input / output; nullptr = omitted
  ref::SubgraphRunner* runner = nullptr;  // control flow: runs the node's lowered subgraphs
  std::unique_ptr<ref::SubgraphRunner> own_runner;
  uint64_t seed = 0;
  mutable std::unique_ptr<std::mt19937_64> rng;  // random ops; made on first use (2.5 KB)
  ref::VariableStore* variables = nullptr;  // variable ops (LoweringOptions::variables); null: none
};

// Runs |n| on its reference kernel and stores its outputs in the output slots (tensors that borrow an input's
// allocator memory are copied). Errors name the node.
Status RunRefNode(const RefNode& n);

// One prepared kernel for one set of descs (an entry of a ComputeNode's cache).
struct PreparedEntry {
  std::vector<RtShape> in_shapes, out_shapes;  // key
  // A shape-agnostic kernel (exec::PreparedKernel::shape_agnostic): per input, bit d set when dim d may differ
  // from the key (any positive size matches there; the outputs follow from the inputs). Empty for other kernels.
  std::vector<uint32_t> in_varying;
  std::string values;                          // key: bytes of the value inputs (value-dependent nodes)
  std::vector<Tensor> value_tensors;           // those values, the prepare request's constant inputs
  std::unique_ptr<exec::PreparedKernel> kernel;
  std::unique_ptr<exec::KernelBinding> binding;
  rt::TaskFn fn = nullptr;
  uint64_t last_use = 0;
};

struct alignas(64) ComputeNode {
  static constexpr size_t kInlineInputs = 4;  // inputs whose desc versions the fast path compares
  static constexpr uint32_t kSpecializeAfterRuns = 3;

  // What every run reads first (kept together, `run`'s hot fields included).
  bool dynamic = false;  // shapes can change: InferShape runs in Main
  std::vector<ValueSlot*> in, out;       // per node input / output; nullptr = omitted
  std::vector<ValueSlot*> free_after;    // ComputeKernel (fused): values dead once the node ran
  // Shape-derived (memoized; fused Compute only): Shape/Size of any value, or a deterministic node whose inputs are
  // constants and shape-derived values. Its outputs are persistent and it recomputes only when an input's desc
  // version (shape_only: Shape/Size read nothing else) or value generation changed since its last run.
  bool memo = false;
  bool shape_only = false;

  struct Run {
    bool inferred = false;
    bool value_dependent = false;    // inference reads the values of value_inputs
    bool always_infer = false;       // outputs sized only by the kernel: infer (and fall back) every run
    bool data_dependent = false;     // this run: the reference kernel sizes the outputs (RefNode)
    // in.size() <= kInlineInputs: in_versions[i] is in[i]'s RtTensor::version at the last inference, and an
    // unchanged input desc is one compare; else in_shapes are compared.
    bool versioned = false;
    uint32_t in_versions[kInlineInputs] = {};
    PreparedEntry* current = nullptr;  // kernel for the current descs; null: Launch chooses one
    // current is a shape-agnostic kernel that prefers_specialized, chosen for these descs: once they held for
    // kSpecializeAfterRuns runs in a row, Launch prepares a kernel specialized for them (a shape that repeats is
    // worth preparing for; one that churns is not). agnostic_runs counts those runs.
    bool specialize_next = false;
    uint32_t agnostic_runs = 0;
    std::vector<size_t> out_bytes;   // per output, from the last inference
    std::vector<RtShape> in_shapes;  // at the last inference
    std::vector<int> value_inputs;
    std::string values;              // their bytes at the last inference
    std::vector<std::unique_ptr<PreparedEntry>> cache;  // at most cache_capacity, least recently used evicted
    uint64_t tick = 0;
    uint64_t prepares = 0;  // kernels prepared (cache misses), for tests and statistics
    // memo: the inputs' desc versions and value generations at the last computation (valid once memo_valid).
    bool memo_valid = false;
    std::vector<uint32_t> memo_versions, memo_gens;
    uint64_t memo_skips = 0;  // runs the node was skipped (for tests)
  };
  mutable Run run;

  const ir::Node* node = nullptr;
  const ops::OpSchema* schema = nullptr;
  int64_t opset = 17;
  std::vector<Format> in_format, out_format;  // the IR's
  exec::RequestSettings settings;
  const kernels::EngineList* engines = nullptr;  // the model's; outlives the graph
  size_t cache_capacity = 8;
  bool shape_agnostic = true;  // ask engines for shape-agnostic kernels (LoweringOptions::shape_agnostic_kernels)
  RefNode ref;           // same slots: runs the node when its output shapes depend on data
};

// Frees the listed slots (FreeMemory in Main after the values' last readers; DeInit releases constants).
struct SlotList {
  std::vector<ValueSlot*> slots;
};

// Output shapes (and bytes) of |n| for its inputs' current shapes, re-run only when they changed; for Init and
// lowering as well as the InferShape kernel.
Status InferNode(const ComputeNode& n);
// Makes |n|'s current kernel the one for its current descs (cache hit, or prepared and cached).
Status SelectKernel(const ComputeNode& n);

// Runtime kernels (KernelFn).
KernelStatus InferShapeKernel(KernelContext* c);     // ComputeNode
KernelStatus AllocMemoryKernel(KernelContext* c);    // ComputeNode
KernelStatus LaunchKernel(KernelContext* c);         // ComputeNode
KernelStatus PrepareStaticKernel(KernelContext* c);  // ComputeNode (Init)
// InferShape (when dynamic) + AllocMemory + Launch + FreeMemory of free_after, in one call (the offline
// optimizer's fusion, LoweringOptions::fuse_compute).
KernelStatus ComputeKernel(KernelContext* c);        // ComputeRecord (compute_record.h)
KernelStatus FreeMemoryKernel(KernelContext* c);     // SlotList
KernelStatus RefKernel(KernelContext* c);            // RefNode

}  // namespace ge::runtime::v2
