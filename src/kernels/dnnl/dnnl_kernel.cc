#include "kernels/dnnl/dnnl_kernel.h"

#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/silu_epilogue.h"

#include "kernels/dnnl/omp_threads.h"

#include <algorithm>
#include <cstring>

#include <dnnl_debug.h>

#include "kernels/exec/kernel_util.h"

namespace ge::dnnl_kernels {

dnnl::primitive_attr UserScratchpadAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

DnnlKernel::DnnlKernel(const ir::Node& node, std::string impl, int threads)
    : node_(&node),
      impl_(std::move(impl)),
      threads_(std::max(1, threads)),
      engine_(dnnl::engine::kind::cpu, 0),
      stream_(engine_) {
  fn_ = &DnnlKernel::Run;
  args_ = this;
  io_.inputs.assign(node.num_inputs(), nullptr);
  io_.outputs.assign(node.num_outputs(), nullptr);
}

dnnl::memory DnnlKernel::BindInput(int slot, const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  memories_.push_back(m);
  binds_.push_back({m.get(), false, slot});
  return m;
}

dnnl::memory DnnlKernel::BindOutput(int slot, const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_, DNNL_MEMORY_NONE);
  memories_.push_back(m);
  binds_.push_back({m.get(), true, slot});
  return m;
}

dnnl::memory DnnlKernel::OwnedMemory(const dnnl::memory::desc& md) {
  dnnl::memory m(md, engine_);
  memories_.push_back(m);
  return m;
}

dnnl::memory DnnlKernel::ConstMemory(const dnnl::memory::desc& md, const void* data) {
  // oneDNN takes a non-const handle; the memory is only ever a reorder source.
  return dnnl::memory(md, engine_, const_cast<void*>(data));
}

void DnnlKernel::AddStep(const dnnl::primitive& prim, const dnnl::primitive_desc_base& pd,
                         const std::vector<std::pair<int, dnnl::memory>>& args) {
  Step s;
  s.prim = prim;
  s.scratch_md = pd.scratchpad_desc();
  s.scratch_bytes = s.scratch_md.get_size();
  for (const auto& [arg, mem] : args) {
    memories_.push_back(mem);
    s.args.push_back({arg, mem.get()});
  }
  steps_.push_back(std::move(s));
}

void DnnlKernel::SetPreCopy(int in, int out, size_t bytes) {
  copy_in_ = in;
  copy_out_ = out;
  copy_bytes_ = bytes;
}

void DnnlKernel::Finalize() {
  size_t scratch = 0;
  for (const Step& s : steps_) scratch = std::max(scratch, s.scratch_bytes);
  if (scratch > 0) {
    const dnnl::memory::desc md({static_cast<dnnl::memory::dim>(scratch)}, dnnl::memory::data_type::u8,
                                dnnl::memory::format_tag::a);
    scratchpad_ = dnnl::memory(md, engine_);
    void* base = scratchpad_.get_data_handle();
    for (Step& s : steps_) {
      if (s.scratch_bytes == 0) continue;
      dnnl::memory m(s.scratch_md, engine_, base);
      memories_.push_back(m);
      s.args.push_back({DNNL_ARG_SCRATCHPAD, m.get()});
    }
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
    impl_ += std::string("(") + info + ")";
  }
  const dnnl_memory_desc_t* src =
      main ? dnnl_primitive_desc_query_md(main->prim.get_primitive_desc(), dnnl_query_src_md, 0) : nullptr;
  if (src != nullptr && src->data_type == dnnl_bf16) impl_ += " bf16";  // allow_bf16 (bf16_util.h)
}

Status DnnlKernel::Execute() {
  for (const Bind& b : binds_) {
    void* p = b.output ? io_.outputs[b.slot] : io_.inputs[b.slot];
    if (p == nullptr) {
      return Internal(exec::NodeLabel(*node_) + ": " + (b.output ? "output" : "input") + " slot " +
                      std::to_string(b.slot) + " has no address");
    }
    const dnnl_status_t st = dnnl_memory_set_data_handle(b.mem, p);
    if (st != dnnl_success) {
      return Internal(exec::NodeLabel(*node_) + ": oneDNN could not bind a slot: " + dnnl_status2str(st));
    }
  }
  if (copy_in_ >= 0) {
    const void* src = io_.inputs[copy_in_];
    void* dst = io_.outputs[copy_out_];
    if (src == nullptr || dst == nullptr) return Internal(exec::NodeLabel(*node_) + ": sum slot has no address");
    if (src != dst) std::memcpy(dst, src, copy_bytes_);
  }
  for (const Step& s : steps_) {
    const dnnl_status_t st = dnnl_primitive_execute(s.prim.get(), stream_.get(), static_cast<int>(s.args.size()),
                                                    s.args.data());
    if (st != dnnl_success) {
      return Internal(exec::NodeLabel(*node_) + ": oneDNN execution failed: " + dnnl_status2str(st));
    }
  }
  const dnnl_status_t st = dnnl_stream_wait(stream_.get());
  if (st != dnnl_success) return Internal(exec::NodeLabel(*node_) + ": oneDNN stream wait failed: " + dnnl_status2str(st));
  if (silu_slot_ >= 0) SiluInPlace(static_cast<float*>(io_.outputs[silu_slot_]), silu_elements_, threads_);
  return Status::Ok();
}

Status DnnlKernel::Run(void* args, rt::TaskContext& ctx) {
  auto* k = static_cast<DnnlKernel*>(args);
  if (omp_get_max_threads() != k->threads_) omp_set_num_threads(k->threads_);
  return k->Execute();
}

}  // namespace ge::dnnl_kernels
