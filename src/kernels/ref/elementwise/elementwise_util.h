// Loops and conversions shared by the elementwise reference kernels. Dtype dispatch happens once per kernel call;
// the loops below take storage types and a functor, so the compiler inlines the per-element work.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "base/data_type.h"
#include "base/tensor.h"
#include "kernels/ref/kernel_context.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref::elementwise {

template <typename T>
using Compute = typename ComputeTypeOf<T>::type;

template <typename T>
constexpr bool kIsHalf = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

template <typename T>
constexpr bool kIsFloat = kIsHalf<T> || std::is_floating_point_v<T>;

template <typename T>
constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Compute value → storage value (float16 / bfloat16 round to nearest even).
template <typename T, typename C>
inline T FromCompute(C c) {
  if constexpr (kIsHalf<T>) {
    return T(static_cast<float>(c));
  } else {
    return static_cast<T>(c);
  }
}

// Floating-point value → integer type without undefined behaviour: NaN gives 0; values are truncated toward zero,
// saturated to int64 (uint64 for uint64), then wrapped to T like a C cast through int64 (so -1.0 → 255 for uint8).
template <typename T>
inline T FloatToInt(double v) {
  if (std::isnan(v)) return T(0);
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (v >= 18446744073709551615.0) return std::numeric_limits<uint64_t>::max();
    if (v >= 9223372036854775808.0) return static_cast<uint64_t>(v);
  }
  if (v >= 9223372036854775807.0) return static_cast<T>(std::numeric_limits<int64_t>::max());
  if (v <= -9223372036854775808.0) return static_cast<T>(std::numeric_limits<int64_t>::min());
  return static_cast<T>(static_cast<int64_t>(v));
}

// Wrapping integer arithmetic (signed overflow is undefined in C++; ONNX integer ops wrap).
template <typename T>
inline T WrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T>
inline T WrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T>
inline T WrapMul(T a, T b) {
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

// The input as a tensor, or an error naming it.
inline StatusOr<const Tensor*> TensorInput(const KernelContext& ctx, int i) {
  const Tensor* t = ctx.input(i);
  if (!t) return ctx.Error("input " + std::to_string(i) + " is missing or is not a tensor");
  return t;
}

// Calls f(out_offset, in_offsets, run_length, in_steps) over `out` in row-major runs. Within a run, input k advances
// by in_steps[k] elements (0: broadcast, 1: contiguous). Adjacent dims with the same broadcast pattern are merged,
// so same-shape inputs form one run and a [N,C,H,W] + [C,1,1] bias add runs over H*W at a time.
template <typename F>
void ForEachRun(const Dims& out, const std::vector<Dims>& ins, F&& f) {
  const size_t n = ins.size();
  const int rank = static_cast<int>(out.size());
  if (NumElements(out) == 0) return;
  Dims mdims;
  std::vector<Dims> mins(n);
  std::vector<char> prev, pat(n);
  for (int d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    for (size_t k = 0; k < n; ++k) {
      int idx = d - (rank - static_cast<int>(ins[k].size()));
      pat[k] = (idx < 0 || ins[k][idx] == 1) ? 1 : 0;
    }
    if (!mdims.empty() && pat == prev) {
      mdims.back() *= out[d];
      for (size_t k = 0; k < n; ++k) mins[k].back() *= pat[k] ? 1 : out[d];
    } else {
      mdims.push_back(out[d]);
      for (size_t k = 0; k < n; ++k) mins[k].push_back(pat[k] ? 1 : out[d]);
      prev = pat;
    }
  }
  const int mrank = static_cast<int>(mdims.size());
  if (mrank == 0) {
    std::vector<int64_t> zeros(n, 0);
    f(0, zeros.data(), 1, zeros.data());
    return;
  }
  // strides[k][d]: element stride of input k along merged dim d (0 where it broadcasts).
  std::vector<std::vector<int64_t>> strides(n, std::vector<int64_t>(mrank, 0));
  for (size_t k = 0; k < n; ++k) {
    int64_t s = 1;
    for (int d = mrank - 1; d >= 0; --d) {
      if (mins[k][d] != 1) strides[k][d] = s;
      s *= mins[k][d];
    }
  }
  const int64_t inner = mdims[mrank - 1];
  std::vector<int64_t> steps(n), off(n, 0), idx(mrank, 0);
  for (size_t k = 0; k < n; ++k) steps[k] = strides[k][mrank - 1];
  const int64_t outer = NumElements(out) / inner;
  for (int64_t i = 0; i < outer; ++i) {
    f(i * inner, off.data(), inner, steps.data());
    for (int d = mrank - 2; d >= 0; --d) {
      if (++idx[d] < mdims[d]) {
        for (size_t k = 0; k < n; ++k) off[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < n; ++k) off[k] -= strides[k][d] * (mdims[d] - 1);
      idx[d] = 0;
    }
  }
}

// out = f(a, b) elementwise with broadcasting of a (dims da) and b (dims db) to dout; f takes and returns storage
// values.
template <typename TA, typename TB, typename TO, typename F>
void BinaryLoop(const TA* a, const Dims& da, const TB* b, const Dims& db, TO* o, const Dims& dout, F f) {
  ForEachRun(dout, {da, db}, [&](int64_t oo, const int64_t* off, int64_t n, const int64_t* st) {
    const TA* pa = a + off[0];
    const TB* pb = b + off[1];
    TO* po = o + oo;
    if (st[0] && st[1]) {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    } else if (st[0]) {
      const TB vb = *pb;
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], vb);
    } else if (st[1]) {
      const TA va = *pa;
      for (int64_t i = 0; i < n; ++i) po[i] = f(va, pb[i]);
    } else {
      const TO v = f(*pa, *pb);
      for (int64_t i = 0; i < n; ++i) po[i] = v;
    }
  });
}

// Output dims of a broadcasting op over every present tensor input, or an error.
StatusOr<Dims> BroadcastAll(const KernelContext& ctx, int first, int last);

// Reports an unsupported dtype as the node's error.
inline Status DtypeError(const KernelContext& ctx, const Status& visit) {
  return visit.ok() ? visit : ctx.Unsupported(visit.message());
}

enum class UnaryTypes { kFloat, kNumeric };

// y = op(x) with y of x's dims and dtype; op maps a compute value (float for float16/bfloat16) to a compute value.
template <UnaryTypes kTypes, typename Op>
Status RunUnary(KernelContext& ctx, const Op& op) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  auto body = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    const T* in = x->data<T>();
    T* out = y->data<T>();
    const int64_t n = x->numel();
    for (int64_t i = 0; i < n; ++i) out[i] = FromCompute<T>(op(static_cast<C>(in[i])));
  };
  if constexpr (kTypes == UnaryTypes::kFloat) {
    return DtypeError(ctx, VisitFloatType(x->dtype(), body));
  } else {
    return DtypeError(ctx, VisitNumericType(x->dtype(), body));
  }
}

}  // namespace ge::ref::elementwise
