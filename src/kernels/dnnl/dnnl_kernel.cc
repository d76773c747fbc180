#include "kernels/dnnl/dnnl_kernel.h"

#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/silu_epilogue.h"

#include "kernels/dnnl/omp_threads.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <dnnl_debug.h>

#include "kernels/exec/kernel_util.h"

namespace ge::dnnl_kernels {
namespace {

// Row-major layout of `ndims` dims (1..6).
dnnl::memory::format_tag PlainTag(int ndims) {
  using T = dnnl::memory::format_tag;
  static constexpr T kTags[] = {T::a, T::ab, T::abc, T::abcd, T::abcde, T::abcdef};
  return kTags[std::clamp(ndims, 1, 6) - 1];
}

}  // namespace

dnnl::primitive_attr UserScratchpadAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// What one binding's runs mutate: memory objects for its slots and intermediates, the scratchpad, the argument
// arrays that name them, and a stream.
struct DnnlKernel::State final : exec::KernelState {
  dnnl::stream stream;
  std::vector<dnnl::memory> mems;  // per MemSpec
  dnnl::memory scratchpad;
  std::vector<std::vector<dnnl_exec_arg_t>> args;  // per step
  struct Bind {
    dnnl_memory_t mem;  // owned by mems
    bool output;
    int slot;
    int mem_index;                      // into mems
    int64_t dims[DNNL_MAX_NDIMS] = {};  // runtime-dims slots: the oneDNN dims of mems[mem_index]; 0 = none yet
  };
  std::vector<Bind> binds;
  std::vector<uint64_t> seen_versions;  // per step: the version its last run saw (versioned steps)
  std::vector<bool> ran;                // per step: ran at least once
};

DnnlKernel::DnnlKernel(const ir::Node& node, std::string impl, int threads)
    : node_(&node),
      impl_(std::move(impl)),
      threads_(std::max(1, threads)),
      engine_(dnnl::engine::kind::cpu, 0),
      stream_(engine_) {
  fn_ = &DnnlKernel::Run;
  num_inputs_ = node.num_inputs();
  num_outputs_ = node.num_outputs();
}

int DnnlKernel::AddMemory(const dnnl::memory& m, MemKind kind, int slot) {
  MemSpec spec;
  spec.memory = m;
  spec.kind = kind;
  spec.slot = slot;
  mems_.push_back(std::move(spec));
  return static_cast<int>(mems_.size()) - 1;
}

int DnnlKernel::IndexOf(const dnnl::memory& m) {
  for (size_t i = 0; i < mems_.size(); ++i) {
    if (mems_[i].memory.get() == m.get()) return static_cast<int>(i);
  }
  return AddMemory(m, MemKind::kShared, -1);
}

dnnl::memory DnnlKernel::BindInput(int slot, const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  AddMemory(m, MemKind::kInput, slot);
  return m;
}

dnnl::memory DnnlKernel::BindOutput(int slot, const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  AddMemory(m, MemKind::kOutput, slot);
  return m;
}

dnnl::memory DnnlKernel::BindDims(int slot, bool output, const dnnl::memory::desc& prepared, SlotDims map) {
  // The placeholder has the prepared rank with every runtime dim as 1 (a memory object cannot have runtime dims).
  dnnl::memory::dims dims = prepared.dims();
  for (auto& d : dims) {
    if (d == DNNL_RUNTIME_DIM_VAL) d = 1;
  }
  const dnnl::memory::desc placeholder(dims, prepared.data_type(), PlainTag(static_cast<int>(dims.size())));
  dnnl::memory m(placeholder, engine_, DNNL_MEMORY_NONE);
  const int index = AddMemory(m, output ? MemKind::kOutput : MemKind::kInput, slot);
  mems_[index].runtime_dims = true;
  mems_[index].map = map;
  mems_[index].ndims = static_cast<int>(dims.size());
  mems_[index].dtype = prepared.data_type();
  return m;
}

dnnl::memory DnnlKernel::BindInputDims(int slot, const dnnl::memory::desc& prepared, SlotDims map) {
  return BindDims(slot, false, prepared, map);
}

dnnl::memory DnnlKernel::BindOutputDims(int slot, const dnnl::memory::desc& prepared, SlotDims map) {
  return BindDims(slot, true, prepared, map);
}

dnnl::memory DnnlKernel::IntermediateMemory(const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  AddMemory(m, MemKind::kIntermediate, -1);
  return m;
}

dnnl::memory DnnlKernel::IntermediateAlias(const dnnl::memory& of, const dnnl::memory::desc& md) {
  const int target = IndexOf(of);
  if (mems_[target].kind != MemKind::kIntermediate || mems_[target].alias_of >= 0 ||
      md.get_size() > of.get_desc().get_size()) {
    throw std::invalid_argument("IntermediateAlias: not an intermediate of at least the alias's size");
  }
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  mems_[AddMemory(m, MemKind::kIntermediate, -1)].alias_of = target;
  return m;
}

dnnl::memory DnnlKernel::PersistentMemory(const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  AddMemory(m, MemKind::kPersistent, -1);
  return m;
}

dnnl::memory DnnlKernel::PreparedMemory(const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_);
  AddMemory(m, MemKind::kShared, -1);
  return m;
}

dnnl::memory DnnlKernel::SharedPreparedMemory(const dnnl::memory::desc& md, std::shared_ptr<void> bytes) {
  dnnl::memory m(md, engine_, bytes.get());
  AddMemory(m, MemKind::kShared, -1);
  shared_prepared_.push_back(std::move(bytes));
  return m;
}

dnnl::memory DnnlKernel::ConstMemory(const dnnl::memory::desc& md, const void* data) {
  // oneDNN takes a non-const handle; the memory is only ever read.
  return dnnl::memory(md, engine_, const_cast<void*>(data));
}

void DnnlKernel::AddStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
                         const std::vector<std::pair<int, dnnl::memory>>& args) {
  Step s;
  s.prim = prim;
  s.scratch_md = pd.scratchpad_desc();
  s.scratch_bytes = s.scratch_md.get_size();
  for (const auto& [arg, mem] : args) s.args.push_back({arg, IndexOf(mem)});
  steps_.push_back(std::move(s));
}

void DnnlKernel::AddVersionedStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
                                  const std::vector<std::pair<int, dnnl::memory>>& args,
                                  const std::atomic<uint64_t>* version) {
  AddStep(prim, pd, args);
  steps_.back().versioned = true;
  steps_.back().version = version;
}

void DnnlKernel::SetPreCopy(int in, int out, size_t bytes) {
  copy_in_ = in;
  copy_out_ = out;
  copy_bytes_ = bytes;
}

namespace {

// oneDNN 2.6 names its GEMM-based RNN implementation (jit sgemm, jit cell kernels) "ref"; it is no reference
// implementation, and is named "rnn_gemm:jit" here so that tools looking for "(ref" do not flag it.
const char* RnnImplName(const dnnl::primitive& prim, const char* info) {
  return prim.get_kind() == dnnl::primitive::kind::rnn && std::string(info) == "ref" ? "rnn_gemm:jit" : info;
}

}  // namespace

void DnnlKernel::Finalize() {
  constexpr size_t kAlign = 64;
  auto aligned = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  size_t scratchpad = 0;
  for (const Step& s : steps_) scratchpad = std::max(scratchpad, s.scratch_bytes);
  scratch_bytes_ = aligned(scratchpad);
  for (MemSpec& m : mems_) {
    if (m.kind != MemKind::kIntermediate || m.alias_of >= 0) continue;
    m.scratch_offset = scratch_bytes_;
    scratch_bytes_ += aligned(m.memory.get_desc().get_size());
  }
  for (MemSpec& m : mems_) {
    if (m.alias_of >= 0) m.scratch_offset = mems_[m.alias_of].scratch_offset;
  }
  // Name the implementation of the main primitive (the first that is not a layout reorder).
  const Step* main = steps_.empty() ? nullptr : &steps_.front();
  for (const Step& s : steps_) {
    if (s.prim.get_kind() != dnnl::primitive::kind::reorder) {
      main = &s;
      break;
    }
  }
  for (const Step& s : steps_) {
    if (s.prim.get_kind() == dnnl::primitive::kind::rnn) continue;  // see RnnImplName
    const char* step_info = nullptr;
    if (dnnl_primitive_desc_query(s.prim.get_primitive_desc(), dnnl_query_impl_info_str, 0, &step_info) ==
            dnnl_success &&
        step_info != nullptr && IsReferenceImpl(step_info)) {
      reference_ = true;
    }
  }
  const char* info = nullptr;
  if (main != nullptr &&
      dnnl_primitive_desc_query(main->prim.get_primitive_desc(), dnnl_query_impl_info_str, 0, &info) == dnnl_success &&
      info != nullptr) {
    impl_ += std::string("(") + RnnImplName(main->prim, info) + ")";
  }
  const dnnl_memory_desc_t* src =
      main ? dnnl_primitive_desc_query_md(main->prim.get_primitive_desc(), dnnl_query_src_md, 0) : nullptr;
  if (src != nullptr && src->data_type == dnnl_bf16) impl_ += " bf16";  // allow_bf16 (bf16_util.h)
}

StatusOr<std::unique_ptr<exec::KernelState>> DnnlKernel::CreateStateOnScratch(void* shared_scratch) const {
  auto st = std::make_unique<State>();
  try {
    st->stream = dnnl::stream(engine_);
    st->mems.reserve(mems_.size());
    for (const MemSpec& m : mems_) {
      switch (m.kind) {
        case MemKind::kShared:
          st->mems.push_back(m.memory);
          break;
        case MemKind::kPersistent:
          st->mems.emplace_back(m.memory.get_desc(), engine_);
          break;
        case MemKind::kIntermediate:  // placed on the scratch below
          st->mems.push_back(dnnl::memory(m.memory.get_desc(), engine_, DNNL_MEMORY_NONE));
          break;
        case MemKind::kInput:
        case MemKind::kOutput:
          st->mems.push_back(dnnl::memory(m.memory.get_desc(), engine_, DNNL_MEMORY_NONE));
          st->binds.push_back(
              {st->mems.back().get(), m.kind == MemKind::kOutput, m.slot, static_cast<int>(st->mems.size()) - 1});
          break;
      }
    }
    void* scratch = shared_scratch;
    if (scratch_bytes_ > 0 && scratch == nullptr) {
      const dnnl::memory::desc md({static_cast<dnnl::memory::dim>(scratch_bytes_)}, dnnl::memory::data_type::u8,
                                  dnnl::memory::format_tag::a);
      st->scratchpad = dnnl::memory(md, engine_);
      scratch = st->scratchpad.get_data_handle();
    }
    for (size_t i = 0; i < mems_.size(); ++i) {
      if (mems_[i].kind == MemKind::kIntermediate) {
        st->mems[i].set_data_handle(static_cast<unsigned char*>(scratch) + mems_[i].scratch_offset);
      }
    }
    st->seen_versions.assign(steps_.size(), 0);
    st->ran.assign(steps_.size(), false);
    for (const Step& s : steps_) {
      std::vector<dnnl_exec_arg_t>& args = st->args.emplace_back();
      for (const auto& [arg, index] : s.args) args.push_back({arg, st->mems[index].get()});
      if (s.scratch_bytes > 0) {
        st->mems.emplace_back(s.scratch_md, engine_, scratch);
        args.push_back({DNNL_ARG_SCRATCHPAD, st->mems.back().get()});
      }
    }
  } catch (const dnnl::error& e) {
    return ResourceExhausted(exec::NodeLabel(*node_) + ": oneDNN could not create a binding: " + e.what());
  }
  return std::unique_ptr<exec::KernelState>(std::move(st));
}

Status DnnlKernel::UpdateRuntimeDims(const exec::KernelIo& io, State& st) const {
  bool changed = false;
  for (State::Bind& b : st.binds) {
    const MemSpec& spec = mems_[b.mem_index];
    if (!spec.runtime_dims) continue;
    const std::vector<const int64_t*>& all = b.output ? io.output_dims : io.input_dims;
    const int64_t* slot_dims = static_cast<size_t>(b.slot) < all.size() ? all[b.slot] : nullptr;
    if (slot_dims == nullptr) {
      return Internal(exec::NodeLabel(*node_) + ": shape-agnostic kernel run without the dims of " +
                      (b.output ? "output " : "input ") + std::to_string(b.slot));
    }
    // The slot's rank: the prepared rank less the prepended ones, plus the folded dims beyond the first.
    const int slot_rank = spec.ndims - spec.map.prepend_ones + (spec.map.fold > 1 ? spec.map.fold - 1 : 0);
    int64_t dims[DNNL_MAX_NDIMS];
    int n = 0;
    for (int i = 0; i < spec.map.prepend_ones; ++i) dims[n++] = 1;
    int from = 0;
    if (spec.map.fold > 0) {
      int64_t folded = 1;
      for (; from < spec.map.fold; ++from) folded *= slot_dims[from];
      dims[n++] = folded;
    }
    for (; from < slot_rank; ++from) dims[n++] = slot_dims[from];
    bool same = true;
    for (int i = 0; i < n; ++i) {
      if (dims[i] <= 0) {
        return Internal(exec::NodeLabel(*node_) + ": shape-agnostic kernel run with an empty or unknown dim");
      }
      same = same && dims[i] == b.dims[i];
    }
    if (same) continue;
    dnnl_memory_desc_t md;
    dnnl_memory_t mem = nullptr;
    if (dnnl_memory_desc_init_by_tag(&md, n, dims, static_cast<dnnl_data_type_t>(spec.dtype),
                                     static_cast<dnnl_format_tag_t>(PlainTag(n))) != dnnl_success ||
        dnnl_memory_create(&mem, &md, engine_.get(), DNNL_MEMORY_NONE) != dnnl_success) {
      return ResourceExhausted(exec::NodeLabel(*node_) + ": oneDNN could not create the memory of a slot");
    }
    st.mems[b.mem_index].reset(mem);
    b.mem = mem;
    std::copy(dims, dims + n, b.dims);
    changed = true;
  }
  if (!changed) return Status::Ok();
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    for (size_t a = 0; a < step.args.size(); ++a) st.args[i][a].memory = st.mems[step.args[a].second].get();
  }
  return Status::Ok();
}

Status DnnlKernel::Execute(const exec::KernelIo& io, State& st, int threads) const {
  if (shape_agnostic()) GE_RETURN_IF_ERROR(UpdateRuntimeDims(io, st));
  for (const State::Bind& b : st.binds) {
    void* p = b.output ? io.outputs[b.slot] : io.inputs[b.slot];
    if (p == nullptr) {
      return Internal(exec::NodeLabel(*node_) + ": " + (b.output ? "output" : "input") + " slot " +
                      std::to_string(b.slot) + " has no address");
    }
    const dnnl_status_t st_set = dnnl_memory_set_data_handle(b.mem, p);
    if (st_set != dnnl_success) {
      return Internal(exec::NodeLabel(*node_) + ": oneDNN could not bind a slot: " + dnnl_status2str(st_set));
    }
  }
  if (copy_in_ >= 0) {
    const void* src = io.inputs[copy_in_];
    void* dst = io.outputs[copy_out_];
    if (src == nullptr || dst == nullptr) return Internal(exec::NodeLabel(*node_) + ": sum slot has no address");
    if (src != dst) std::memcpy(dst, src, copy_bytes_);
  }
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    if (step.versioned && step.version != nullptr) {
      const uint64_t now = step.version->load(std::memory_order_acquire);
      if (st.ran[i] && st.seen_versions[i] == now) continue;
      st.seen_versions[i] = now;
      st.ran[i] = true;
    }
    const std::vector<dnnl_exec_arg_t>& args = st.args[i];
    const dnnl_status_t status =
        dnnl_primitive_execute(steps_[i].prim.get(), st.stream.get(), static_cast<int>(args.size()), args.data());
    if (status != dnnl_success) {
      return Internal(exec::NodeLabel(*node_) + ": oneDNN execution failed: " + dnnl_status2str(status));
    }
  }
  const dnnl_status_t status = dnnl_stream_wait(st.stream.get());
  if (status != dnnl_success) {
    return Internal(exec::NodeLabel(*node_) + ": oneDNN stream wait failed: " + dnnl_status2str(status));
  }
  if (silu_slot_ >= 0) SiluInPlace(static_cast<float*>(io.outputs[silu_slot_]), silu_elements_, threads);
  return Status::Ok();
}

namespace {

// Sets the calling thread's OpenMP state for a run of a kernel prepared for |prepared| threads when the pool
// grants |active|, and returns the threads the run's own loops may use. oneDNN fixes a primitive's thread count at
// creation and asks for that team explicitly; with dynamic teams on and nthreads-var 1, libgomp gives every region
// a team of one instead, and oneDNN's parallel() hands the team's real size to the kernel, which then does all of
// the work on the caller's thread (one_thread_run_test.cc holds every primitive kind the engine makes to that).
int SetOmpThreadsForRun(int prepared, int active) {
  if (active < prepared) {
    if (omp_get_max_threads() != 1) omp_set_num_threads(1);
    if (!omp_get_dynamic()) omp_set_dynamic(1);
    return 1;
  }
  if (omp_get_dynamic()) omp_set_dynamic(0);
  if (omp_get_max_threads() != prepared) omp_set_num_threads(prepared);
  return prepared;
}

}  // namespace

Status DnnlKernel::Run(void* args, rt::TaskContext& ctx) {
  auto* b = static_cast<exec::KernelBinding*>(args);
  const auto& k = exec::BoundKernel<DnnlKernel>(*b);
  const int active = ctx.pool != nullptr ? ctx.pool->active_threads() : k.threads_;
  const int threads = SetOmpThreadsForRun(k.threads_, active);
  return k.Execute(b->io, *static_cast<State*>(b->state.get()), threads);
}

}  // namespace ge::dnnl_kernels
