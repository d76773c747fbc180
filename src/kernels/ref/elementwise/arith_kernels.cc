// Arithmetic kernels with numpy broadcasting: Add Sub Mul Div Pow Mod BitShift. Integer arithmetic wraps; integer
// Div truncates toward zero; integer division or modulo by zero is an error.
#include <cmath>
#include <string>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

struct BinaryInputs {
  const Tensor* a = nullptr;
  const Tensor* b = nullptr;
  Tensor* y = nullptr;
  Dims dims;
};

// Fetches two inputs, checks their dtypes (same_type) and allocates the broadcast output with out_dtype
// (kUndefined: input 0's dtype).
StatusOr<BinaryInputs> PrepareBinary(KernelContext& ctx, bool same_type, DataType out_dtype = DataType::kUndefined) {
  BinaryInputs io;
  GE_ASSIGN_OR_RETURN(io.a, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(io.b, TensorInput(ctx, 1));
  if (same_type && io.a->dtype() != io.b->dtype()) {
    return ctx.Error(std::string("input types differ: ") + DataTypeName(io.a->dtype()) + " and " +
                     DataTypeName(io.b->dtype()));
  }
  GE_ASSIGN_OR_RETURN(io.dims, BroadcastAll(ctx, 0, 1));
  DataType dt = out_dtype == DataType::kUndefined ? io.a->dtype() : out_dtype;
  GE_ASSIGN_OR_RETURN(io.y, ctx.AllocateOutput(0, io.dims, dt));
  return io;
}

// y = op(a, b) on compute values; a and b share one numeric dtype.
template <typename Op>
Status RunArith(KernelContext& ctx, const Op& op) {
  GE_ASSIGN_OR_RETURN(BinaryInputs io, PrepareBinary(ctx, true));
  return DtypeError(ctx, VisitNumericType(io.a->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      using C = Compute<T>;
                      BinaryLoop(io.a->data<T>(), io.a->dims(), io.b->data<T>(), io.b->dims(), io.y->data<T>(), io.dims,
                                 [&op](T x, T z) { return FromCompute<T>(op(static_cast<C>(x), static_cast<C>(z))); });
                    }));
}

Status CheckNoZeroDivisor(const KernelContext& ctx, const Tensor& b) {
  bool zero = false;
  Status s = VisitIntegerType(b.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = b.data<T>();
    for (int64_t i = 0, n = b.numel(); i < n && !zero; ++i) zero = p[i] == 0;
  });
  s.IgnoreError();  // floating-point divisors may be zero
  return zero ? ctx.Error("integer division by zero") : Status::Ok();
}

Status RefAdd(KernelContext& ctx) {
  return RunArith(ctx, [](auto x, auto y) -> decltype(x) {
    if constexpr (kIsInt<decltype(x)>) {
      return WrapAdd(x, y);
    } else {
      return x + y;
    }
  });
}

Status RefSub(KernelContext& ctx) {
  return RunArith(ctx, [](auto x, auto y) -> decltype(x) {
    if constexpr (kIsInt<decltype(x)>) {
      return WrapSub(x, y);
    } else {
      return x - y;
    }
  });
}

Status RefMul(KernelContext& ctx) {
  return RunArith(ctx, [](auto x, auto y) -> decltype(x) {
    if constexpr (kIsInt<decltype(x)>) {
      return WrapMul(x, y);
    } else {
      return x * y;
    }
  });
}

Status RefDiv(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* b, TensorInput(ctx, 1));
  GE_RETURN_IF_ERROR(CheckNoZeroDivisor(ctx, *b));
  return RunArith(ctx, [](auto x, auto y) -> decltype(x) {
    using C = decltype(x);
    if constexpr (kIsInt<C> && std::is_signed_v<C>) {
      return y == -1 ? WrapSub<C>(0, x) : static_cast<C>(x / y);  // INT_MIN / -1 wraps
    } else {
      return static_cast<C>(x / y);
    }
  });
}

// fmod = 0: the result takes the divisor's sign (Python / numpy); fmod = 1: the dividend's sign (C fmod).
Status RefMod(KernelContext& ctx) {
  const bool fmod = ctx.attr().GetInt("fmod", 0) != 0;
  GE_ASSIGN_OR_RETURN(const Tensor* b, TensorInput(ctx, 1));
  GE_RETURN_IF_ERROR(CheckNoZeroDivisor(ctx, *b));
  return RunArith(ctx, [fmod](auto x, auto y) -> decltype(x) {
    using C = decltype(x);
    C r;
    if constexpr (std::is_floating_point_v<C>) {
      r = std::fmod(x, y);
    } else if constexpr (std::is_signed_v<C>) {
      r = y == -1 ? C(0) : static_cast<C>(x % y);
    } else {
      r = static_cast<C>(x % y);
    }
    if constexpr (std::is_signed_v<C>) {
      if (!fmod && r != 0 && ((r < 0) != (y < 0))) r = static_cast<C>(r + y);
    }
    return r;
  });
}

// x ** e for integers, wrapping on overflow; a negative e gives the truncated 1 / x**|e|.
template <typename T, typename E>
T IntPow(T x, E e) {
  if constexpr (std::is_signed_v<E>) {
    if (e < 0) {
      if (x == 1) return 1;
      if (x == -1) return (e % 2) ? T(-1) : T(1);
      return 0;
    }
  }
  T result = 1;
  while (e > 0) {
    if (e & 1) result = WrapMul(result, x);
    x = WrapMul(x, x);
    e = static_cast<E>(e >> 1);
  }
  return result;
}

template <typename TX, typename TE>
TX PowOf(TX x, TE e) {
  if constexpr (kIsFloat<TX>) {
    const double dx = static_cast<double>(x), de = static_cast<double>(e);
    return FromCompute<TX>(de == 2.0 ? dx * dx : std::pow(dx, de));
  } else if constexpr (kIsInt<TE>) {
    return IntPow(x, e);
  } else {
    return FloatToInt<TX>(std::pow(static_cast<double>(x), static_cast<double>(e)));
  }
}

// Pow: base and exponent types may differ (opset 12+); the output has the base's type. Floating-point bases
// compute in double.
Status RefPow(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(BinaryInputs io, PrepareBinary(ctx, false));
  Status inner = Status::Ok();
  Status outer = VisitNumericType(io.a->dtype(), [&](auto tag_x) {
    using TX = typename decltype(tag_x)::type;
    inner = VisitNumericType(io.b->dtype(), [&](auto tag_e) {
      using TE = typename decltype(tag_e)::type;
      BinaryLoop(io.a->data<TX>(), io.a->dims(), io.b->data<TE>(), io.b->dims(), io.y->data<TX>(), io.dims,
                 [](TX x, TE e) { return PowOf(x, e); });
    });
  });
  GE_RETURN_IF_ERROR(DtypeError(ctx, outer));
  return DtypeError(ctx, inner);
}

Status RefBitShift(KernelContext& ctx) {
  const std::string dir = ctx.attr().GetString("direction", "");
  if (dir != "LEFT" && dir != "RIGHT") return ctx.Error("direction must be \"LEFT\" or \"RIGHT\"");
  const bool left = dir == "LEFT";
  GE_ASSIGN_OR_RETURN(BinaryInputs io, PrepareBinary(ctx, true));
  if (IsSignedInteger(io.a->dtype())) return ctx.Error("BitShift needs unsigned integer inputs");
  return DtypeError(ctx, VisitIntegerType(io.a->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      constexpr T kBits = static_cast<T>(sizeof(T) * 8);
                      BinaryLoop(io.a->data<T>(), io.a->dims(), io.b->data<T>(), io.b->dims(), io.y->data<T>(), io.dims,
                                 [left](T x, T s) -> T {
                                   if (s >= kBits) return 0;
                                   return left ? static_cast<T>(x << s) : static_cast<T>(x >> s);
                                 });
                    }));
}

}  // namespace

void RegisterArithKernels(KernelRegistry* r) {
  r->Add(OpId::kAdd, RefAdd);
  r->Add(OpId::kSub, RefSub);
  r->Add(OpId::kMul, RefMul);
  r->Add(OpId::kDiv, RefDiv);
  r->Add(OpId::kMod, RefMod);
  r->Add(OpId::kPow, RefPow);
  r->Add(OpId::kBitShift, RefBitShift);
}

}  // namespace ge::ref::elementwise
