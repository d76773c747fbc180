// MaxPool (with Indices), AveragePool, LpPool over 1-D/2-D/3-D windows; spatial dims are padded to three.
#include <cmath>
#include <limits>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"
#include "ops/nn/window_util.h"

namespace ge::ref::nn {
namespace {

struct PoolGeom {
  int64_t planes = 0;  // N * C
  int nsp = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0};
  Dims out_dims;
};

StatusOr<PoolGeom> MakePoolGeom(const KernelContext& ctx, const Dims& x) {
  const int r = static_cast<int>(x.size());
  if (r < 3) return ctx.Error("X must have rank >= 3, got " + DimsToString(x));
  if (r > 5) return ctx.Unsupported("pooling over more than 3 spatial dims");
  PoolGeom g;
  g.nsp = r - 2;
  g.planes = x[0] * x[1];
  ge::nn::Window win;
  Status st = ge::nn::ParseWindow(ctx.attr(), g.nsp, nullptr, true, &win);
  if (!st.ok()) return ctx.Error(st.message());
  g.out_dims = {x[0], x[1]};
  const int off = 3 - g.nsp;
  for (int i = 0; i < g.nsp; ++i) {
    auto o = ge::nn::WindowOutputDim(&win, i, x[i + 2]);
    if (!o.ok()) return ctx.Error(o.status().message());
    g.out_dims.push_back(*o);
    g.in[off + i] = x[i + 2];
    g.out[off + i] = *o;
    g.k[off + i] = win.kernel[i];
    g.s[off + i] = win.strides[i];
    g.d[off + i] = win.dilations[i];
    g.pb[off + i] = win.pads[i];
    g.pe[off + i] = win.pads[i + g.nsp];
  }
  return g;
}

// Runs acc over every window: acc.Reset(); acc.Add(value, id, ih, iw) per valid input element;
// *dst = acc.Finish(window positions inside the padded extent). Returns nothing; acc sees plane via SetPlane.
template <typename C, typename T, typename Acc>
void PoolLoop(const PoolGeom& g, const T* x, T* y, Acc& acc) {
  const int64_t q = g.in[0] * g.in[1] * g.in[2];
  const int64_t p = g.out[0] * g.out[1] * g.out[2];
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    const T* xp = x + pl * q;
    T* yp = y + pl * p;
    acc.SetPlane(pl);
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const int64_t sd = od * g.s[0] - g.pb[0];
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const int64_t sh = oh * g.s[1] - g.pb[1];
        for (int64_t ow = 0; ow < g.out[2]; ++ow) {
          const int64_t sw = ow * g.s[2] - g.pb[2];
          acc.Reset();
          int64_t padded = 1;  // window positions inside [-pad_begin, in + pad_end) for count_include_pad
          const int64_t starts[3] = {sd, sh, sw};
          for (int i = 0; i < 3; ++i) {
            int64_t cnt = 0;
            for (int64_t kk = 0; kk < g.k[i]; ++kk) cnt += starts[i] + kk * g.d[i] < g.in[i] + g.pe[i];
            padded *= cnt;
          }
          for (int64_t kd = 0; kd < g.k[0]; ++kd) {
            const int64_t id = sd + kd * g.d[0];
            if (id < 0 || id >= g.in[0]) continue;
            for (int64_t kh = 0; kh < g.k[1]; ++kh) {
              const int64_t ih = sh + kh * g.d[1];
              if (ih < 0 || ih >= g.in[1]) continue;
              const T* xrow = xp + (id * g.in[1] + ih) * g.in[2];
              for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                const int64_t iw = sw + kw * g.d[2];
                if (iw < 0 || iw >= g.in[2]) continue;
                acc.Add(static_cast<C>(xrow[iw]), id, ih, iw);
              }
            }
          }
          yp[(od * g.out[1] + oh) * g.out[2] + ow] = static_cast<T>(acc.Finish(padded));
        }
      }
    }
  }
}

template <typename C>
struct MaxAcc {
  const PoolGeom* g = nullptr;
  int64_t* indices = nullptr;  // may be null
  bool col_major = false;
  int64_t plane = 0, best_idx = -1, out_pos = 0;
  C best = C();
  void SetPlane(int64_t pl) { plane = pl; }
  void Reset() {
    best = std::numeric_limits<C>::lowest();
    best_idx = -1;
  }
  void Add(C v, int64_t id, int64_t ih, int64_t iw) {
    // NaNs are skipped (as the ONNX reference does); the first valid element always counts.
    if (best_idx < 0 ? v == v : v > best) {
      best = v;
      best_idx = col_major ? (iw * g->in[1] + ih) * g->in[0] + id : (id * g->in[1] + ih) * g->in[2] + iw;
    }
  }
  C Finish(int64_t) {
    if (indices) {
      const int64_t q = g->in[0] * g->in[1] * g->in[2];
      indices[out_pos++] = best_idx < 0 ? -1 : plane * q + best_idx;
    }
    return best;
  }
};

// Average (count_include_pad selects the divisor) and Lp (p > 0) pooling accumulate in double.
struct SumAcc {
  int mode = 0;  // 0 average, 1 average counting padding, 2 Lp
  double p = 2;
  double sum = 0;
  int64_t count = 0;
  void SetPlane(int64_t) {}
  void Reset() {
    sum = 0;
    count = 0;
  }
  void Add(double v, int64_t, int64_t, int64_t) {
    if (mode == 2) {
      sum += p == 2 ? v * v : (p == 1 ? std::fabs(v) : std::pow(std::fabs(v), p));
    } else {
      sum += v;
    }
    ++count;
  }
  double Finish(int64_t padded) {
    if (mode == 2) return p == 2 ? std::sqrt(sum) : (p == 1 ? sum : std::pow(sum, 1.0 / p));
    const int64_t div = mode == 1 ? padded : count;
    return div > 0 ? sum / static_cast<double>(div) : 0.0;
  }
};

Status RefMaxPool(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X is required");
  GE_ASSIGN_OR_RETURN(PoolGeom g, MakePoolGeom(ctx, x->dims()));
  int64_t so = ctx.attr().GetInt("storage_order", 0);
  if (so != 0 && so != 1) return ctx.Error("storage_order must be 0 or 1");
  DataType dt = x->dtype();
  if (!IsFloatingPoint(dt) && dt != DataType::kInt8 && dt != DataType::kUint8) {
    return ctx.Error(std::string("unsupported X type ") + DataTypeName(dt));
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, g.out_dims, dt));
  int64_t* ind = nullptr;
  if (ctx.num_outputs() > 1) {
    GE_ASSIGN_OR_RETURN(Tensor * it, ctx.AllocateOutput(1, g.out_dims, DataType::kInt64));
    ind = it->data<int64_t>();
  }
  return VisitNumericType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    MaxAcc<C> acc;
    acc.g = &g;
    acc.indices = ind;
    acc.col_major = so == 1;
    PoolLoop<C>(g, x->data<T>(), y->data<T>(), acc);
  });
}

Status RunSumPool(KernelContext& ctx, int mode, double p) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X is required");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  GE_ASSIGN_OR_RETURN(PoolGeom g, MakePoolGeom(ctx, x->dims()));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, g.out_dims, x->dtype()));
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    SumAcc acc;
    acc.mode = mode;
    acc.p = p;
    PoolLoop<double>(g, x->data<T>(), y->data<T>(), acc);
  });
}

Status RefAveragePool(KernelContext& ctx) {
  int64_t cip = ctx.attr().GetInt("count_include_pad", 0);
  if (cip != 0 && cip != 1) return ctx.Error("count_include_pad must be 0 or 1");
  return RunSumPool(ctx, cip ? 1 : 0, 0);
}

Status RefLpPool(KernelContext& ctx) {
  int64_t p = ctx.attr().GetInt("p", 2);
  if (p < 1) return ctx.Error("p must be >= 1");
  return RunSumPool(ctx, 2, static_cast<double>(p));
}

}  // namespace

void RegisterPoolKernels(KernelRegistry* r) {
  r->Add(OpId::kMaxPool, RefMaxPool);
  r->Add(OpId::kAveragePool, RefAveragePool);
  r->Add(OpId::kLpPool, RefLpPool);
  RegisterGlobalPoolKernels(r);
}

}  // namespace ge::ref::nn
