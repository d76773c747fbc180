// Logical and comparison kernels (bool output) and Where, all with numpy broadcasting.
#include <string>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

StatusOr<Dims> PrepareSameType(const KernelContext& ctx, const Tensor** a, const Tensor** b) {
  GE_ASSIGN_OR_RETURN(*a, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(*b, TensorInput(ctx, 1));
  if ((*a)->dtype() != (*b)->dtype()) {
    return ctx.Error(std::string("input types differ: ") + DataTypeName((*a)->dtype()) + " and " +
                     DataTypeName((*b)->dtype()));
  }
  return BroadcastAll(ctx, 0, 1);
}

template <typename Op>
Status RunLogical(KernelContext& ctx, const Op& op) {
  const Tensor *a, *b;
  GE_ASSIGN_OR_RETURN(Dims dims, PrepareSameType(ctx, &a, &b));
  if (a->dtype() != DataType::kBool) return ctx.Error("inputs must be bool");
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, dims, DataType::kBool));
  BinaryLoop(a->data<bool>(), a->dims(), b->data<bool>(), b->dims(), y->data<bool>(), dims, op);
  return Status::Ok();
}

Status RefAnd(KernelContext& ctx) {
  return RunLogical(ctx, [](bool x, bool y) { return x && y; });
}
Status RefOr(KernelContext& ctx) {
  return RunLogical(ctx, [](bool x, bool y) { return x || y; });
}
Status RefXor(KernelContext& ctx) {
  return RunLogical(ctx, [](bool x, bool y) { return x != y; });
}

// y = op(a, b) as bool, comparing compute values of numeric inputs.
template <typename Op>
Status RunCompare(KernelContext& ctx, const Op& op) {
  const Tensor *a, *b;
  GE_ASSIGN_OR_RETURN(Dims dims, PrepareSameType(ctx, &a, &b));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, dims, DataType::kBool));
  return DtypeError(ctx, VisitNumericType(a->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      using C = Compute<T>;
                      BinaryLoop(a->data<T>(), a->dims(), b->data<T>(), b->dims(), y->data<bool>(), dims,
                                 [&op](T x, T z) -> bool { return op(static_cast<C>(x), static_cast<C>(z)); });
                    }));
}

// Equal accepts every type (bool from opset 11, string from opset 19).
Status RefEqual(KernelContext& ctx) {
  const Tensor *a, *b;
  GE_ASSIGN_OR_RETURN(Dims dims, PrepareSameType(ctx, &a, &b));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, dims, DataType::kBool));
  return DtypeError(ctx, VisitDataType(a->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      if constexpr (kIsHalf<T>) {
                        BinaryLoop(a->data<T>(), a->dims(), b->data<T>(), b->dims(), y->data<bool>(), dims,
                                   [](T x, T z) -> bool { return static_cast<float>(x) == static_cast<float>(z); });
                      } else {
                        BinaryLoop(a->data<T>(), a->dims(), b->data<T>(), b->dims(), y->data<bool>(), dims,
                                   [](const T& x, const T& z) -> bool { return x == z; });
                      }
                    }));
}

Status RefGreater(KernelContext& ctx) {
  return RunCompare(ctx, [](auto x, auto y) { return x > y; });
}
Status RefLess(KernelContext& ctx) {
  return RunCompare(ctx, [](auto x, auto y) { return x < y; });
}
Status RefGreaterOrEqual(KernelContext& ctx) {
  return RunCompare(ctx, [](auto x, auto y) { return x >= y; });
}
Status RefLessOrEqual(KernelContext& ctx) {
  return RunCompare(ctx, [](auto x, auto y) { return x <= y; });
}

Status RefWhere(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* cond, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 1));
  GE_ASSIGN_OR_RETURN(const Tensor* z, TensorInput(ctx, 2));
  if (cond->dtype() != DataType::kBool) return ctx.Error("condition must be bool");
  if (x->dtype() != z->dtype()) return ctx.Error("X and Y must have the same type");
  GE_ASSIGN_OR_RETURN(Dims dims, BroadcastAll(ctx, 0, 2));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, dims, x->dtype()));
  return DtypeError(ctx, VisitDataType(x->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      const bool* pc = cond->data<bool>();
                      const T* px = x->data<T>();
                      const T* pz = z->data<T>();
                      T* po = y->data<T>();
                      ForEachRun(dims, {cond->dims(), x->dims(), z->dims()},
                                 [&](int64_t o, const int64_t* off, int64_t n, const int64_t* st) {
                                   const bool* c = pc + off[0];
                                   const T* a = px + off[1];
                                   const T* b = pz + off[2];
                                   for (int64_t i = 0; i < n; ++i)
                                     po[o + i] = c[i * st[0]] ? a[i * st[1]] : b[i * st[2]];
                                 });
                    }));
}

}  // namespace

void RegisterLogicKernels(KernelRegistry* r) {
  r->Add(OpId::kAnd, RefAnd);
  r->Add(OpId::kOr, RefOr);
  r->Add(OpId::kXor, RefXor);
  r->Add(OpId::kEqual, RefEqual);
  r->Add(OpId::kGreater, RefGreater);
  r->Add(OpId::kLess, RefLess);
  r->Add(OpId::kGreaterOrEqual, RefGreaterOrEqual);
  r->Add(OpId::kLessOrEqual, RefLessOrEqual);
  r->Add(OpId::kWhere, RefWhere);
}

}  // namespace ge::ref::elementwise
