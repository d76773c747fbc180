#include "kernels/ref/nn/conv_core.h"

#include <algorithm>
#include <vector>

#include "kernels/ref/nn/gemm.h"
#include "ops/nn/window_util.h"

namespace ge::ref::nn {

Dims ConvGeom::OutputDims() const {
  Dims d = {n, m};
  for (int i = 3 - nsp; i < 3; ++i) d.push_back(out[i]);
  return d;
}

Status CheckFloatConvInputs(const KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* b = ctx.input(2);
  if (!x || !w) return ctx.Error("X and W are required");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  if (w->dtype() != x->dtype() || (b && b->dtype() != x->dtype())) return ctx.Error("X, W and B must share a type");
  return Status::Ok();
}

StatusOr<ConvGeom> MakeConvGeom(const KernelContext& ctx, const Dims& x, const Dims& w) {
  const int r = static_cast<int>(x.size());
  if (r < 3 || r > 5) return ctx.Unsupported("only 1-D, 2-D and 3-D convolutions are supported, X is " + DimsToString(x));
  if (static_cast<int>(w.size()) != r) return ctx.Error("X " + DimsToString(x) + " and W " + DimsToString(w) + " ranks differ");
  ConvGeom g;
  g.nsp = r - 2;
  g.n = x[0];
  g.c = x[1];
  g.m = w[0];
  g.group = ctx.attr().GetInt("group", 1);
  if (g.group < 1) return ctx.Error("group must be >= 1");
  if (g.c != w[1] * g.group) return ctx.Error("input channels do not match W dim 1 * group");
  if (g.m % g.group != 0) return ctx.Error("output channels are not divisible by group");
  std::vector<int64_t> wk(w.begin() + 2, w.end());
  ge::nn::Window win;
  Status st = ge::nn::ParseWindow(ctx.attr(), g.nsp, &wk, false, &win);
  if (!st.ok()) return ctx.Error(st.message());
  if (win.kernel != wk) return ctx.Error("kernel_shape does not match W " + DimsToString(w));
  const int off = 3 - g.nsp;
  for (int i = 0; i < g.nsp; ++i) {
    auto o = ge::nn::WindowOutputDim(&win, i, x[i + 2]);
    if (!o.ok()) return ctx.Error(o.status().message());
    g.in[off + i] = x[i + 2];
    g.out[off + i] = *o;
    g.k[off + i] = wk[i];
    g.s[off + i] = win.strides[i];
    g.d[off + i] = win.dilations[i];
    g.pb[off + i] = win.pads[i];
    g.pe[off + i] = win.pads[i + g.nsp];
  }
  return g;
}

namespace {

// Valid output index range [lo, hi) along one dim: those o with 0 <= o * s + off < in.
inline void ValidRange(int64_t in, int64_t s, int64_t off, int64_t* lo, int64_t* hi) {
  *lo = off >= 0 ? 0 : (-off + s - 1) / s;
  *hi = in - off > 0 ? (in - off + s - 1) / s : 0;
}

// col[(ci * K + kidx) * np + j] = x_g[ci, input position of output p0 + j under kernel offset kidx], 0 in padding.
template <typename C>
void Im2Col(const ConvGeom& g, const C* xg, int64_t cg, int64_t p0, int64_t np, C* col) {
  const int64_t q = g.in_size();
  const int64_t ow_n = g.out[2], oh_n = g.out[1];
  int64_t row = 0;
  for (int64_t ci = 0; ci < cg; ++ci) {
    const C* xc = xg + ci * q;
    for (int64_t kd = 0; kd < g.k[0]; ++kd) {
      const int64_t offd = kd * g.d[0] - g.pb[0];
      for (int64_t kh = 0; kh < g.k[1]; ++kh) {
        const int64_t offh = kh * g.d[1] - g.pb[1];
        for (int64_t kw = 0; kw < g.k[2]; ++kw, ++row) {
          const int64_t offw = kw * g.d[2] - g.pb[2];
          int64_t wlo, whi;
          ValidRange(g.in[2], g.s[2], offw, &wlo, &whi);
          C* dst = col + row * np;
          int64_t p = p0;
          int64_t ow = p % ow_n, oh = (p / ow_n) % oh_n, od = p / (ow_n * oh_n);
          int64_t j = 0;
          while (j < np) {
            const int64_t run = std::min(ow_n - ow, np - j);
            const int64_t id = od * g.s[0] + offd, ih = oh * g.s[1] + offh;
            C* dr = dst + j;
            if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
              std::fill(dr, dr + run, C(0));
            } else {
              const C* xrow = xc + (id * g.in[1] + ih) * g.in[2];
              const int64_t a = std::clamp(wlo, ow, ow + run), b = std::clamp(whi, a, ow + run);
              std::fill(dr, dr + (a - ow), C(0));
              const int64_t sw = g.s[2];
              if (sw == 1) {
                for (int64_t o = a; o < b; ++o) dr[o - ow] = xrow[o + offw];
              } else {
                for (int64_t o = a; o < b; ++o) dr[o - ow] = xrow[o * sw + offw];
              }
              std::fill(dr + (b - ow), dr + run, C(0));
            }
            j += run;
            ow = 0;
            if (++oh == oh_n) {
              oh = 0;
              ++od;
            }
          }
        }
      }
    }
  }
}

}  // namespace

template <typename C>
void ConvForward(const ConvGeom& g, const C* x, const C* w, const C* bias, C* y) {
  const int64_t cg = g.c / g.group, mg = g.m / g.group;
  const int64_t kk = g.k_size(), ck = cg * kk;
  const int64_t p = g.out_size(), q = g.in_size();
  bool pointwise = kk == 1 && p == q;
  for (int i = 0; i < 3; ++i) pointwise = pointwise && g.s[i] == 1 && g.pb[i] == 0 && g.pe[i] == 0;
  // Output positions per im2col chunk: bounds the column buffer to about 1M elements.
  int64_t chunk = p;
  if (!pointwise && ck * p > (int64_t{1} << 20)) {
    chunk = std::max<int64_t>(64, ((int64_t{1} << 20) / std::max<int64_t>(ck, 1)) / 16 * 16);
  }
  std::vector<C> col(pointwise ? 0 : static_cast<size_t>(ck * std::min(chunk, p)));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t gi = 0; gi < g.group; ++gi) {
      const C* xg = x + (n * g.c + gi * cg) * q;
      const C* wg = w + gi * mg * ck;
      C* yg = y + (n * g.m + gi * mg) * p;
      for (int64_t p0 = 0; p0 < p; p0 += chunk) {
        const int64_t np = std::min(chunk, p - p0);
        if (pointwise) {
          Gemm(mg, np, ck, wg, ck, xg + p0, q, yg + p0, p);
        } else {
          Im2Col(g, xg, cg, p0, np, col.data());
          Gemm(mg, np, ck, wg, ck, col.data(), np, yg + p0, p);
        }
      }
      if (bias) {
        for (int64_t mi = 0; mi < mg; ++mi) {
          const C b = bias[gi * mg + mi];
          C* row = yg + mi * p;
          for (int64_t j = 0; j < p; ++j) row[j] += b;
        }
      }
    }
  }
}

template void ConvForward<float>(const ConvGeom&, const float*, const float*, const float*, float*);
template void ConvForward<double>(const ConvGeom&, const double*, const double*, const double*, double*);
template void ConvForward<int32_t>(const ConvGeom&, const int32_t*, const int32_t*, const int32_t*, int32_t*);

}  // namespace ge::ref::nn
