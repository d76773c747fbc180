// Constant weights reordered at prepare, shared process-wide (issue 11, external weights). Weights the compiler
// cannot prepack (oneDNN's Winograd layout is not a blocked layout, packed_layout.h) are reordered by every kernel
// that reads them, at every load. Here one reorder per (source address, source layout, target layout) serves every
// kernel alive in the process: the loads of models whose weights come from one mapped external weight file
// (om/weight_file_cache.h) have constants at the same addresses, so they share the reordered bytes too (resnet50:
// 58 MB of Winograd weights per load otherwise). Embedded weights live in each load's own .om mapping (other
// addresses), so nothing changes for them.
// The shared buffer holds the source tensor's storage: while it lives, no other bytes can take that address.
// Constants are immutable. Entries are weak: a buffer is freed with the last kernel using it. Thread-safe.
#pragma once
#include <dnnl.hpp>

#include <cstddef>
#include <functional>
#include <memory>

#include "base/tensor.h"

namespace ge::dnnl_kernels {

// The bytes of constant |source| (stored as |from|) in layout |to|: an existing buffer, or a new one (64-byte
// aligned, to.get_size() bytes) that |reorder| fills. Exceptions from |reorder| propagate; nothing is cached then.
std::shared_ptr<void> SharedReorderedWeights(const Tensor& source, const dnnl::memory::desc& from,
                                             const dnnl::memory::desc& to, const std::function<void(void*)>& reorder);
// Buffers alive now (for tests).
size_t SharedReorderedWeightsLive();

}  // namespace ge::dnnl_kernels
