// The dnnl engine (GE's AICore engine on our CPU device): oneDNN kernels for the float32 compute ops of a loaded
// static model. PrepareDnnlKernel is the engine's exec::KernelFactory; DnnlSupports is the cheap static check the
// compiler's engine assignment uses. Both look at one plain table (op type -> family), no registration.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/isa.h"
#include "base/status.h"
#include "ir/graph.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::dnnl_kernels {

// The engine's name in ir::Node::engine() and exec::KernelEngines.
inline constexpr const char* kDnnlEngineName = "dnnl";

// A oneDNN kernel for the request; nullptr when the engine does not support it (dtype other than float32, an
// attribute or shape oneDNN cannot express, extra outputs), so the caller falls back to the fast CPU kernels or
// the reference adapter; an error naming the node when oneDNN fails otherwise (e.g. out of memory). Primitives
// are created here, once; never at run time. Never throws.
StatusOr<std::unique_ptr<exec::PreparedKernel>> PrepareDnnlKernel(const exec::PrepareRequest& request);

// True when PrepareDnnlKernel supports the node: op and domain in the table, float32 inputs and outputs,
// attributes it handles and, where the node's values have static dims, shapes it handles (then it agrees with
// PrepareDnnlKernel returning a kernel). Looks only at the node, its values' descs and constant values.
bool DnnlSupports(const ir::Node& node);

// What the compiler learns by preparing a node's kernel exactly as the loader will (same descs, threads, target):
// the implementation it runs (impl_name, e.g. "dnnl.conv(jit:avx2)"), whether that is a oneDNN reference
// implementation, and the node's constant weights in the oneDNN layouts the kernel reorders them into, each with
// its input index, layout string (exec::kPackedLayoutAttr) and bytes (compile-time weight prepacking). `prepared`
// is false when the engine declines the node.
struct PackedWeights {
  int input = -1;
  std::string layout;
  std::vector<uint8_t> bytes;
};
struct KernelChoice {
  bool prepared = false;
  std::string impl;
  bool reference = false;
  std::vector<PackedWeights> packed;
};
StatusOr<KernelChoice> ChooseKernel(const exec::PrepareRequest& request);

// Tuning (`ge compile --tune`, kernels/exec/kernel_variant.h): the variant names the engine can prepare the node
// as, each with an optimized implementation; empty when it has no choice to offer (only the thread count is then
// tunable). Never throws.
std::vector<std::string> KernelVariants(const exec::PrepareRequest& request);

// The highest x86-64 level oneDNN runs kernels at in this process: the CPU's, capped by ONEDNN_MAX_CPU_ISA
// (impl_select.cc). A model compiled for a higher target cannot get the kernels it was planned for here.
IsaLevel DnnlMaxIsaLevel();

// Whether this CPU runs oneDNN's bfloat16 kernels (AVX-512 BF16 or AMX): without them a request with allow_bf16
// computes in float32 (bf16_util.cc).
bool CpuHasBf16();

// The engine entry for exec::KernelEngines::factories.
inline std::pair<std::string, exec::KernelFactory> DnnlEngineEntry() { return {kDnnlEngineName, &PrepareDnnlKernel}; }

}  // namespace ge::dnnl_kernels
