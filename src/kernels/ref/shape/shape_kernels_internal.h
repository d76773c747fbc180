// Per-file registration functions of the shape kernel family and the element-moving helpers they share.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/ref/kernel_registry.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref::shape_family {

void RegisterReshapeKernels(KernelRegistry* r);    // Reshape, Shape, Size, Flatten, Squeeze, Unsqueeze, Identity
void RegisterLayoutKernels(KernelRegistry* r);     // Transpose, Concat, Split, Expand, Tile, DepthToSpace, SpaceToDepth
void RegisterSliceKernels(KernelRegistry* r);      // Slice, Pad
void RegisterGeneratorKernels(KernelRegistry* r);  // Constant, ConstantOfShape, Range, EyeLike, Trilu
void RegisterResizeKernels(KernelRegistry* r);     // Resize, Upsample

// 16-byte element (complex128) moved as raw bits.
struct Bytes16 {
  uint64_t lo = 0, hi = 0;
};

// Calls fn(TypeTag<S>{}) with S a type that moves elements of dt exactly: a same-sized unsigned integer for plain
// data, std::string for strings. For ops that only move elements (never compute on them).
template <typename Fn>
Status VisitCopyType(DataType dt, Fn&& fn) {
  if (dt == DataType::kString) {
    fn(TypeTag<std::string>{});
    return Status::Ok();
  }
  switch (dt == DataType::kUndefined ? 0 : DataTypeSize(dt)) {
    case 1: fn(TypeTag<uint8_t>{}); return Status::Ok();
    case 2: fn(TypeTag<uint16_t>{}); return Status::Ok();
    case 4: fn(TypeTag<uint32_t>{}); return Status::Ok();
    case 8: fn(TypeTag<uint64_t>{}); return Status::Ok();
    case 16: fn(TypeTag<Bytes16>{}); return Status::Ok();
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(dt) + " cannot be copied");
}

// dst (row-major over `dims`) [i] = src[src_offset + sum_k idx_k * strides[k]]. Strides may be 0 (broadcast) or
// negative (reversed slices).
template <typename T>
void StridedCopy(const T* src, int64_t src_offset, const std::vector<int64_t>& strides, const Dims& dims, T* dst) {
  const int r = static_cast<int>(dims.size());
  if (NumElements(dims) == 0) return;
  if (r == 0) {
    dst[0] = src[src_offset];
    return;
  }
  const int64_t inner = dims[r - 1], is = strides[r - 1];
  std::vector<int64_t> idx(r, 0);
  int64_t off = src_offset;
  while (true) {
    const T* s = src + off;
    if (is == 1) {
      for (int64_t j = 0; j < inner; ++j) dst[j] = s[j];
    } else {
      for (int64_t j = 0; j < inner; ++j) dst[j] = s[j * is];
    }
    dst += inner;
    int d = r - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < dims[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (dims[d] - 1);
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

// dst (row-major over out_dims)[i] = src[sum_k maps[k][idx_k] * src_strides[k]], or `fill` when any map entry is
// negative. maps[k] has out_dims[k] entries.
template <typename T>
void GatherByAxisMaps(const T* src, const std::vector<int64_t>& src_strides, const Dims& out_dims,
                      const std::vector<std::vector<int64_t>>& maps, const T& fill, T* dst) {
  const int r = static_cast<int>(out_dims.size());
  if (NumElements(out_dims) == 0) return;
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t inner = out_dims[r - 1], is = src_strides[r - 1];
  const std::vector<int64_t>& last = maps[r - 1];
  std::vector<int64_t> idx(r, 0);
  while (true) {
    int64_t off = 0;
    bool valid = true;
    for (int k = 0; k < r - 1; ++k) {
      int64_t m = maps[k][idx[k]];
      if (m < 0) {
        valid = false;
        break;
      }
      off += m * src_strides[k];
    }
    if (!valid) {
      for (int64_t j = 0; j < inner; ++j) dst[j] = fill;
    } else {
      for (int64_t j = 0; j < inner; ++j) dst[j] = last[j] < 0 ? fill : src[off + last[j] * is];
    }
    dst += inner;
    int d = r - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < out_dims[d]) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

// Output i as a view of input 0 with the inferred dims (Reshape, Flatten, Squeeze, Unsqueeze share storage).
inline Status SetViewOfInput0(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input 0 must be a tensor");
  const TensorDesc& d = ctx.inferred[0];
  if (!d.shape.IsFullyKnown()) return ctx.Error("output shape is not known: " + d.shape.ToString());
  auto y = x->Reshaped(d.shape.dims());
  if (!y.ok()) return ctx.Error(y.status().message());
  ctx.SetOutput(0, std::move(y).value());
  return Status::Ok();
}

// An int list that is an attribute before `input_since_opset` and input `input` from then on; empty when absent.
inline std::vector<int64_t> IntsArg(const KernelContext& ctx, int input, const char* attr, int64_t input_since_opset,
                                    bool* present) {
  if (ctx.opset < input_since_opset) {
    *present = ctx.attr().Has(attr);
    return ctx.attr().GetInts(attr);
  }
  const Tensor* t = ctx.input(input);
  *present = t != nullptr;
  return t ? t->ToInt64Vector() : std::vector<int64_t>();
}

}  // namespace ge::ref::shape_family
