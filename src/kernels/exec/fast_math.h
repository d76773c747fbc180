// Vectorizable float tanh, erf and GELU (and FastExp's exp and sigmoid) for the fast unary kernels, written once over
// "lanes": a GCC vector of W floats (FloatLanes<W>: 16 for the AVX-512 loops, 8 for AVX2, 4 for the SSE2 baseline,
// 1 for the one-float forms). Every operation is the lane-wise IEEE single-precision one and nothing is contracted
// (the users compile with -ffp-contract=off) except where Fma is written: one rounding on AVX-512 and AVX2 (the
// same fused instruction on both, so those builds give the same bits), a multiply and an add on the SSE2 baseline
// and in the one-float forms (FastTanh, FastErf). Both forms are within the accuracy below; they differ by an ulp or
// so.
//
// The Fma, MinPs and MaxPs overloads for 16 and 8 lanes carry their ISA as a target attribute, so the functions that
// call them are plain inline templates and a loop over lanes must be `flatten` (and have that target) to inline them.
// (Wider GCC vectors than the ISA's registers compile poorly: each ISA gets its own width.)
//
// No libm call and no branch: where a function has two formulas both are computed and one selected per lane.
// Accuracy against the exact value, in both forms (tanh, erf and exp checked over every float, the GELU on a dense
// grid; fast_math_test.cc samples them):
// TanhLanes and ErfLanes within 3 ulp; GeluLanes within 3e-5 relative where |y| > 1e-4 and 1e-7 absolute below;
// ExpLanes within 1.5 ulp where exp is a normal float (its baseline form is FastExp, fast_exp.h, bit for bit). NaN
// stays NaN, the infinities give the limits, denormals keep their value where the function is x-like at 0.
#pragma once
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace ge::exec {

template <int W>
struct FloatLanesOf;
#define GE_FLOAT_LANES(W)                                   \
  template <>                                               \
  struct FloatLanesOf<W> {                                  \
    typedef float Type __attribute__((vector_size(4 * W))); \
  };
GE_FLOAT_LANES(1)
GE_FLOAT_LANES(4)
GE_FLOAT_LANES(8)
GE_FLOAT_LANES(16)
#undef GE_FLOAT_LANES

// W floats in one value (unaligned loads and stores through memcpy).
template <int W>
using FloatLanes = typename FloatLanesOf<W>::Type;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // lanes never cross a call: the loops over them are flattened

// a * b + c: fused (one rounding) for 16 and 8 lanes, a multiply and an add otherwise.
__attribute__((target("avx512f"))) inline FloatLanes<16> Fma(FloatLanes<16> a, FloatLanes<16> b, FloatLanes<16> c) {
  return _mm512_fmadd_ps(a, b, c);
}
__attribute__((target("avx,fma"))) inline FloatLanes<8> Fma(FloatLanes<8> a, FloatLanes<8> b, FloatLanes<8> c) {
  return _mm256_fmadd_ps(a, b, c);
}
inline FloatLanes<4> Fma(FloatLanes<4> a, FloatLanes<4> b, FloatLanes<4> c) { return a * b + c; }
inline FloatLanes<1> Fma(FloatLanes<1> a, FloatLanes<1> b, FloatLanes<1> c) { return a * b + c; }
template <typename V>
inline V Fma(V a, V b, float c) {
  return Fma(a, b, V{} + c);
}
template <typename V>
inline V Fma(V a, float b, float c) {
  return Fma(a, V{} + b, V{} + c);
}
template <typename V>
inline V Fma(V a, float b, V c) {
  return Fma(a, V{} + b, c);
}

namespace lanes {

template <typename V>
using IntLanes = decltype(V{} < V{});

// The x86 min / max instructions' rule, a < b ? a : b (a > b for max): b when either is NaN. As instructions for 16,
// 8 and 4 lanes (the compiler does not make one of the select when an operand is a constant).
__attribute__((target("avx512f"))) inline FloatLanes<16> MinPs(FloatLanes<16> a, FloatLanes<16> b) {
  return _mm512_mask_min_ps(a, static_cast<__mmask16>(0xFFFF), a, b);  // _mm512_min_ps's undefined source warns
}
__attribute__((target("avx"))) inline FloatLanes<8> MinPs(FloatLanes<8> a, FloatLanes<8> b) {
  return _mm256_min_ps(a, b);
}
inline FloatLanes<4> MinPs(FloatLanes<4> a, FloatLanes<4> b) { return _mm_min_ps(a, b); }
inline FloatLanes<1> MinPs(FloatLanes<1> a, FloatLanes<1> b) { return a < b ? a : b; }
__attribute__((target("avx512f"))) inline FloatLanes<16> MaxPs(FloatLanes<16> a, FloatLanes<16> b) {
  return _mm512_mask_max_ps(a, static_cast<__mmask16>(0xFFFF), a, b);
}
__attribute__((target("avx"))) inline FloatLanes<8> MaxPs(FloatLanes<8> a, FloatLanes<8> b) {
  return _mm256_max_ps(a, b);
}
inline FloatLanes<4> MaxPs(FloatLanes<4> a, FloatLanes<4> b) { return _mm_max_ps(a, b); }
inline FloatLanes<1> MaxPs(FloatLanes<1> a, FloatLanes<1> b) { return a > b ? a : b; }

// std::min's and std::max's rule: a NaN in x passes.
template <typename V>
inline V Min(V x, float hi) {
  return MinPs(V{} + hi, x);
}
template <typename V>
inline V Max(V x, float lo) {
  return MaxPs(V{} + lo, x);
}
template <typename V>
inline V Abs(V x) {
  return (V)((IntLanes<V>)x & 0x7fffffff);
}
// |mag| with the sign of sign_of.
template <typename V>
inline V CopySign(V mag, V sign_of) {
  return (V)(((IntLanes<V>)mag & 0x7fffffff) | ((IntLanes<V>)sign_of & static_cast<int32_t>(0x80000000u)));
}

// Range reduction for 2^n * e^r: x = n ln2 + r, |r| <= ln2 / 2, for x in [-126 ln2, 127 ln2] (n + 127 a normal
// exponent). Returns r and sets *scale = 2^n.
template <typename V>
inline V ReduceLn2(V x, V* scale) {
  constexpr float kShift = 12582912.0f + 127.0f;  // 1.5 * 2^23 + the exponent bias: t's low bits hold n + 127
  const V t = Fma(x, 1.44269504088896341f, kShift);
  const V n = t - kShift;
  *scale = (V)((IntLanes<V>)t << 23);
  const V r = Fma(n, -0.693145751953125f, x);  // ln2 high part: n * hi is exact
  return Fma(n, -1.428606765330187e-06f, r);   // ln2 low part
}

}  // namespace lanes

// FastExp (fast_exp.h) on lanes, operation for operation, with its multiply-adds fused where Fma fuses (the one-lane
// and baseline forms are FastExp bit for bit).
template <typename V>
inline V ExpLanes(V x) {
  using VI = lanes::IntLanes<V>;
  constexpr float kMagic = 12582912.0f;
  const V xc = lanes::Min(lanes::Max(x, -104.0f), 89.0f);
  const V t = Fma(xc, 1.44269504088896341f, kMagic);
  const V n = t - kMagic;
  const VI ni = (VI)t - 0x4B400000;
  V r = Fma(n, -0.693145751953125f, xc);
  r = Fma(n, -1.428606765330187e-06f, r);
  V p = V{} + 1.0f / 5040.0f;
  p = Fma(p, r, 1.0f / 720.0f);
  p = Fma(p, r, 1.0f / 120.0f);
  p = Fma(p, r, 1.0f / 24.0f);
  p = Fma(p, r, 1.0f / 6.0f);
  p = Fma(p, r, 0.5f);
  p = Fma(p, r, 1.0f);
  p = Fma(p, r, 1.0f);
  const VI n1 = ni >> 1;
  const VI n2 = ni - n1;
  const V s1 = (V)((n1 + 127) << 23);
  const V s2 = (V)((n2 + 127) << 23);
  return p * s1 * s2;
}

// The unary kernels' Sigmoid: 1 / (1 + e^-|x|), or e^-|x| times that for x < 0.
template <typename V>
inline V SigmoidLanes(V x) {
  const V e = ExpLanes(-lanes::Abs(x));
  const V s = 1.0f / (1.0f + e);
  return x >= 0.0f ? s : e * s;
}

// tanh(x) = -m / (m + 2) with m = expm1(-2|x|), the sign of x put back: one formula for every x, no cancellation
// near 0 (expm1 keeps its relative accuracy there). expm1(y) = 2^n (r + r^2 q(r)) + (2^n - 1) after the ln2
// reduction (q: a minimax fit of degree 5, relative error under 3e-10); |x| is clamped at 9.5, where tanh is 1 in
// float.
template <typename V>
inline V TanhLanes(V x) {
  const V y = lanes::Min(lanes::Abs(x), 9.5f) * -2.0f;
  V scale;
  const V r = lanes::ReduceLn2(y, &scale);
  V q = V{} + 1.9845885315e-04f;
  q = Fma(q, r, 1.3940720025e-03f);
  q = Fma(q, r, 8.3333895716e-03f);
  q = Fma(q, r, 4.1666359820e-02f);
  q = Fma(q, r, 1.6666666369e-01f);
  q = Fma(q, r, 5.0000000444e-01f);
  const V expm1_r = Fma(r * r, q, r);
  const V m = Fma(scale, expm1_r, scale - 1.0f);
  return lanes::CopySign(m / (m + 2.0f), x);
}

// 1 - erf(a) for a >= 0.875 (as e^R(a), R a degree-6 minimax fit of log erfc in s = a - 0.875 on [0.875, 3.9375],
// weighted by erfc: error under 2e-9 of erf). a is clamped at 3.9375, where erfc is below half an ulp of 1; for a
// NaN the result is unspecified (the callers do not select it). s is exact (a and 0.875 share the exponent range that
// Sterbenz's lemma needs, or s keeps all of a's bits).
template <typename V>
inline V ErfcFromPoint875(V a) {
  const V s = lanes::Min(a, 3.9375f) - 0.875f;
  V g = V{} + 1.999011952e-04f;
  g = Fma(g, s, -2.032513050e-03f);
  g = Fma(g, s, 1.119303894e-02f);
  g = Fma(g, s, -4.683476131e-02f);
  g = Fma(g, s, -8.265538605e-01f);
  g = Fma(g, s, -2.430218900e+00f);
  g = Fma(g, s, -1.532824445e+00f);
  // e^g, g in [-17.6, -1.5]: 2^n (1 + r p(r)) with p a degree-5 minimax fit (relative error 2e-9). One ln2 constant
  // suffices here (its error, n times 2e-9, is far below what erfc's weight lets through), and 2^n is applied by
  // adding n to the exponent bits (the result is normal): two integer operations instead of a multiply.
  using VI = lanes::IntLanes<V>;
  constexpr float kShift = 12582912.0f;  // 1.5 * 2^23: t's low bits hold n
  const V t = Fma(g, 1.44269504088896341f, kShift);
  const V r = Fma(t - kShift, -0.693147182464599609375f, g);
  V p = V{} + 1.3843559825e-03f;
  p = Fma(p, r, 8.3742359393e-03f);
  p = Fma(p, r, 4.1668007420e-02f);
  p = Fma(p, r, 1.6666430338e-01f);
  p = Fma(p, r, 4.9999994174e-01f);
  p = Fma(p, r, 1.0000000324e+00f);
  return (V)((VI)Fma(p, r, 1.0f) + ((VI)t << 23));
}

// erf(x)/x for |x| < 0.875 as a degree-6 minimax polynomial in x^2 (relative error 2e-10).
template <typename V>
inline V ErfOverXBelowPoint875(V x) {
  const V t = x * x;
  V p = V{} + 8.675392297e-05f;
  p = Fma(p, t, -8.211104076e-04f);
  p = Fma(p, t, 5.206747442e-03f);
  p = Fma(p, t, -2.686158471e-02f);
  p = Fma(p, t, 1.128373300e-01f);
  p = Fma(p, t, -3.761263607e-01f);
  p = Fma(p, t, 1.128379167e+00f);
  return p;
}

// erf(x): x p(x^2) below |x| = 0.875, 1 - erfc(|x|) with x's sign above.
template <typename V>
inline V ErfLanes(V x) {
  const V a = lanes::Abs(x);
  const V small = x * ErfOverXBelowPoint875(x);
  const V big = lanes::CopySign(1.0f - ErfcFromPoint875(a), x);
  return a >= 0.875f ? big : small;  // a NaN takes the small formula, whose arithmetic keeps it a NaN
}

// The erf GELU, x (1 + erf(x / sqrt 2)) / 2. 1 + erf(z) is computed as 1 + z p(z^2) for |z| < 0.875 and, above,
// as 2 - erfc(z) or, for negative z, erfc(|z|) itself, which does not cancel as the unfused nodes' 1 + erf does
// (erfc's absolute error stays under 2e-9 there).
template <typename V>
inline V GeluLanes(V x) {
  const V z = x * 0.70710678118654752f;
  const V a = lanes::Abs(z);
  const V small = Fma(z, ErfOverXBelowPoint875(z), 1.0f);
  const V erfc = ErfcFromPoint875(a);
  // Below z = -3.9375 erfc is taken as 0, as the unfused nodes' 1 + erf is (so -inf gives NaN, as they do).
  const V big = z > 0.0f ? 2.0f - erfc : (z > -3.9375f ? erfc : V{});
  return (x * (a >= 0.875f ? big : small)) * 0.5f;  // a NaN takes the small formula, as in ErfLanes
}

#pragma GCC diagnostic pop

// One float at a time, in the baseline's form (no fused multiply-add): the same bits as a lane of its loop.
inline float FastTanh(float x) { return TanhLanes(FloatLanes<1>{x})[0]; }
inline float FastErf(float x) { return ErfLanes(FloatLanes<1>{x})[0]; }
inline float FastGelu(float x) { return GeluLanes(FloatLanes<1>{x})[0]; }

}  // namespace ge::exec
