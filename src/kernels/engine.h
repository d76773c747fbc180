// The engine interface (DESIGN.md §2; GE's OpsKernelInfoStore + OpsKernelBuilder): an engine claims the nodes it
// runs fast, says which activation layout it wants for them, packs their constant weights at compile time and
// prepares their kernels at load. The compiler and the runtime see engines only through this interface, as an
// EngineList built by whoever creates them (kernels/builtin_engines.h for ge's own list; tests build their own).
// Nodes no engine takes run on ge's fast kernels or the reference-kernel adapter (exec::PrepareKernel).
//
// Threading: an Engine is immutable after construction; every method may be called from any thread.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/isa.h"
#include "base/status.h"
#include "ir/graph.h"
#include "kernels/exec/prepared_kernel.h"
#include "ops/op_id.h"

namespace ge::kernels {

// A constant weight in the layout the engine's kernel reads it in: its node input index, the layout's encoding
// (recorded as exec::kPackedLayoutAttr in the model) and the bytes.
struct PackedWeights {
  int input = -1;
  std::string layout;
  std::vector<uint8_t> bytes;
};

// What the compiler learns by preparing a node's kernel exactly as the loader will: the implementation it runs
// (e.g. "dnnl.conv(jit:avx2)"), whether that is a slow reference implementation, and its prepacked weights.
// `prepared` is false when the engine declines the node (the loader then falls back to ge's kernels).
struct KernelChoice {
  bool prepared = false;
  std::string impl;
  bool reference = false;
  std::vector<PackedWeights> packed;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // The name in ir::Node::engine() and in the option ge.engine.<name> (1|0) that turns the engine off.
  virtual const char* name() const = 0;
  // The ops the engine's kernel table names; Claims and Supports are false for every other op.
  virtual std::vector<ops::OpId> Ops() const = 0;

  // Engine assignment: whether the engine takes the node by default (the compute-heavy ops it runs fast).
  virtual bool Claims(const ir::Node& node) const = 0;
  // Whether the engine can run the node at all; format selection moves a light node (an Add, a Concat) onto it
  // when that keeps a chain in the engine's blocked layout. Looks only at the node, its descs and constants.
  virtual bool Supports(const ir::Node& node) const = 0;

  // The channel block (C0 of NC1HWC0) the engine's kernels run fastest with at `target`; 0 when the engine has
  // no blocked layout (then format selection keeps plain layouts for its nodes).
  virtual int BlockedChannels(IsaLevel target) const { return 0; }
  // Whether one of its kernels already uses every intra-op thread (the automatic stream count is then one: more
  // streams would only compete for the cores).
  virtual bool UsesAllThreads() const { return false; }
  // The highest x86-64 level it runs kernels at in this process (kNone below x86-64-v2); by default the CPU's.
  virtual IsaLevel MaxIsaLevel() const { return IsaLevelOf(HostIsa().features); }
  // Whether a request with allow_bf16 computes in bfloat16 here.
  virtual bool RunsBf16() const { return false; }

  // Load: the node's kernel; nullptr when the engine declines the request (dtype, attribute or shape it cannot
  // express), an error naming the node when it should support it but cannot prepare it. Never throws.
  virtual StatusOr<std::unique_ptr<exec::PreparedKernel>> Prepare(const exec::PrepareRequest& request) const = 0;
  // Compile: prepares the kernel as Prepare does and reports its implementation and packed weights.
  virtual StatusOr<KernelChoice> Choose(const exec::PrepareRequest& request) const = 0;
  // Tuning (`ge compile --tune`, exec/kernel_variant.h): the variants the node can be prepared as; empty when
  // there is no choice to offer.
  virtual std::vector<std::string> Variants(const exec::PrepareRequest& request) const { return {}; }
};

// In priority order: engine assignment offers a node to each engine in turn.
using EngineList = std::vector<std::shared_ptr<const Engine>>;

// The engine named `name` in the list; nullptr when absent.
inline const Engine* FindEngine(const EngineList& engines, std::string_view name) {
  for (const auto& e : engines) {
    if (e != nullptr && name == e->name()) return e.get();
  }
  return nullptr;
}

// The highest x86-64 level every engine of the list runs kernels at here (the CPU's for an empty list): a model
// planned above it cannot get the kernels it was planned for.
inline IsaLevel EnginesMaxIsaLevel(const EngineList& engines) {
  IsaLevel level = IsaLevelOf(HostIsa().features);
  for (const auto& e : engines) {
    const IsaLevel l = e->MaxIsaLevel();
    if (static_cast<int>(l) < static_cast<int>(level)) level = l;
  }
  return level;
}

}  // namespace ge::kernels
