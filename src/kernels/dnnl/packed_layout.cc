#include "kernels/dnnl/packed_layout.h"

#include <cstring>

namespace ge::dnnl_kernels {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Every element the blocking addresses lies in [0, bytes): offset0 + sum over dims of (outer blocks - 1) * stride
// + (inner block elements - 1) is the largest element offset.
bool BlockingInside(const dnnl_memory_desc_t& d, size_t bytes, size_t elem_bytes) {
  const dnnl_blocking_desc_t& b = d.format_desc.blocking;
  if (b.inner_nblks < 0 || b.inner_nblks > DNNL_MAX_NDIMS || d.offset0 < 0) return false;
  dnnl_dim_t block[DNNL_MAX_NDIMS];
  for (int i = 0; i < d.ndims; ++i) block[i] = 1;
  dnnl_dim_t inner = 1;
  for (int j = 0; j < b.inner_nblks; ++j) {
    const dnnl_dim_t blk = b.inner_blks[j], idx = b.inner_idxs[j];
    if (idx < 0 || idx >= d.ndims || blk < 1 || blk > 1024) return false;
    block[idx] *= blk;
    inner *= blk;
  }
  const dnnl_dim_t limit = static_cast<dnnl_dim_t>(bytes / elem_bytes);
  dnnl_dim_t last = d.offset0 + inner - 1;
  for (int i = 0; i < d.ndims; ++i) {
    const dnnl_dim_t pd = d.padded_dims[i];
    if (pd < d.dims[i] || pd % block[i] != 0 || b.strides[i] < 0 || d.padded_offsets[i] != 0) return false;
    const dnnl_dim_t outer = pd / block[i];
    if (outer > 1 && b.strides[i] > (limit - last) / (outer - 1)) return false;
    last += (outer - 1) * b.strides[i];
    if (last >= limit) return false;
  }
  return last < limit;
}

// Winograd's transformed weights: oneDNN's own layout, opaque to us. A primitive reads wino_desc.size bytes; the
// desc is used only when it equals the one the primitive picks here (WeightsMemory), so beyond the size and the
// format tag nothing in it is trusted.
bool WinoInside(const dnnl_memory_desc_t& d, size_t bytes) {
  const dnnl_wino_desc_t& w = d.format_desc.wino_desc;
  if (d.data_type != dnnl_f32 || d.offset0 != 0) return false;
  if (w.wino_format < dnnl_wino_wei_aaOIoi || w.wino_format > dnnl_wino_wei_OBaaIBOIio) return false;
  return w.size > 0 && w.size <= bytes;
}

}  // namespace

std::string EncodePackedLayout(const dnnl::memory::desc& md) {
  static const char kHex[] = "0123456789abcdef";
  const auto* p = reinterpret_cast<const unsigned char*>(&md.data);
  std::string out;
  out.reserve(2 * sizeof(md.data));
  for (size_t i = 0; i < sizeof(md.data); ++i) {
    out.push_back(kHex[p[i] >> 4]);
    out.push_back(kHex[p[i] & 15]);
  }
  return out;
}

bool DecodePackedLayout(const std::string& text, const Dims& dims, size_t bytes, dnnl::memory::desc* md) {
  dnnl_memory_desc_t d;
  if (text.size() != 2 * sizeof(d)) return false;
  auto* p = reinterpret_cast<unsigned char*>(&d);
  for (size_t i = 0; i < sizeof(d); ++i) {
    const int hi = HexDigit(text[2 * i]), lo = HexDigit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    p[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  if (d.ndims != static_cast<int>(dims.size()) || d.ndims < 1 || d.ndims > DNNL_MAX_NDIMS) return false;
  for (int i = 0; i < d.ndims; ++i) {
    if (d.dims[i] != dims[i]) return false;
  }
  if ((d.data_type != dnnl_f32 && d.data_type != dnnl_bf16) || d.extra.flags != 0) return false;
  if (d.format_kind == dnnl_format_kind_wino) {
    if (!WinoInside(d, bytes)) return false;
    *md = dnnl::memory::desc(d);
    return true;
  }
  if (d.format_kind != dnnl_blocked) return false;
  if (!BlockingInside(d, bytes, d.data_type == dnnl_f32 ? 4 : 2)) return false;
  *md = dnnl::memory::desc(d);
  return md->get_size() <= bytes;
}

}  // namespace ge::dnnl_kernels
