#include "kernels/dnnl/silu_epilogue.h"

#include <immintrin.h>

#include <algorithm>

#include "kernels/exec/fast_exp.h"

namespace ge::dnnl_kernels {
namespace {

// y * sigmoid(y) = y / (1 + exp(-y)), with exp as exec::FastExp computes it (exp(-y) = 2^m * exp(s), m = round(-y *
// log2e), s = -y - m * ln2, the same degree-7 polynomial) and the division as a reciprocal estimate refined by one
// Newton step (relative error ~2^-23): a vector division costs 10-16 cycles per vector, which made this epilogue a
// fifth of EfficientNet's time. y is clamped to [-80, 104] (AVX-512: 2^m applied by scalef) or [-80, 87] (AVX2: 2^m
// built from m's bits, a normal float there), so 1 + exp(-y) stays finite and normal (its reciprocal too); above
// y = 87 exp(-y) vanishes beside 1 either way. Below y = -80 the result is y * 1.8e-35 instead of ~0 (a difference
// under 1e-32). NaN stays NaN; +inf gives +inf, -inf gives -inf. The loops count ~19 (AVX-512) and ~21 (AVX2)
// vector operations per vector: the loop is bound by arithmetic, not memory, so each one counts.

constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23 (exec::FastExp)
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693145751953125f;
constexpr float kLn2Lo = 1.428606765330187e-06f;

// GCC 12 reports its own _mm512_undefined_*() placeholders in the unmasked AVX-512 intrinsics as uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

__attribute__((target("avx512f"))) inline __m512 Silu512(__m512 x) {
  const __m512 xc = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-80.0f)), _mm512_set1_ps(104.0f));
  const __m512 magic = _mm512_set1_ps(kMagic);
  const __m512 m = _mm512_sub_ps(_mm512_fmadd_ps(xc, _mm512_set1_ps(-kLog2e), magic), magic);
  __m512 s = _mm512_fnmsub_ps(m, _mm512_set1_ps(kLn2Hi), xc);
  s = _mm512_fnmadd_ps(m, _mm512_set1_ps(kLn2Lo), s);
  __m512 p = _mm512_set1_ps(1.0f / 5040.0f);
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f / 720.0f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, s, _mm512_set1_ps(1.0f));
  const __m512 d = _mm512_add_ps(_mm512_set1_ps(1.0f), _mm512_scalef_ps(p, m));
  __m512 r = _mm512_rcp14_ps(d);
  r = _mm512_mul_ps(r, _mm512_fnmadd_ps(d, r, _mm512_set1_ps(2.0f)));
  return _mm512_mul_ps(x, r);
}

__attribute__((target("avx512f"))) void SiluRangeAvx512(float* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 16 <= end; i += 16) _mm512_storeu_ps(y + i, Silu512(_mm512_loadu_ps(y + i)));
  if (i < end) {
    const __mmask16 m = static_cast<__mmask16>((1u << (end - i)) - 1);
    _mm512_mask_storeu_ps(y + i, m, Silu512(_mm512_maskz_loadu_ps(m, y + i)));
  }
}

#pragma GCC diagnostic pop

__attribute__((target("avx2,fma"))) inline __m256 Silu256(__m256 x) {
  // As Silu512; x is clamped to [-80, 87] so that 2^m is a normal float (m in [-126, 116]) built from m's bits.
  const __m256 xc = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-80.0f)), _mm256_set1_ps(87.0f));
  const __m256 magic = _mm256_set1_ps(kMagic);
  const __m256 t = _mm256_fmadd_ps(xc, _mm256_set1_ps(-kLog2e), magic);
  const __m256 m = _mm256_sub_ps(t, magic);
  __m256 s = _mm256_fnmsub_ps(m, _mm256_set1_ps(kLn2Hi), xc);
  s = _mm256_fnmadd_ps(m, _mm256_set1_ps(kLn2Lo), s);
  __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f / 720.0f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f / 120.0f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f / 24.0f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f / 6.0f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f));
  // t's bits are 0x4B400000 + m; (m + 127) << 23 is 2^m.
  const __m256i e =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_castps_si256(t), _mm256_set1_epi32(127 - 0x4B400000)), 23);
  const __m256 d = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(p, _mm256_castsi256_ps(e)));
  __m256 r = _mm256_rcp_ps(d);
  r = _mm256_mul_ps(r, _mm256_fnmadd_ps(d, r, _mm256_set1_ps(2.0f)));
  return _mm256_mul_ps(x, r);
}

__attribute__((target("avx2,fma"))) void SiluRangeAvx2(float* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) _mm256_storeu_ps(y + i, Silu256(_mm256_loadu_ps(y + i)));
  if (i < end) {
    alignas(32) float tail[8] = {};
    std::copy(y + i, y + end, tail);
    _mm256_store_ps(tail, Silu256(_mm256_load_ps(tail)));
    std::copy(tail, tail + (end - i), y + i);
  }
}

void SiluRangeScalar(float* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const float x = y[i];
    y[i] = x / (1.0f + exec::FastExp(std::min(-x, 80.0f)));
  }
}

using SiluRangeFn = void (*)(float*, int64_t, int64_t);

SiluRangeFn PickSiluRange(IsaLevel max_level) {
  const uint64_t cpu = HostIsa().features;
  const bool any = max_level == IsaLevel::kNone;
  if ((cpu & kIsaAvx512F) != 0 && (any || max_level >= IsaLevel::kX86_64_V4)) return SiluRangeAvx512;
  if ((cpu & kIsaAvx2) != 0 && (cpu & kIsaFma) != 0 && (any || max_level >= IsaLevel::kX86_64_V3)) {
    return SiluRangeAvx2;
  }
  return SiluRangeScalar;
}

}  // namespace

void SiluInPlace(float* y, int64_t n, int threads, IsaLevel max_level) {
  const SiluRangeFn range = PickSiluRange(max_level);
  constexpr int64_t kChunk = 16 * 1024;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  if (threads <= 1 || chunks <= 1) {
    range(y, 0, n);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) range(y, c * kChunk, std::min(n, (c + 1) * kChunk));
}

}  // namespace ge::dnnl_kernels
