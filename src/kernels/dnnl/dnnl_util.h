// What the dnnl engine's planners look at, and small helpers shared by the op families: the OpView (one node
// with its descs and constant inputs, built from a PrepareRequest or, for DnnlSupports, from the node's values),
// dims and plain memory descs, and element-wise steps (standalone ops, activations and post-ops).
#pragma once
#include <dnnl.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ir/graph.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::dnnl_kernels {

class DnnlKernel;

// One node as the planners see it. Descs of omitted optional inputs/outputs are default descs.
struct OpView {
  const ir::Node* node = nullptr;
  int64_t opset = 17;                   // of the node's domain (DnnlSupports: 17; no support rule depends on it)
  std::vector<TensorDesc> in, out;      // one per node input / output
  std::vector<const Tensor*> consts;    // per input: the constant value or nullptr
  bool static_shapes = false;           // every present input and output has known dims
  int threads = 1;                      // request.intra_op_threads
  bool bf16 = false;                    // request.allow_bf16 and the CPU has bfloat16 kernels (bf16_util.h)
  IsaLevel max_isa = IsaLevel::kNone;   // request.max_isa: implementations above it are skipped (impl_select.h)
  std::string variant;                  // the node's kernel_variant attribute ("" = the engine's default choice)
  // Prepacked weights (exec/packed_weights.h): the input holding them (its desc in `in` is the logical one, its
  // const_in the packed bytes) and their layout string; -1 when none.
  int packed_input = -1;
  std::string packed_layout;
  // Per input: a session variable, and its write version when the loader gave one (exec::PrepareRequest).
  std::vector<bool> variables;
  std::vector<const std::atomic<uint64_t>*> versions;
  // Per input: which dims may vary between runs (exec::PrepareRequest::varying_input_dims); empty: none.
  std::vector<std::vector<bool>> varying;

  static OpView FromRequest(const exec::PrepareRequest& r);
  static OpView FromNode(const ir::Node& node);

  const ir::AttrMap& attrs() const;
  int num_in() const { return static_cast<int>(in.size()); }
  int num_out() const { return static_cast<int>(out.size()); }
  bool has_in(int i) const;
  bool has_out(int i) const;
  const Dims& in_dims(int i) const { return in[i].shape.dims(); }
  const Dims& out_dims(int i) const { return out[i].shape.dims(); }
  const Tensor* const_in(int i) const { return i < static_cast<int>(consts.size()) ? consts[i] : nullptr; }
  bool variable_in(int i) const { return i < static_cast<int>(variables.size()) && variables[i]; }
  const std::atomic<uint64_t>* version(int i) const {
    return i < static_cast<int>(versions.size()) ? versions[i] : nullptr;
  }
  // Whether dim d of input i may vary between runs (a shape-agnostic kernel may serve them all).
  bool varying_dim(int i, size_t d) const {
    return i < static_cast<int>(varying.size()) && d < varying[i].size() && varying[i][d];
  }
  // Rank of input i when known, else -1.
  int in_rank(int i) const;

 private:
  void UsePackedWeights();
};

// What a family's inputs and outputs may be beyond CommonSupported's float32 rule.
struct IoRules {
  bool blocked_ok = false;   // NHWC and NC1HWC0 activations too
  int index_input = -1;      // this input may be a plain int32 / int64 tensor instead (LSTM's sequence_lens)
  bool any_output = false;   // output 0 may be omitted when another output is present
};
// Checks every op family shares: present inputs and outputs are float32 tensors, plain (ND/NCHW) or, when
// blocked_ok, NHWC or NC1HWC0 of rank 3 to 5; with static shapes, no dim is zero and every rank is at most DNNL_MAX_NDIMS.
bool CommonSupported(const OpView& v, const IoRules& rules);
inline bool CommonSupported(const OpView& v, bool blocked_ok = false) {
  IoRules rules;
  rules.blocked_ok = blocked_ok;
  return CommonSupported(v, rules);
}
// The node has exactly `n` outputs present and output i >= n absent.
bool OnlyFirstOutputs(const OpView& v, int n);
// The attributes Conv and ConvTranspose share: `group` >= 1 (returned in *group), a valid auto_pad, and inputs 0
// and 1 of rank 3 to 5 where the rank is known (1-D to 3-D spatial).
bool ConvFamilyAttrsOk(const OpView& v, int64_t* group);

dnnl::memory::dims ToDnnlDims(const Dims& d);
// Row-major f32 desc of dims (a rank-0 tensor is described as [1]).
dnnl::memory::desc PlainDesc(const Dims& d);
dnnl::memory::desc StridedDesc(const dnnl::memory::dims& dims, const dnnl::memory::dims& strides);
// f32 desc of an activation in its stored layout: row-major, NHWC as nwc / nhwc / ndhwc, or NC1HWC0 as
// nCw16c / nChw16c / nCdhw16c.
dnnl::memory::desc ActivationDesc(const TensorDesc& d);
// f32 desc of dims whose layout oneDNN picks (format_tag::any).
dnnl::memory::desc AnyDesc(const Dims& d);

// One element-wise oneDNN operation: algorithm with its alpha and beta.
struct EltStep {
  dnnl::algorithm alg;
  float alpha = 0, beta = 0;
};

// The fused ops' `activation` / `activation_params` attributes (parsed by ops/fused/fused_activation.h, defaults
// filled in) as element-wise steps (empty for none). False when they are malformed, or Clip's min > max.
bool ParseActivation(const ir::AttrMap& attrs, std::vector<EltStep>* steps);
// Appends the steps as eltwise post-ops. False (nothing appended) when two steps would share an algorithm:
// oneDNN 2.6's jit post-op chains (brgemm matmul at least) run every eltwise post-op of one algorithm with the
// first one's alpha and beta, so such chains are not built. Adjacent linear steps are merged first.
bool AppendEltwise(std::vector<EltStep> steps, dnnl::post_ops* ops);
// Whether AppendEltwise accepts the steps (for the planners).
bool EltwiseChainOk(std::vector<EltStep> steps);

// For ops with a weights input: the memory to pass as weights. Weights the compiler prepacked in `chosen` are used
// where they are mapped; prepacked in another layout (another CPU or oneDNN build), they are reordered once. Other
// constant weights are reordered once into `chosen` (kernel-owned, recorded for compile-time packing) unless that
// is the plain layout; non-constant weights bind the slot. Throws PackedWeightsError for a corrupt packed layout.
dnnl::memory WeightsMemory(DnnlKernel* k, const OpView& v, int input, const dnnl::memory::desc& plain,
                           const dnnl::memory::desc& chosen);

struct PackedWeightsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Appends a reorder step from one memory to another (layouts differ, dims equal).
void AddReorder(DnnlKernel* k, const dnnl::memory& from, const dnnl::memory& to);

// A primitive's source and destination bound to input slot 0 and output slot 0: the slot itself where the
// primitive uses the slot's layout, else a kernel-owned buffer in the primitive's layout. BindActivations adds the
// reorder from the source slot (call it before the primitive's step); FinishActivations adds the one to the
// destination slot (call it after).
struct ActivationBinding {
  dnnl::memory src, dst, dst_slot;
  bool dst_direct = true;
};
ActivationBinding BindActivations(DnnlKernel* k, const dnnl::memory::desc& src_slot, const dnnl::memory::desc& src_md,
                                  const dnnl::memory::desc& dst_slot, const dnnl::memory::desc& dst_md);
void FinishActivations(DnnlKernel* k, const ActivationBinding& b);

}  // namespace ge::dnnl_kernels
