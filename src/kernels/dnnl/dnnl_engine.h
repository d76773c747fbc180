// The dnnl engine (GE's AICore engine on our CPU device): oneDNN kernels for the float32 compute ops of a loaded static
// model. PrepareDnnlKernel is the engine's exec::KernelFactory; DnnlSupports is the cheap static check the compiler's
// engine assignment uses. Both look at one plain table (op id -> family), no registration.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/isa.h"
#include "base/status.h"
#include "ir/graph.h"
#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"
#include "ops/op_id.h"

namespace ge::dnnl_kernels {

// The engine's name in ir::Node::engine().
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
// implementation, and the node's constant weights in the oneDNN layouts the kernel reorders them into
// (compile-time weight prepacking).
using kernels::KernelChoice;
using kernels::PackedWeights;
StatusOr<KernelChoice> ChooseKernel(const exec::PrepareRequest& request);

// Tuning (`ge compile --tune`, kernels/exec/kernel_variant.h): the variant names the engine can prepare the node
// as, each with an optimized implementation, the engine's default choice first (a constant-weight matrix product:
// "dnnl", which keeps it off ge's packed SGEMM); empty when it has no choice to offer. ge's own kernels' variants
// come from the exec engine (exec/engine_choice.h merges the lists). Never throws.
std::vector<std::string> KernelVariants(const exec::PrepareRequest& request);

// The highest x86-64 level oneDNN runs kernels at in this process: the CPU's, capped by ONEDNN_MAX_CPU_ISA
// (impl_select.cc). A model compiled for a higher target cannot get the kernels it was planned for here.
IsaLevel DnnlMaxIsaLevel();

// Whether this CPU runs oneDNN's bfloat16 kernels (AVX-512 BF16 or AMX): without them a request with allow_bf16
// computes in float32 (bf16_util.cc).
bool CpuHasBf16();

// The ops of the engine's table (op table ids, ops/op_table.def).
std::vector<ops::OpId> DnnlOps();

// Whether the engine takes the node by default at engine assignment: the compute-heavy ops of its table
// (convolutions, matmuls, pooling, softmax, norms, attention) that DnnlSupports; element-wise ops, concats and
// TransData run on it only where format selection keeps a blocked chain (ge's fast kernels are as quick for
// element-wise work and, unlike oneDNN's eltwise approximations, bit-exact with the reference kernels).
bool DnnlClaims(const ir::Node& node);

// The engine as a kernels::Engine (kernels/builtin_engines.cc puts it in ge's engine list).
std::shared_ptr<const kernels::Engine> CreateDnnlEngine();

}  // namespace ge::dnnl_kernels
