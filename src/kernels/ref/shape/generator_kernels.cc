// Constant, ConstantOfShape, Range, EyeLike, Trilu.
#include "kernels/ref/shape/shape_kernels_internal.h"
#include "ops/shape/constant_attr.h"

namespace ge::ref::shape_family {
namespace {

Status RefConstant(KernelContext& ctx) {
  auto t = ops::shape_family::ConstantFromAttrs(ctx.attr());
  if (!t.ok()) return ctx.Error(t.status().message());
  ctx.SetOutput(0, std::move(t).value());
  return Status::Ok();
}

Status RefConstantOfShape(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0));
  const Tensor* value = ctx.attr().GetTensor("value");
  if (!value) return Status::Ok();  // float zeros
  if (value->numel() != 1 || value->dtype() != y->dtype()) return ctx.Error("'value' must hold one element");
  return VisitCopyType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value->data<T>()[0];
    T* d = y->data<T>();
    for (int64_t i = 0; i < y->numel(); ++i) d[i] = v;
  });
}

Status RefRange(KernelContext& ctx) {
  const Tensor *s = ctx.input(0), *l = ctx.input(1), *d = ctx.input(2);
  if (!s || !l || !d || s->numel() != 1 || d->numel() != 1) return ctx.Error("start, limit and delta must be scalars");
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0));
  const int64_t n = y->numel();
  return VisitNumericType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    T* out = y->data<T>();
    if constexpr (std::is_integral_v<T>) {
      const int64_t start = s->GetAsInt64(0), delta = d->GetAsInt64(0);
      // Unsigned arithmetic: wrap-around instead of undefined behaviour for extreme values.
      for (int64_t i = 0; i < n; ++i) {
        out[i] = static_cast<T>(static_cast<uint64_t>(start) + static_cast<uint64_t>(i) * static_cast<uint64_t>(delta));
      }
    } else {
      const C start = static_cast<C>(s->data<T>()[0]), delta = static_cast<C>(d->data<T>()[0]);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(start + static_cast<C>(i) * delta);
    }
  });
}

Status RefEyeLike(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0));
  if (y->rank() != 2) return ctx.Error("input must be 2-D");
  const int64_t rows = y->dim(0), cols = y->dim(1), k = ctx.attr().GetInt("k", 0);
  auto fill = [&](auto one) {
    using T = decltype(one);
    T* out = y->data<T>();
    for (int64_t i = 0; i < rows; ++i) {
      if (k > cols || k < -rows) break;
      const int64_t j = i + k;
      if (j >= 0 && j < cols) out[i * cols + j] = one;
    }
  };
  if (y->dtype() == DataType::kBool) {
    fill(true);
    return Status::Ok();
  }
  return VisitNumericType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill(static_cast<T>(static_cast<typename ComputeTypeOf<T>::type>(1)));
  });
}

// Keeps elements with j - i >= k (upper) or j - i <= k (lower) of every trailing matrix; zeroes the rest.
Status RefTrilu(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x || x->rank() < 2) return ctx.Error("input must be a tensor of rank >= 2");
  int64_t k = 0;
  if (const Tensor* kt = ctx.input(1)) {
    if (kt->numel() != 1) return ctx.Error("k must be a scalar");
    k = kt->GetAsInt64(0);
  }
  const bool upper = ctx.attr().GetInt("upper", 1) != 0;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  const int64_t rows = x->dim(x->rank() - 2), cols = x->dim(x->rank() - 1);
  const int64_t mat = rows * cols;
  const int64_t batches = mat == 0 ? 0 : x->numel() / mat;
  return VisitCopyType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x->data<T>();
    T* dst = y->data<T>();
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < rows; ++i) {
        const T* s = src + b * mat + i * cols;
        T* d = dst + b * mat + i * cols;
        for (int64_t j = 0; j < cols; ++j) {
          const bool keep = upper ? (j - i >= k) : (j - i <= k);
          d[j] = keep ? s[j] : T{};
        }
      }
    }
  });
}

}  // namespace

void RegisterGeneratorKernels(KernelRegistry* r) {
  r->Add(OpId::kConstant, RefConstant);
  r->Add(OpId::kConstantOfShape, RefConstantOfShape);
  r->Add(OpId::kRange, RefRange);
  r->Add(OpId::kEyeLike, RefEyeLike);
  r->Add(OpId::kTrilu, RefTrilu);
}

}  // namespace ge::ref::shape_family
