// Vectorizable float tanh and erf for the fast unary kernels: no libm call and no branch (both halves of each
// function are computed and one selected), so loops over them auto-vectorize, as over FastExp. Accuracy: within
// 3 ulp of the exact value for every float (checked on a dense grid and at the special values in the tests); NaN
// stays NaN, the infinities give the limits.
#pragma once
#include <algorithm>
#include <cmath>

#include "kernels/exec/fast_exp.h"

namespace ge::exec {

// tanh(x): the Taylor series to x^17 below |x| = 0.55, where it converges to float precision; above, 1 - 2 / (e^2|x|
// + 1), whose cancellation costs at most an ulp or two there (the result is at least 0.5).
inline float FastTanh(float x) {
  const float a = std::fabs(x);
  const float a2 = a * a;
  float p = 6404582.0f / 10854718875.0f;
  p = p * a2 - 929569.0f / 638512875.0f;
  p = p * a2 + 21844.0f / 6081075.0f;
  p = p * a2 - 1382.0f / 155925.0f;
  p = p * a2 + 62.0f / 2835.0f;
  p = p * a2 - 17.0f / 315.0f;
  p = p * a2 + 2.0f / 15.0f;
  p = p * a2 - 1.0f / 3.0f;
  p = p * a2 + 1.0f;
  const float small = p * a;
  const float e = FastExp(std::min(2.0f * a, 88.0f));  // NaN passes std::min's second-argument test unchanged
  const float big = 1.0f - 2.0f / (e + 1.0f);
  return std::copysign(a < 0.55f ? small : big, x);
}

// erf(x): below |x| = 1 the Taylor series 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)) to n = 11; from 1 to 4,
// 1 - e^(-x^2) g(x) with g(x) = erfc(x) e^(x^2) fitted by a degree-14 polynomial in u = (x - 2.5) / 1.5 (a
// Chebyshev fit, relative error under 1e-9); from 4 on, 1 (erfc(4) is below half an ulp of 1).
inline float FastErf(float x) {
  const float a = std::fabs(x);
  const float a2 = a * a;
  float p = -1.2290555240e-09f;
  p = p * a2 + 1.4807192805e-08f;
  p = p * a2 - 1.6365844147e-07f;
  p = p * a2 + 1.6462114445e-06f;
  p = p * a2 - 1.4925650248e-05f;
  p = p * a2 + 1.2055332627e-04f;
  p = p * a2 - 8.5483270232e-04f;
  p = p * a2 + 5.2239778452e-03f;
  p = p * a2 - 2.6866171509e-02f;
  p = p * a2 + 1.1283791810e-01f;
  p = p * a2 - 3.7612637877e-01f;
  p = p * a2 + 1.1283792257e+00f;
  const float small = p * a;
  const float u = (std::min(a, 4.0f) - 2.5f) * (1.0f / 1.5f);
  float q = 1.784509323e-06f;
  q = q * u - 4.975395314e-06f;
  q = q * u + 7.567770808e-06f;
  q = q * u - 2.074258737e-05f;
  q = q * u + 6.355060759e-05f;
  q = q * u - 1.642019342e-04f;
  q = q * u + 4.086367262e-04f;
  q = q * u - 1.004953054e-03f;
  q = q * u + 2.403758699e-03f;
  q = q * u - 5.570884794e-03f;
  q = q * u + 1.248936076e-02f;
  q = q * u - 2.700528130e-02f;
  q = q * u + 5.611049384e-02f;
  q = q * u - 1.115210205e-01f;
  q = q * u + 2.108063698e-01f;
  const float big = a >= 4.0f ? 1.0f : 1.0f - FastExp(-a2) * q;
  return std::copysign(a < 1.0f ? small : big, x);
}

}  // namespace ge::exec
