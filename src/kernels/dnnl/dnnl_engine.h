// The dnnl engine (GE's AICore engine on our CPU device): oneDNN kernels for the float32 compute ops of a loaded
// static model. PrepareDnnlKernel is the engine's exec::KernelFactory; DnnlSupports is the cheap static check the
// compiler's engine assignment uses. Both look at one plain table (op type -> family), no registration.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

// Compile-time weight prepacking: the node's constant weights in the oneDNN layouts its kernel would reorder them
// into at load (prepared here exactly as the loader will), each with its input index, layout string
// (exec::kPackedLayoutAttr) and bytes. Empty when the kernel keeps every constant as it is, or the engine does not
// take the node.
struct PackedWeights {
  int input = -1;
  std::string layout;
  std::vector<uint8_t> bytes;
};
StatusOr<std::vector<PackedWeights>> PackWeights(const exec::PrepareRequest& request);

// Whether this CPU runs oneDNN's bfloat16 kernels (AVX-512 BF16 or AMX): without them a request with allow_bf16
// computes in float32 (bf16_util.cc).
bool CpuHasBf16();

// The engine entry for exec::KernelEngines::factories.
inline std::pair<std::string, exec::KernelFactory> DnnlEngineEntry() { return {kDnnlEngineName, &PrepareDnnlKernel}; }

}  // namespace ge::dnnl_kernels
