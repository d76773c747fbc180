// Reference kernels for the opset-17 signal ops: DFT, STFT, BlackmanWindow, HannWindow, HammingWindow and
// MelWeightMatrix. Transforms compute in double: a radix-2 FFT for power-of-two lengths, a direct DFT otherwise.
#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using Complex = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// A 1-D DFT of a fixed length; inverse transforms are scaled by 1/n.
class Dft {
 public:
  Dft(int64_t n, bool inverse) : n_(n), inverse_(inverse), pow2_(n > 0 && (n & (n - 1)) == 0), tw_(n) {
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t k = 0; k < n; ++k) tw_[k] = std::polar(1.0, sign * 2.0 * kPi * static_cast<double>(k) / n);
  }
  // x holds n values (overwritten); writes the first out_count bins to out.
  void Run(std::vector<Complex>& x, int64_t out_count, Complex* out) const {
    if (pow2_) {
      Fft(x);
      for (int64_t k = 0; k < out_count; ++k) out[k] = x[k];
    } else {
      for (int64_t k = 0; k < out_count; ++k) {
        Complex s = 0;
        int64_t idx = 0;
        for (int64_t j = 0; j < n_; ++j) {
          s += x[j] * tw_[idx];
          idx += k;
          if (idx >= n_) idx -= n_;
        }
        out[k] = s;
      }
    }
    if (inverse_)
      for (int64_t k = 0; k < out_count; ++k) out[k] /= static_cast<double>(n_);
  }

 private:
  void Fft(std::vector<Complex>& x) const {
    for (int64_t i = 1, j = 0; i < n_; ++i) {
      int64_t bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(x[i], x[j]);
    }
    for (int64_t len = 2; len <= n_; len <<= 1) {
      const int64_t step = n_ / len;
      for (int64_t i = 0; i < n_; i += len) {
        for (int64_t k = 0; k < len / 2; ++k) {
          const Complex u = x[i + k], v = x[i + k + len / 2] * tw_[k * step];
          x[i + k] = u + v;
          x[i + k + len / 2] = u - v;
        }
      }
    }
  }

  int64_t n_;
  bool inverse_, pow2_;
  std::vector<Complex> tw_;
};

// Reads element i (real when comps == 1) of a float-typed line.
template <typename T>
Complex ReadComplex(const T* p, int64_t i, int64_t comps) {
  return comps == 1 ? Complex(static_cast<double>(p[i]), 0.0)
                    : Complex(static_cast<double>(p[2 * i]), static_cast<double>(p[2 * i + 1]));
}

StatusOr<int64_t> ScalarInput(const KernelContext& ctx, int i, const char* name) {
  const Tensor* t = ctx.input(i);
  if (!t) return ctx.Error(std::string(name) + " is required");
  if (t->numel() != 1) return ctx.Error(std::string(name) + " must be a scalar, got " + DimsToString(t->dims()));
  if (t->dtype() != DataType::kInt32 && t->dtype() != DataType::kInt64) {
    return ctx.Error(std::string(name) + " must be int32 or int64");
  }
  return t->GetAsInt64(0);
}

// Guards against lengths that would make the transform tables or loops absurd.
constexpr int64_t kMaxDftLength = int64_t{1} << 26;

Status RefDFT(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input is required");
  const int rank = x->rank();
  if (rank < 3) return ctx.Error("input must have rank >= 3, got " + DimsToString(x->dims()));
  const int64_t comps = x->dim(rank - 1);
  if (comps != 1 && comps != 2) return ctx.Error("the last dim of input must be 1 or 2");
  int64_t axis = 1;
  if (ctx.opset >= 20) {
    axis = -2;
    if (ctx.input(2)) {
      GE_ASSIGN_OR_RETURN(axis, ScalarInput(ctx, 2, "axis"));
    }
  } else {
    axis = ctx.attr().GetInt("axis", 1);
  }
  if (axis < -rank || axis > rank - 2) return ctx.Error("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank;
  const bool inverse = ctx.attr().GetInt("inverse", 0) != 0;
  const bool onesided = ctx.attr().GetInt("onesided", 0) != 0;
  if (inverse && onesided) return ctx.Unsupported("onesided inverse DFT");
  const int64_t len = x->dim(static_cast<int>(axis));
  int64_t n = len;
  if (ctx.input(1)) {
    GE_ASSIGN_OR_RETURN(n, ScalarInput(ctx, 1, "dft_length"));
  }
  if (n <= 0 || n > kMaxDftLength) return ctx.Error("dft_length " + std::to_string(n) + " is out of range");
  const int64_t out_len = onesided ? n / 2 + 1 : n;
  Dims out_dims = x->dims();
  out_dims[axis] = out_len;
  out_dims[rank - 1] = 2;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, out_dims, x->dtype()));
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= x->dim(d);
  for (int d = static_cast<int>(axis) + 1; d < rank - 1; ++d) inner *= x->dim(d);
  if (y->numel() == 0) return Status::Ok();
  const Dft dft(n, inverse);
  const int64_t used = std::min(len, n);
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xp = x->data<T>();
    T* yp = y->data<T>();
    std::vector<Complex> line(n), res(out_len);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        std::fill(line.begin(), line.end(), Complex(0));
        for (int64_t j = 0; j < used; ++j) line[j] = ReadComplex(xp + ((o * len + j) * inner + i) * comps, 0, comps);
        dft.Run(line, out_len, res.data());
        for (int64_t k = 0; k < out_len; ++k) {
          T* dst = yp + ((o * out_len + k) * inner + i) * 2;
          dst[0] = static_cast<T>(res[k].real());
          dst[1] = static_cast<T>(res[k].imag());
        }
      }
    }
  });
}

Status RefSTFT(KernelContext& ctx) {
  const Tensor* sig = ctx.input(0);
  const Tensor* window = ctx.input(2);
  if (!sig) return ctx.Error("signal is required");
  if (sig->rank() != 3 || (sig->dim(2) != 1 && sig->dim(2) != 2)) {
    return ctx.Error("signal must be [batch, length, 1 or 2], got " + DimsToString(sig->dims()));
  }
  GE_ASSIGN_OR_RETURN(int64_t step, ScalarInput(ctx, 1, "frame_step"));
  if (step <= 0) return ctx.Error("frame_step must be positive");
  int64_t fl = -1;
  if (window) {
    if (window->rank() != 1) return ctx.Error("window must be 1-D");
    if (window->dtype() != sig->dtype()) return ctx.Error("window must have the dtype of signal");
    fl = window->dim(0);
  }
  if (ctx.input(3)) {
    GE_ASSIGN_OR_RETURN(int64_t given, ScalarInput(ctx, 3, "frame_length"));
    if (window && given != fl) {
      return ctx.Error("frame_length " + std::to_string(given) + " differs from the window length " +
                       std::to_string(fl));
    }
    fl = given;
  }
  if (fl < 0 && !window) return ctx.Error("one of window and frame_length is required");
  const int64_t batch = sig->dim(0), len = sig->dim(1), comps = sig->dim(2);
  if (fl <= 0 || fl > len || fl > kMaxDftLength) {
    return ctx.Error("frame length " + std::to_string(fl) + " must be in [1, signal length " + std::to_string(len) + "]");
  }
  const bool onesided = ctx.attr().GetInt("onesided", 1) != 0;
  const int64_t frames = (len - fl) / step + 1, bins = onesided ? fl / 2 + 1 : fl;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {batch, frames, bins, 2}, sig->dtype()));
  const Dft dft(fl, false);
  return VisitFloatType(sig->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* sp = sig->data<T>();
    const T* wp = window ? window->data<T>() : nullptr;
    T* yp = y->data<T>();
    std::vector<Complex> line(fl), res(bins);
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t f = 0; f < frames; ++f) {
        const T* frame = sp + (b * len + f * step) * comps;
        for (int64_t j = 0; j < fl; ++j) {
          line[j] = ReadComplex(frame, j, comps);
          if (wp) line[j] *= static_cast<double>(wp[j]);
        }
        dft.Run(line, bins, res.data());
        T* dst = yp + (b * frames + f) * bins * 2;
        for (int64_t k = 0; k < bins; ++k) {
          dst[2 * k] = static_cast<T>(res[k].real());
          dst[2 * k + 1] = static_cast<T>(res[k].imag());
        }
      }
    }
  });
}

Status WriteNumeric(KernelContext& ctx, const std::vector<double>& v, const Dims& dims) {
  const int64_t dt = ctx.attr().GetInt("output_datatype", 1);
  if (!IsValidDataType(static_cast<int32_t>(dt))) return ctx.Error("bad output_datatype " + std::to_string(dt));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, dims, static_cast<DataType>(dt)));
  Status st = VisitNumericType(y->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = y->data<T>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
  });
  if (!st.ok()) return ctx.Error(st.message());
  return Status::Ok();
}

// Generalized cosine window: sum_m a[m] * cos(2*pi*m*n/N) with N = size (periodic) or size - 1 (symmetric).
Status CosineWindow(KernelContext& ctx, std::initializer_list<double> coeffs) {
  GE_ASSIGN_OR_RETURN(int64_t size, ScalarInput(ctx, 0, "size"));
  if (size < 0) return ctx.Error("size must be >= 0, got " + std::to_string(size));
  if (size > kMaxTensorBytes) return ctx.Error("size " + std::to_string(size) + " is too large");
  const bool periodic = ctx.attr().GetInt("periodic", 1) != 0;
  const double denom = static_cast<double>(periodic ? size : size - 1);
  std::vector<double> w(static_cast<size_t>(size));
  for (int64_t n = 0; n < size; ++n) {
    double v = 0, m = 0;
    for (double a : coeffs) {
      v += denom > 0 ? a * std::cos(2.0 * kPi * m * static_cast<double>(n) / denom) : a;
      m += 1;
    }
    w[n] = v;
  }
  return WriteNumeric(ctx, w, {size});
}

Status RefHannWindow(KernelContext& ctx) { return CosineWindow(ctx, {0.5, -0.5}); }
Status RefHammingWindow(KernelContext& ctx) { return CosineWindow(ctx, {25.0 / 46.0, -(1.0 - 25.0 / 46.0)}); }
Status RefBlackmanWindow(KernelContext& ctx) { return CosineWindow(ctx, {0.42, -0.5, 0.08}); }

// Triangular mel filters on integer DFT bins, as in the ONNX reference: num_mel_bins + 2 points equally spaced in
// mel between the edges (step = range / (num_mel_bins + 2)), mapped to bin floor((dft_length + 1) * hz / rate).
Status RefMelWeightMatrix(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(int64_t mel_bins, ScalarInput(ctx, 0, "num_mel_bins"));
  GE_ASSIGN_OR_RETURN(int64_t dft_length, ScalarInput(ctx, 1, "dft_length"));
  GE_ASSIGN_OR_RETURN(int64_t rate, ScalarInput(ctx, 2, "sample_rate"));
  const Tensor* lo_t = ctx.input(3);
  const Tensor* hi_t = ctx.input(4);
  if (!lo_t || !hi_t || lo_t->numel() != 1 || hi_t->numel() != 1) return ctx.Error("edge frequencies must be scalars");
  if (mel_bins <= 0 || dft_length <= 0 || rate <= 0) {
    return ctx.Error("num_mel_bins, dft_length and sample_rate must be positive");
  }
  const int64_t spec_bins = dft_length / 2 + 1;
  if (mel_bins > kMaxTensorBytes / spec_bins) return ctx.Error("output is too large");
  const double lo = lo_t->GetAsDouble(0), hi = hi_t->GetAsDouble(0);
  auto to_mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  const double lo_mel = to_mel(lo), hi_mel = to_mel(hi);
  const double step = (hi_mel - lo_mel) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> pts(static_cast<size_t>(mel_bins + 2));
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    const double hz = 700.0 * (std::pow(10.0, (static_cast<double>(i) * step + lo_mel) / 2595.0) - 1.0);
    const double bin = std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(rate));
    if (!(bin >= 0 && bin < static_cast<double>(spec_bins))) {
      return ctx.Error("edge frequencies map outside the " + std::to_string(spec_bins) + " spectrogram bins");
    }
    pts[i] = static_cast<int64_t>(bin);
  }
  std::vector<double> w(static_cast<size_t>(spec_bins * mel_bins), 0.0);
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t left = pts[i], center = pts[i + 1], right = pts[i + 2];
    if (center == left) {
      w[center * mel_bins + i] = 1.0;
    } else {
      for (int64_t j = left; j <= center; ++j) {
        w[j * mel_bins + i] = static_cast<double>(j - left) / static_cast<double>(center - left);
      }
    }
    if (right > center) {
      for (int64_t j = center; j < right; ++j) {
        w[j * mel_bins + i] = static_cast<double>(right - j) / static_cast<double>(right - center);
      }
    }
  }
  return WriteNumeric(ctx, w, {spec_bins, mel_bins});
}

}  // namespace

void RegisterSignalRefKernels(KernelRegistry* r) {
  r->Add(OpId::kDFT, RefDFT);
  r->Add(OpId::kSTFT, RefSTFT);
  r->Add(OpId::kHannWindow, RefHannWindow);
  r->Add(OpId::kHammingWindow, RefHammingWindow);
  r->Add(OpId::kBlackmanWindow, RefBlackmanWindow);
  r->Add(OpId::kMelWeightMatrix, RefMelWeightMatrix);
}

}  // namespace ge::ref
