#include "kernels/dnnl/dnnl_util.h"

#include <limits>

#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/packed_layout.h"
#include "kernels/dnnl/shared_reorders.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/kernel_util.h"
#include "ops/nn/window_util.h"
#include "ops/fused/fused_activation.h"

namespace ge::dnnl_kernels {

OpView OpView::FromRequest(const exec::PrepareRequest& r) {
  OpView v;
  v.node = r.node;
  v.opset = r.opset;
  v.in = r.input_descs;
  v.out = r.output_descs;
  v.consts = r.const_inputs;
  v.consts.resize(v.in.size(), nullptr);
  v.variables = r.variable_inputs;
  v.variables.resize(v.in.size(), false);
  v.versions = r.input_versions;
  v.versions.resize(v.in.size(), nullptr);
  v.varying = r.varying_input_dims;
  v.static_shapes = true;  // ValidateRequest has checked every present desc
  v.threads = r.intra_op_threads;
  // Tuned variants (kernel_variant.h): a thread count below the model's, and the engine's variant name.
  const int64_t tuned_threads = r.node->attrs().GetInt(exec::kKernelThreadsAttr, 0);
  if (tuned_threads >= 1 && tuned_threads < v.threads) v.threads = static_cast<int>(tuned_threads);
  v.variant = r.node->attrs().GetString(exec::kKernelVariantAttr, "");
  v.max_isa = r.max_isa;
  // bfloat16 kernels are AVX-512 ones: a model for a lower target computes in float32.
  v.bf16 = r.allow_bf16 && CpuHasBf16() &&
           (r.max_isa == IsaLevel::kNone || static_cast<int>(r.max_isa) >= static_cast<int>(IsaLevel::kX86_64_V4));
  v.UsePackedWeights();
  return v;
}

OpView OpView::FromNode(const ir::Node& node) {
  OpView v;
  v.node = &node;
  v.static_shapes = true;
  for (const ir::Value* x : node.inputs()) {
    v.in.push_back(x ? x->desc() : TensorDesc());
    v.consts.push_back(x ? x->const_value() : nullptr);
    if (x && !exec::IsStaticTensor(x->desc())) v.static_shapes = false;
  }
  for (const ir::Value* y : node.outputs()) {
    v.out.push_back(y ? y->desc() : TensorDesc());
    if (y && !exec::IsStaticTensor(y->desc())) v.static_shapes = false;
  }
  v.UsePackedWeights();
  return v;
}

void OpView::UsePackedWeights() {
  for (int i = 0; i < num_in(); ++i) {
    if (!has_in(i) || const_in(i) == nullptr) continue;
    if (auto d = exec::PackedWeightsLogicalDesc(*node, i, in[i])) {
      in[i] = *d;
      packed_input = i;
      packed_layout = node->attrs().GetString(exec::kPackedLayoutAttr, "");
    }
  }
}

const ir::AttrMap& OpView::attrs() const { return node->attrs(); }
bool OpView::has_in(int i) const { return i < num_in() && node->input(i) != nullptr; }
bool OpView::has_out(int i) const { return i < num_out() && node->output(i) != nullptr; }
int OpView::in_rank(int i) const { return in[i].shape.unknown_rank() ? -1 : in[i].shape.rank(); }

namespace {

bool FloatTensor(const TensorDesc& d, bool static_shapes, bool blocked_ok) {
  if (d.kind != ValueKind::kTensor || d.dtype != DataType::kFloat) return false;
  const bool blocked = IsNonPlainLayout(d.format) && PrimaryFormat(d.format) != Format::kFractalZ;
  if (d.format != Format::kND && d.format != Format::kNCHW && !(blocked && blocked_ok)) return false;
  if (blocked && !d.shape.unknown_rank() && (d.shape.rank() < 3 || d.shape.rank() > 5)) return false;
  if (!static_shapes || d.shape.unknown_rank()) return true;
  if (d.shape.rank() > DNNL_MAX_NDIMS) return false;
  for (int64_t x : d.shape.dims()) {
    if (x == 0) return false;
  }
  return true;
}

bool IndexTensor(const TensorDesc& d) {
  return d.kind == ValueKind::kTensor && (d.dtype == DataType::kInt32 || d.dtype == DataType::kInt64) &&
         (d.format == Format::kND || d.format == Format::kNCHW);
}

}  // namespace

bool CommonSupported(const OpView& v, const IoRules& rules) {
  bool any_out = false;
  for (int i = 0; i < v.num_in(); ++i) {
    if (!v.has_in(i)) continue;
    if (i == rules.index_input && IndexTensor(v.in[i])) continue;
    if (!FloatTensor(v.in[i], v.static_shapes, rules.blocked_ok)) return false;
  }
  for (int i = 0; i < v.num_out(); ++i) {
    if (!v.has_out(i)) continue;
    if (!FloatTensor(v.out[i], v.static_shapes, rules.blocked_ok)) return false;
    any_out = true;
  }
  return v.num_out() >= 1 && (v.has_out(0) || (rules.any_output && any_out));
}

bool OnlyFirstOutputs(const OpView& v, int n) {
  for (int i = 0; i < v.num_out(); ++i) {
    if (v.has_out(i) != (i < n)) return false;
  }
  return v.num_out() >= n;
}

bool ConvFamilyAttrsOk(const OpView& v, int64_t* group) {
  *group = v.attrs().GetInt("group", 1);
  nn::AutoPad ap;
  if (*group < 1 || !nn::ParseAutoPad(v.attrs(), &ap).ok()) return false;
  for (int i : {0, 1}) {
    const int r = v.in_rank(i);
    if (r >= 0 && (r < 3 || r > 5)) return false;
  }
  return true;
}

dnnl::memory::dims ToDnnlDims(const Dims& d) {
  if (d.empty()) return {1};
  return dnnl::memory::dims(d.begin(), d.end());
}

dnnl::memory::desc StridedDesc(const dnnl::memory::dims& dims, const dnnl::memory::dims& strides) {
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

dnnl::memory::desc PlainDesc(const Dims& d) {
  const dnnl::memory::dims dims = ToDnnlDims(d);
  dnnl::memory::dims strides(dims.size());
  dnnl::memory::dim acc = 1;
  for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
    strides[i] = acc;
    acc *= dims[i];
  }
  return StridedDesc(dims, strides);
}

dnnl::memory::desc ActivationDesc(const TensorDesc& d) {
  using T = dnnl::memory::format_tag;
  const size_t r = d.shape.dims().size();
  T tag;
  if (PrimaryFormat(d.format) == Format::kNC1HWC0 && FormatC0(d.format) == 8) {
    tag = r == 3 ? T::nCw8c : r == 4 ? T::nChw8c : T::nCdhw8c;
  } else if (d.format == Format::kNC1HWC0) {
    tag = r == 3 ? T::nCw16c : r == 4 ? T::nChw16c : T::nCdhw16c;
  } else if (d.format == Format::kNHWC) {
    tag = r == 3 ? T::nwc : r == 4 ? T::nhwc : T::ndhwc;
  } else {
    return PlainDesc(d.shape.dims());
  }
  return dnnl::memory::desc(ToDnnlDims(d.shape.dims()), dnnl::memory::data_type::f32, tag);
}

dnnl::memory::desc AnyDesc(const Dims& d) {
  return dnnl::memory::desc(ToDnnlDims(d), dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
}

bool ParseActivation(const ir::AttrMap& attrs, std::vector<EltStep>* steps) {
  using A = dnnl::algorithm;
  using K = fused::Activation;
  fused::ActivationSpec spec;
  steps->clear();
  if (!fused::ParseActivation(attrs, &spec).ok()) return false;
  const float p0 = spec.param[0], p1 = spec.param[1];
  switch (spec.kind) {
    case K::kNone: break;
    case K::kRelu: steps->push_back({A::eltwise_relu, 0.f, 0.f}); break;
    case K::kLeakyRelu: steps->push_back({A::eltwise_relu, p0, 0.f}); break;
    case K::kClip:
      if (!(p0 <= p1)) return false;  // min > max: every element is max; left to ref
      steps->push_back({A::eltwise_clip_v2, p0, p1});
      break;
    case K::kSigmoid: steps->push_back({A::eltwise_logistic, 0.f, 0.f}); break;
    case K::kTanh: steps->push_back({A::eltwise_tanh, 0.f, 0.f}); break;
    case K::kHardSigmoid:
      steps->push_back({A::eltwise_linear, p0, p1});
      steps->push_back({A::eltwise_clip_v2, 0.f, 1.f});
      break;
    case K::kHardSwish: steps->push_back({A::eltwise_hardswish, 0.f, 0.f}); break;
    case K::kElu: steps->push_back({A::eltwise_elu, p0, 0.f}); break;
    case K::kGelu: steps->push_back({A::eltwise_gelu_erf, 0.f, 0.f}); break;
    case K::kSilu: steps->push_back({A::eltwise_swish, 1.f, 0.f}); break;
  }
  return true;
}

namespace {

// a2 * (a1 * x + b1) + b2 as one linear step.
void MergeLinear(std::vector<EltStep>* steps) {
  std::vector<EltStep> out;
  for (const EltStep& s : *steps) {
    if (!out.empty() && s.alg == dnnl::algorithm::eltwise_linear && out.back().alg == dnnl::algorithm::eltwise_linear) {
      EltStep& prev = out.back();
      prev.beta = s.alpha * prev.beta + s.beta;
      prev.alpha = s.alpha * prev.alpha;
    } else {
      out.push_back(s);
    }
  }
  *steps = std::move(out);
}

}  // namespace

bool EltwiseChainOk(std::vector<EltStep> steps) {
  MergeLinear(&steps);
  for (size_t i = 0; i < steps.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (steps[i].alg == steps[j].alg) return false;
    }
  }
  return true;
}

bool AppendEltwise(std::vector<EltStep> steps, dnnl::post_ops* ops) {
  if (!EltwiseChainOk(steps)) return false;
  MergeLinear(&steps);
  for (const EltStep& s : steps) ops->append_eltwise(1.f, s.alg, s.alpha, s.beta);
  return true;
}

dnnl::memory WeightsMemory(DnnlKernel* k, const OpView& v, int input, const dnnl::memory::desc& plain,
                           const dnnl::memory::desc& chosen) {
  const Tensor* c = v.const_in(input);
  dnnl::memory::desc stored = plain;
  if (c != nullptr && input == v.packed_input) {
    if (!DecodePackedLayout(v.packed_layout, plain.dims(), c->nbytes(), &stored)) {
      throw PackedWeightsError("the prepacked weights of input " + std::to_string(input) +
                               " have a corrupt layout description");
    }
    if (stored == chosen) return k->ConstMemory(chosen, c->raw_data());
    if (stored.data.format_kind == dnnl_format_kind_wino) {
      // oneDNN converts plain weights into Winograd's layout, never out of it: these bytes serve only the exact
      // primitive they were made for.
      throw PackedWeightsError("the prepacked Winograd weights of input " + std::to_string(input) +
                               " were transformed for another CPU or thread count than this load's; compile the "
                               "model on this machine with the same --threads as the run");
    }
  }
  if (c == nullptr && v.variable_in(input) && chosen != plain) {
    // A session variable (variable acceleration): converted into the primitive's layout in a buffer of the
    // binding, again only when a write moved the variable's version.
    dnnl::memory from = k->BindInput(input, plain);
    dnnl::memory to = k->PersistentMemory(chosen);
    const dnnl::reorder::primitive_desc pd(k->engine(), plain, k->engine(), chosen, UserScratchpadAttr());
    k->AddVersionedStep(dnnl::reorder(pd), pd, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}, v.version(input));
    return to;
  }
  if (c == nullptr || chosen == stored) return k->BindInput(input, plain);
  dnnl::memory src = k->ConstMemory(stored, c->raw_data());
  // Shared with every kernel of the process that reorders the same constant bytes the same way.
  std::shared_ptr<void> bytes = SharedReorderedWeights(*c, stored, chosen, [&](void* handle) {
    dnnl::memory to(chosen, k->engine(), handle);
    dnnl::reorder(src, to).execute(k->stream(), src, to);
    k->stream().wait();
  });
  dnnl::memory dst = k->SharedPreparedMemory(chosen, std::move(bytes));
  if (input != v.packed_input) k->RecordPackedWeights(input, dst);
  return dst;
}

void AddReorder(DnnlKernel* k, const dnnl::memory& from, const dnnl::memory& to) {
  const dnnl::reorder::primitive_desc pd(k->engine(), from.get_desc(), k->engine(), to.get_desc(),
                                         UserScratchpadAttr());
  k->AddStep(dnnl::reorder(pd), pd, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

ActivationBinding BindActivations(DnnlKernel* k, const dnnl::memory::desc& src_slot, const dnnl::memory::desc& src_md,
                                  const dnnl::memory::desc& dst_slot, const dnnl::memory::desc& dst_md) {
  ActivationBinding b;
  const dnnl::memory x_slot = k->BindInput(0, src_slot);
  b.dst_slot = k->BindOutput(0, dst_slot);
  const bool src_direct = src_md == src_slot;
  b.dst_direct = dst_md == dst_slot;
  b.src = src_direct ? x_slot : k->IntermediateMemory(src_md);
  b.dst = b.dst_direct ? b.dst_slot : k->IntermediateMemory(dst_md);
  if (!src_direct) AddReorder(k, x_slot, b.src);
  return b;
}

void FinishActivations(DnnlKernel* k, const ActivationBinding& b) {
  if (!b.dst_direct) AddReorder(k, b.dst, b.dst_slot);
}

}  // namespace ge::dnnl_kernels
