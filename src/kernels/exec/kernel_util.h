// Helpers shared by the prepared kernels: request validation, node labels for errors, and the intra-op split
// policy (tiny tensors never touch the thread pool).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "kernels/exec/prepared_kernel.h"
#include "base/isa.h"
#include "rt/task.h"

namespace ge::exec {

// Element counts at or above which a kernel splits its loop over TaskContext::pool (when there is one), and the
// smallest chunk one pool thread gets.
constexpr int64_t kParallelMinElements = 64 * 1024;
constexpr size_t kParallelGrain = 16 * 1024;

// "node 'name' (OpType)", the prefix of every error about a node.
std::string NodeLabel(const ir::Node& node);

// True when the desc is a tensor of a known dtype with rank and every dim known.
bool IsStaticTensor(const TensorDesc& d);

// Checks the request's shape: node present, one desc per node input and output, one const slot per input (or
// none), and a static tensor desc for every present input and output. InvalidArgument naming the node otherwise.
Status ValidateRequest(const PrepareRequest& r);

// Whether input / output i of the request's node is present (not an omitted optional one).
bool InputPresent(const PrepareRequest& r, int i);
// Whether the request marks any dim varying (PrepareRequest::varying_input_dims): of input `input`, or of any
// input when `input` is -1.
bool HasVaryingDims(const PrepareRequest& r, int input = -1);
bool OutputPresent(const PrepareRequest& r, int i);
// The constant value of input i, or nullptr.
const Tensor* ConstInput(const PrepareRequest& r, int i);

// Calls body(begin, end) over [0, n): split over ctx.pool when n is large and a pool exists, else in one call.
template <typename Body>
inline void ParallelRange(rt::TaskContext& ctx, int64_t n, Body&& body, size_t grain = kParallelGrain) {
  if (n >= kParallelMinElements && ctx.pool != nullptr) {
    ctx.pool->ParallelFor(static_cast<size_t>(n), body, grain);
  } else if (n > 0) {
    body(size_t{0}, static_cast<size_t>(n));
  }
}

// Calls body(u0, u1) over units [0, units) of elems_per_unit elements each (pixel rows, channel planes): split over
// ctx.pool when the elements, not the units, number min_elements or more; the grain keeps kParallelGrain elements
// per chunk.
template <typename Body>
inline void ParallelUnits(rt::TaskContext& ctx, int64_t units, int64_t elems_per_unit, Body&& body,
                          int64_t min_elements = kParallelMinElements) {
  if (ctx.pool != nullptr && units > 1 && units * elems_per_unit >= min_elements) {
    const size_t grain =
        std::max<size_t>(1, kParallelGrain / static_cast<size_t>(std::max<int64_t>(1, elems_per_unit)));
    ctx.pool->ParallelFor(static_cast<size_t>(units), body, grain);
  } else if (units > 0) {
    body(size_t{0}, static_cast<size_t>(units));
  }
}

// Which build of a kernel's loops to run (loops compiled for AVX-512 F/BW/VL/DQ, AVX2 + FMA and the baseline): the
// widest this CPU runs that the model's target (`max_level`, kNone for any) allows.
enum class LoopIsa { kBaseline, kAvx2, kAvx512 };
LoopIsa PickLoopIsa(IsaLevel max_level);

}  // namespace ge::exec
