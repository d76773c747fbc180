// The one element-wise comparison every check in the tree uses (tests, `ge test-onnx`, benchmarks): NaN matches
// only NaN, +inf only +inf and -inf only -inf; a finite value never matches a non-finite one, whatever the
// tolerance. Finite pairs match when |got - want| <= atol + rtol * r, where r is |want| (numpy's assert_allclose,
// as ONNX's backend runner uses) or, with rtol_of_larger, max(|got|, |want|). Integer, bool and string elements
// compare exactly; complex elements compare their real and imaginary parts separately.
#pragma once
#include <cstdint>
#include <string>

#include "base/status.h"
#include "base/tensor.h"

namespace ge {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  bool rtol_of_larger = false;  // r = max(|got|, |want|) instead of |want|

  static Tolerance Exact() { return {}; }
  static Tolerance Abs(double atol) { return {atol, 0, false}; }
  static Tolerance Rel(double rtol) { return {0, rtol, false}; }
};

// True when one pair of scalars matches under `tol` (the rules above).
bool ScalarsMatch(double got, double want, const Tolerance& tol);

// Ok, or InvalidArgument "WHAT: element I is GOT, expected WANT (K of N elements differ, max |diff| D)" for the
// first mismatch; dtype or dims that differ are reported first. `what` prefixes the message ("" for none).
Status CompareTensors(const Tensor& got, const Tensor& want, const Tolerance& tol, const std::string& what = "");
Status CompareFloats(const float* got, const float* want, int64_t n, const Tolerance& tol,
                     const std::string& what = "");

// Relative L2 error ||got - want|| / max(||want||, tiny) over the finite elements; Ok when it is <= max_error and
// every non-finite element of either side matches the other exactly (same NaN/inf positions), else
// InvalidArgument naming the first non-finite mismatch or the error.
Status CompareRelativeL2(const Tensor& got, const Tensor& want, double max_error, const std::string& what = "",
                         double* error = nullptr);

}  // namespace ge
