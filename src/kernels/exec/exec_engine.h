// The exec engine: ge's own compute kernels (Winograd and im2col convolutions, the plain depthwise convolution, the
// plain Concat, LSTM and GRU, the packed SGEMM) as a kernels::Engine beside oneDNN's. It comes first in ge's engine
// list (kernels/builtin_engines.cc) and claims nothing at engine assignment: the nodes another engine owns are
// offered to it first, in their final layout, by the rule of exec/engine_choice.h, and it takes a node where its
// kernel is the better default at the model's target (or where a tuned variant names one of its kernels).
//
// Threading: immutable after construction; every method may be called from any thread.
#pragma once
#include <memory>

#include "base/isa.h"
#include "kernels/engine.h"

namespace ge::exec {

// The engine's name in ir::Node::engine() and in the option ge.engine.exec (1|0).
inline constexpr const char* kExecEngineName = "exec";

// The variant names of its kernels (kernel_variant.h).
inline constexpr const char kGeWinogradVariant[] = "ge_winograd";
inline constexpr const char kGeIm2colVariant[] = "ge_im2col";
inline constexpr const char kGeDepthwisePlainVariant[] = "ge_depthwise_plain";
inline constexpr const char kGePackedGemmVariant[] = "ge_packed_gemm";
// The variant name that keeps an RNN or a matrix product off this engine (on the blocked-layout engine's kernel).
inline constexpr const char kBlockedEngineVariant[] = "dnnl";

// What the engines after it offer, which decides where its kernels are the default: the highest x86-64 level they
// run kernels at here (their Winograd and wide GEMM kernels need AVX-512: below it ge's Winograd, im2col and
// packed SGEMM are the defaults), and whether they compute in bfloat16 on this CPU (a matrix product asked for
// bfloat16 then stays on them).
struct ExecEngineConfig {
  IsaLevel peer_max_isa = IsaLevel::kNone;  // kNone: the CPU's level
  bool peer_runs_bf16 = false;
};

std::shared_ptr<const kernels::Engine> CreateExecEngine(const ExecEngineConfig& config);

}  // namespace ge::exec
