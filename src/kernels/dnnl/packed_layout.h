// The layout string of prepacked weights (exec/packed_weights.h) for the dnnl engine: the oneDNN memory desc the
// weights were reordered into at compile time (float32, or bfloat16 under allow_bf16; a blocked layout, or Winograd's
// transformed weights), hex-encoded. Decoding validates everything a reorder or primitive would trust — element
// type, dims, a plain blocking whose every addressed element lies inside the stored bytes, a Winograd size within
// them — so a corrupt model cannot make oneDNN read outside the constant.
#pragma once
#include <dnnl.hpp>

#include <cstddef>
#include <string>

#include "base/shape.h"

namespace ge::dnnl_kernels {

std::string EncodePackedLayout(const dnnl::memory::desc& md);
// False when `text` is not a valid f32 or bf16 blocked layout, or f32 Winograd layout, of `dims` addressing at most
// `bytes` bytes.
bool DecodePackedLayout(const std::string& text, const Dims& dims, size_t bytes, dnnl::memory::desc* md);

}  // namespace ge::dnnl_kernels
