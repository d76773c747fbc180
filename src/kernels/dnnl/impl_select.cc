#include "kernels/dnnl/impl_select.h"

#include "kernels/dnnl/dnnl_engine.h"

namespace ge::dnnl_kernels {

IsaLevel DnnlMaxIsaLevel() {
  const IsaLevel host = IsaLevelOf(HostIsa().features);
  IsaLevel dnnl = host;
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::all: break;
    case dnnl::cpu_isa::sse41:
    case dnnl::cpu_isa::avx: dnnl = IsaLevel::kX86_64_V2; break;
    case dnnl::cpu_isa::avx2:
    case dnnl::cpu_isa::avx2_vnni: dnnl = IsaLevel::kX86_64_V3; break;
    default: dnnl = IsaLevel::kX86_64_V4; break;  // avx512_core and above
  }
  return static_cast<int>(dnnl) < static_cast<int>(host) ? dnnl : host;
}

IsaLevel ImplIsaLevel(const std::string& impl) {
  IsaLevel level = IsaLevel::kNone;
  size_t start = 0;
  while (start <= impl.size()) {
    size_t end = impl.find(':', start);
    if (end == std::string::npos) end = impl.size();
    const std::string token = impl.substr(start, end - start);
    IsaLevel t = IsaLevel::kNone;
    // avx2_vnni (AVX-VNNI) is not part of x86-64-v3: count it above v3 like AVX-512 and AMX.
    if (token.rfind("avx512", 0) == 0 || token.rfind("amx", 0) == 0 || token.rfind("avx2_vnni", 0) == 0) {
      t = IsaLevel::kX86_64_V4;
    } else if (token.rfind("avx", 0) == 0) {
      t = IsaLevel::kX86_64_V3;
    } else if (token.rfind("sse4", 0) == 0) {
      t = IsaLevel::kX86_64_V2;
    }
    if (static_cast<int>(t) > static_cast<int>(level)) level = t;
    start = end + 1;
  }
  return level;
}

bool IsReferenceImpl(const std::string& impl) {
  return impl.rfind("ref", 0) == 0 || impl.find(":ref") != std::string::npos ||
         impl.find("simple_nchw") != std::string::npos;
}

}  // namespace ge::dnnl_kernels
