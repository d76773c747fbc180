#include "base/compare.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>

namespace ge {
namespace {

std::string FormatDouble(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string Prefix(const std::string& what) { return what.empty() ? "" : what + ": "; }

// Accumulates mismatches of one comparison and remembers the first.
struct MismatchLog {
  int64_t count = 0;
  int64_t first = -1;
  std::string first_got, first_want, first_part;
  double max_diff = 0;

  void Add(int64_t index, const std::string& part, const std::string& got, const std::string& want, double diff) {
    if (count++ == 0) {
      first = index;
      first_got = got;
      first_want = want;
      first_part = part;
    }
    // NaN and inf differences count as an infinite difference (std::max would drop a NaN).
    if (!(diff <= max_diff)) max_diff = std::isnan(diff) ? INFINITY : diff;
  }

  Status ToStatus(const std::string& what, int64_t n) const {
    if (count == 0) return Status::Ok();
    return InvalidArgument(Prefix(what) + "element " + std::to_string(first) + first_part + " is " + first_got +
                           ", expected " + first_want + " (" + std::to_string(count) + " of " + std::to_string(n) +
                           " elements differ, max |diff| " + FormatDouble(max_diff) + ")");
  }
};

void CheckScalar(double g, double w, const Tolerance& tol, int64_t i, const char* part, MismatchLog* log) {
  if (!ScalarsMatch(g, w, tol)) log->Add(i, part, FormatDouble(g), FormatDouble(w), std::fabs(g - w));
}

Status CheckShape(const Tensor& got, const Tensor& want, const std::string& what) {
  if (got.dtype() != want.dtype()) {
    return InvalidArgument(Prefix(what) + "dtype " + DataTypeName(got.dtype()) + ", expected " +
                           DataTypeName(want.dtype()));
  }
  if (got.dims() != want.dims()) {
    return InvalidArgument(Prefix(what) + "shape " + DimsToString(got.dims()) + ", expected " +
                           DimsToString(want.dims()));
  }
  if (got.numel() > 0 && (!got.valid() || !want.valid())) return InvalidArgument(Prefix(what) + "tensor has no data");
  return Status::Ok();
}

template <typename C>
void CheckComplex(const Tensor& got, const Tensor& want, const Tolerance& tol, MismatchLog* log) {
  const C* g = got.data<C>();
  const C* w = want.data<C>();
  for (int64_t i = 0; i < got.numel(); ++i) {
    CheckScalar(g[i].real(), w[i].real(), tol, i, " (real part)", log);
    CheckScalar(g[i].imag(), w[i].imag(), tol, i, " (imaginary part)", log);
  }
}

std::string IntegerString(const Tensor& t, int64_t i) {
  if (t.dtype() == DataType::kUint64) return std::to_string(t.data<uint64_t>()[i]);
  return std::to_string(t.GetAsInt64(i));
}

}  // namespace

bool ScalarsMatch(double got, double want, const Tolerance& tol) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want)) return got == want;
  const double r = tol.rtol_of_larger ? std::max(std::fabs(got), std::fabs(want)) : std::fabs(want);
  return got == want || std::fabs(got - want) <= tol.atol + tol.rtol * r;
}

Status CompareTensors(const Tensor& got, const Tensor& want, const Tolerance& tol, const std::string& what) {
  GE_RETURN_IF_ERROR(CheckShape(got, want, what));
  const int64_t n = got.numel();
  MismatchLog log;
  const DataType dt = got.dtype();
  if (dt == DataType::kString) {
    for (int64_t i = 0; i < n; ++i) {
      const std::string& g = got.data<std::string>()[i];
      const std::string& w = want.data<std::string>()[i];
      if (g != w) log.Add(i, "", "\"" + g + "\"", "\"" + w + "\"", INFINITY);
    }
  } else if (dt == DataType::kComplex64) {
    CheckComplex<std::complex<float>>(got, want, tol, &log);
  } else if (dt == DataType::kComplex128) {
    CheckComplex<std::complex<double>>(got, want, tol, &log);
  } else if (IsFloatingPoint(dt)) {
    for (int64_t i = 0; i < n; ++i) CheckScalar(got.GetAsDouble(i), want.GetAsDouble(i), tol, i, "", &log);
  } else {
    // Integers and bool: exact, bit for bit (no detour through double, which rounds above 2^53).
    const size_t size = DataTypeSize(dt);
    const char* g = static_cast<const char*>(got.raw_data());
    const char* w = static_cast<const char*>(want.raw_data());
    for (int64_t i = 0; i < n; ++i) {
      if (std::memcmp(g + i * size, w + i * size, size) != 0) {
        log.Add(i, "", IntegerString(got, i), IntegerString(want, i),
                std::fabs(got.GetAsDouble(i) - want.GetAsDouble(i)));
      }
    }
  }
  return log.ToStatus(what, n);
}

Status CompareFloats(const float* got, const float* want, int64_t n, const Tolerance& tol, const std::string& what) {
  MismatchLog log;
  for (int64_t i = 0; i < n; ++i) CheckScalar(got[i], want[i], tol, i, "", &log);
  return log.ToStatus(what, n);
}

Status CompareRelativeL2(const Tensor& got, const Tensor& want, double max_error, const std::string& what,
                         double* error) {
  if (error) *error = INFINITY;
  GE_RETURN_IF_ERROR(CheckShape(got, want, what));
  if (!IsFloatingPoint(got.dtype())) return CompareTensors(got, want, Tolerance::Exact(), what);
  double diff2 = 0, want2 = 0;
  MismatchLog log;
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double g = got.GetAsDouble(i), w = want.GetAsDouble(i);
    if (!std::isfinite(g) || !std::isfinite(w)) {
      CheckScalar(g, w, Tolerance::Exact(), i, "", &log);
      continue;
    }
    diff2 += (g - w) * (g - w);
    want2 += w * w;
  }
  GE_RETURN_IF_ERROR(log.ToStatus(what, got.numel()));
  const double e = std::sqrt(diff2) / std::max(std::sqrt(want2), 1e-30);
  if (error) *error = e;
  if (!(e <= max_error)) {
    return InvalidArgument(Prefix(what) + "relative L2 error " + FormatDouble(e) + " exceeds " +
                           FormatDouble(max_error));
  }
  return Status::Ok();
}

}  // namespace ge
