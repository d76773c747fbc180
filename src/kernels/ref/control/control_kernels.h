// Per-topic registration and shared tensor helpers of the control reference kernels.
#pragma once
#include <vector>

#include "base/tensor.h"
#include "kernels/ref/kernel_registry.h"

namespace ge::ref::control {

void RegisterSubgraphKernels(KernelRegistry* r);  // If, Loop, SequenceMap
void RegisterScanKernels(KernelRegistry* r);     // Scan
void RegisterSequenceKernels(KernelRegistry* r);  // SequenceConstruct/Empty/At/Insert/Erase/Length
void RegisterSplitConcatKernels(KernelRegistry* r);  // SplitToSequence, ConcatFromSequence
void RegisterOptionalKernels(KernelRegistry* r);

// Copies `count` elements of type dt from src[src_off...] to dst[dst_off...] (offsets in elements). Strings are
// assigned element by element; every other type is copied bytewise.
void CopyElements(DataType dt, const void* src, int64_t src_off, void* dst, int64_t dst_off, int64_t count);

// The sub-tensor of t with index `start .. start+len` along axis (rank kept).
StatusOr<Tensor> SliceAxis(const Tensor& t, int axis, int64_t start, int64_t len);
// The sub-tensor t[..., index, ...] with `axis` removed.
StatusOr<Tensor> TakeAxis(const Tensor& t, int axis, int64_t index);
// Concatenates tensors along axis; with new_axis they are stacked along a new axis at that position. All inputs
// must share dtype and every other dim.
StatusOr<Tensor> ConcatTensors(const std::vector<Tensor>& ts, int axis, bool new_axis);

}  // namespace ge::ref::control
