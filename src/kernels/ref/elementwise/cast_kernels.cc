// Cast and CastLike: every pair of numeric types, bool and string. Strings use the ONNX text forms: plain or
// scientific decimals, and "NaN", "INF", "+INF", "-INF" (case-insensitive) for the special values.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

template <typename Fn>
Status VisitCastType(DataType dt, Fn&& fn) {
  if (dt == DataType::kString) {
    fn(TypeTag<std::string>{});
    return Status::Ok();
  }
  if (dt == DataType::kBool) {
    fn(TypeTag<bool>{});
    return Status::Ok();
  }
  return VisitNumericType(dt, fn);
}

// ONNX 1.12 casts float to bfloat16 by dropping the low 16 bits (its backend tests expect this); NaN stays NaN.
inline bfloat16 TruncateToBfloat16(float f) {
  bfloat16 b;
  if (std::isnan(f)) {
    b.bits = std::signbit(f) ? 0xffc0 : 0x7fc0;
    return b;
  }
  uint32_t u;
  std::memcpy(&u, &f, 4);
  b.bits = static_cast<uint16_t>(u >> 16);
  return b;
}

template <typename D, typename S>
inline D ConvertNumber(S s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (std::is_same_v<D, bool>) {
    return static_cast<Compute<S>>(s) != 0;
  } else if constexpr (std::is_same_v<S, bool>) {
    return FromCompute<D>(s ? 1 : 0);
  } else if constexpr (std::is_same_v<D, bfloat16>) {
    return TruncateToBfloat16(static_cast<float>(static_cast<Compute<S>>(s)));
  } else if constexpr (kIsFloat<D>) {
    return FromCompute<D>(static_cast<Compute<S>>(s));
  } else if constexpr (kIsFloat<S>) {
    return FloatToInt<D>(static_cast<double>(static_cast<Compute<S>>(s)));
  } else {
    return static_cast<D>(s);  // integer to integer wraps
  }
}

// Shortest text that reads back as the same value.
template <typename S>
std::string NumberToString(S s) {
  if constexpr (std::is_same_v<S, bool>) {
    return s ? "1" : "0";
  } else if constexpr (kIsInt<S>) {
    return std::to_string(s);
  } else {
    using C = Compute<S>;
    const C v = static_cast<C>(s);
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
    char buf[64];
    if constexpr (kIsHalf<S>) {
      // The fewest significant digits that read back as the same 16-bit value, printed as that decimal's float.
      for (int digits = 1; digits <= 9; ++digits) {
        auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, digits - 1);
        float back = 0;
        std::from_chars(buf, r.ptr, back);
        if (S(back).bits == s.bits || digits == 9) {
          auto r2 = std::to_chars(buf, buf + sizeof(buf), back);
          return std::string(buf, r2.ptr);
        }
      }
    }
    auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
  }
}

bool EqualsNoCase(const std::string& a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Parses the whole of t (already trimmed) as F; a leading '+' is allowed.
template <typename F>
bool ParseWhole(const std::string& t, F* out) {
  const char* b = t.data();
  const char* e = b + t.size();
  if (b != e && *b == '+' && e - b > 1 && b[1] != '-' && b[1] != '+') ++b;
  if (b == e) return false;
  auto r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr == e;
}

template <typename D>
bool ParseString(const std::string& s, D* out) {
  const std::string t = Trim(s);
  if constexpr (std::is_same_v<D, bool>) {
    if (EqualsNoCase(t, "true")) return *out = true, true;
    if (EqualsNoCase(t, "false")) return *out = false, true;
  }
  if constexpr (kIsInt<D> || std::is_same_v<D, bool>) {
    using Wide = std::conditional_t<std::is_same_v<D, uint64_t>, uint64_t, int64_t>;
    Wide w;
    if (ParseWhole(t, &w)) {
      *out = ConvertNumber<D>(w);
      return true;
    }
  }
  using P = std::conditional_t<std::is_same_v<D, float> || kIsHalf<D>, float, double>;
  P v;
  if (EqualsNoCase(t, "nan") || EqualsNoCase(t, "+nan") || EqualsNoCase(t, "-nan")) {
    v = std::numeric_limits<P>::quiet_NaN();
  } else if (EqualsNoCase(t, "inf") || EqualsNoCase(t, "+inf")) {
    v = std::numeric_limits<P>::infinity();
  } else if (EqualsNoCase(t, "-inf")) {
    v = -std::numeric_limits<P>::infinity();
  } else if (!ParseWhole(t, &v)) {
    return false;
  }
  *out = ConvertNumber<D>(v);
  return true;
}

template <typename S, typename D>
Status CastLoop(const KernelContext& ctx, const S* in, D* out, int64_t n) {
  if constexpr (std::is_same_v<S, std::string> && std::is_same_v<D, std::string>) {
    std::copy(in, in + n, out);
  } else if constexpr (std::is_same_v<S, std::string>) {
    for (int64_t i = 0; i < n; ++i) {
      if (!ParseString(in[i], &out[i])) {
        return ctx.Error("cannot parse \"" + in[i].substr(0, 64) + "\" as " + DataTypeName(DataTypeOf<D>::value));
      }
    }
  } else if constexpr (std::is_same_v<D, std::string>) {
    for (int64_t i = 0; i < n; ++i) out[i] = NumberToString(in[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = ConvertNumber<D>(in[i]);
  }
  return Status::Ok();
}

Status CastTo(KernelContext& ctx, DataType to) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  if (x->dtype() == to) {
    ctx.SetOutput(0, *x);
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), to));
  Status loop = Status::Ok();
  Status inner = Status::Ok();
  Status outer = VisitCastType(x->dtype(), [&](auto src) {
    using S = typename decltype(src)::type;
    inner = VisitCastType(to, [&](auto dst) {
      using D = typename decltype(dst)::type;
      loop = CastLoop<S, D>(ctx, x->data<S>(), y->data<D>(), x->numel());
    });
  });
  GE_RETURN_IF_ERROR(DtypeError(ctx, outer));
  GE_RETURN_IF_ERROR(DtypeError(ctx, inner));
  return loop;
}

Status RefCast(KernelContext& ctx) {
  const ir::AttrValue* to = ctx.attr().Find("to");
  if (!to || to->type != ir::AttrValue::Type::kInt || to->i <= 0 || to->i > kMaxDataTypeValue ||
      !IsValidDataType(static_cast<int32_t>(to->i))) {
    return ctx.Error("attribute 'to' must name a data type");
  }
  return CastTo(ctx, static_cast<DataType>(to->i));
}

Status RefCastLike(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* target, TensorInput(ctx, 1));
  return CastTo(ctx, target->dtype());
}

}  // namespace

void RegisterCastKernels(KernelRegistry* r) {
  r->Add(OpId::kCast, RefCast);
  r->Add(OpId::kCastLike, RefCastLike);
}

}  // namespace ge::ref::elementwise
