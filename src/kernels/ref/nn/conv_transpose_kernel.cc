// ConvTranspose: per group, col[Mg*K, Q] = W_g^T * X_g by GEMM, then col2im scatter-adds into Y.
#include <algorithm>

#include "kernels/ref/nn/conv_core.h"
#include "kernels/ref/nn/gemm.h"
#include "kernels/ref/nn/nn_kernels_internal.h"
#include "kernels/ref/kernel_context.h"
#include "ops/nn/window_util.h"

namespace ge::ref::nn {
namespace {

struct TGeom {
  int64_t n = 0, c = 0, m = 0, group = 1;
  int nsp = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0};
};

StatusOr<TGeom> MakeTGeom(const KernelContext& ctx, const Dims& x, const Dims& w) {
  const int r = static_cast<int>(x.size());
  if (r < 3 || r > 5) return ctx.Unsupported("only 1-D, 2-D and 3-D ConvTranspose is supported");
  if (static_cast<int>(w.size()) != r) return ctx.Error("X and W ranks differ");
  TGeom g;
  g.nsp = r - 2;
  g.n = x[0];
  g.c = x[1];
  g.group = ctx.attr().GetInt("group", 1);
  if (g.group < 1) return ctx.Error("group must be >= 1");
  if (w[0] != g.c) return ctx.Error("W dim 0 must equal the input channels");
  if (g.c % g.group != 0) return ctx.Error("input channels are not divisible by group");
  g.m = w[1] * g.group;
  std::vector<int64_t> wk(w.begin() + 2, w.end());
  ge::nn::Window win;
  Status st = ge::nn::ParseWindow(ctx.attr(), g.nsp, &wk, false, &win);
  if (!st.ok()) return ctx.Error(st.message());
  if (win.kernel != wk) return ctx.Error("kernel_shape does not match W " + DimsToString(w));
  ge::nn::TransposeExtras ex;
  st = ge::nn::ParseTransposeExtras(ctx.attr(), g.nsp, &ex);
  if (!st.ok()) return ctx.Error(st.message());
  const int off = 3 - g.nsp;
  for (int i = 0; i < g.nsp; ++i) {
    auto o = ge::nn::TransposeOutputDim(&win, ex, i, x[i + 2]);
    if (!o.ok()) return ctx.Error(o.status().message());
    g.in[off + i] = x[i + 2];
    g.out[off + i] = *o;
    g.k[off + i] = wk[i];
    g.s[off + i] = win.strides[i];
    g.d[off + i] = win.dilations[i];
    g.pb[off + i] = win.pads[i];
  }
  return g;
}

// Input positions i along one dim whose output position i * s + off lies in [0, out).
inline void ValidRange(int64_t out, int64_t s, int64_t off, int64_t* lo, int64_t* hi) {
  *lo = off >= 0 ? 0 : (-off + s - 1) / s;
  *hi = out - off > 0 ? (out - off + s - 1) / s : 0;
}

// y_g[mi, out pos] += col[(mi * K + kidx) * nq + j] for input positions q0 + j.
template <typename C>
void Col2Im(const TGeom& g, const C* col, int64_t mg, int64_t q0, int64_t nq, C* yg) {
  const int64_t p = g.out[0] * g.out[1] * g.out[2];
  int64_t row = 0;
  for (int64_t mi = 0; mi < mg; ++mi) {
    C* ym = yg + mi * p;
    for (int64_t kd = 0; kd < g.k[0]; ++kd) {
      const int64_t offd = kd * g.d[0] - g.pb[0];
      for (int64_t kh = 0; kh < g.k[1]; ++kh) {
        const int64_t offh = kh * g.d[1] - g.pb[1];
        for (int64_t kw = 0; kw < g.k[2]; ++kw, ++row) {
          const int64_t offw = kw * g.d[2] - g.pb[2];
          int64_t wlo, whi;
          ValidRange(g.out[2], g.s[2], offw, &wlo, &whi);
          const C* src = col + row * nq;
          int64_t iw = q0 % g.in[2], ih = (q0 / g.in[2]) % g.in[1], id = q0 / (g.in[2] * g.in[1]);
          int64_t j = 0;
          while (j < nq) {
            const int64_t run = std::min(g.in[2] - iw, nq - j);
            const int64_t od = id * g.s[0] + offd, oh = ih * g.s[1] + offh;
            if (od >= 0 && od < g.out[0] && oh >= 0 && oh < g.out[1]) {
              C* yrow = ym + (od * g.out[1] + oh) * g.out[2];
              const int64_t a = std::clamp(wlo, iw, iw + run), b = std::clamp(whi, a, iw + run);
              const int64_t shift = j - iw;
              for (int64_t i = a; i < b; ++i) yrow[i * g.s[2] + offw] += src[i + shift];
            }
            j += run;
            iw = 0;
            if (++ih == g.in[1]) {
              ih = 0;
              ++id;
            }
          }
        }
      }
    }
  }
}

template <typename C>
Status RunConvTranspose(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* b) {
  GE_ASSIGN_OR_RETURN(TGeom g, MakeTGeom(ctx, x.dims(), w.dims()));
  if (b && (b->rank() != 1 || b->numel() != g.m)) return ctx.Error("bias must have shape [M]");
  Dims ydims = {g.n, g.m};
  for (int i = 3 - g.nsp; i < 3; ++i) ydims.push_back(g.out[i]);
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, ydims, x.dtype()));
  std::vector<C> xb, wb, bb, yb;
  const C* xp = AsCompute(x, &xb);
  const C* wp = AsCompute(w, &wb);
  const C* bp = b ? AsCompute(*b, &bb) : nullptr;
  C* yp = ComputeOut(y, &yb);
  const int64_t cg = g.c / g.group, mg = g.m / g.group;
  const int64_t kk = g.k[0] * g.k[1] * g.k[2], mk = mg * kk;
  const int64_t q = g.in[0] * g.in[1] * g.in[2], p = g.out[0] * g.out[1] * g.out[2];
  // W_g^T: [Mg*K, Cg] per group.
  std::vector<C> wt(static_cast<size_t>(g.c * mk));
  for (int64_t gi = 0; gi < g.group; ++gi)
    for (int64_t ci = 0; ci < cg; ++ci)
      for (int64_t r = 0; r < mk; ++r) wt[(gi * mk + r) * cg + ci] = wp[(gi * cg + ci) * mk + r];
  int64_t chunk = q;
  if (mk * q > (int64_t{1} << 20)) chunk = std::max<int64_t>(64, ((int64_t{1} << 20) / std::max<int64_t>(mk, 1)) / 16 * 16);
  std::vector<C> col(static_cast<size_t>(mk * std::min(chunk, q)));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t gi = 0; gi < g.group; ++gi) {
      const C* xg = xp + (n * g.c + gi * cg) * q;
      C* yg = yp + (n * g.m + gi * mg) * p;
      for (int64_t q0 = 0; q0 < q; q0 += chunk) {
        const int64_t nq = std::min(chunk, q - q0);
        Gemm(mk, nq, cg, wt.data() + gi * mk * cg, cg, xg + q0, q, col.data(), nq);
        Col2Im(g, col.data(), mg, q0, nq, yg);
      }
      if (bp) {
        for (int64_t mi = 0; mi < mg; ++mi) {
          const C bv = bp[gi * mg + mi];
          C* row = yg + mi * p;
          for (int64_t j = 0; j < p; ++j) row[j] += bv;
        }
      }
    }
  }
  StoreCompute(yb, y);
  return Status::Ok();
}

Status RefConvTranspose(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* b = ctx.input(2);
  GE_RETURN_IF_ERROR(CheckFloatConvInputs(ctx));
  if (x->dtype() == DataType::kDouble) return RunConvTranspose<double>(ctx, *x, *w, b);
  return RunConvTranspose<float>(ctx, *x, *w, b);
}

}  // namespace

void RegisterConvTransposeKernels(KernelRegistry* r) { r->Add(OpId::kConvTranspose, RefConvTranspose); }

}  // namespace ge::ref::nn
