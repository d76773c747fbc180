// Optimizers of ai.onnx.preview.training (opset 1): Adagrad, Momentum, Adam. Each updates n tensors at once; the
// formulas follow the ONNX operator documents (and the backend tests' numpy references). Float tensors compute
// in float, double in double; R may be float or double independently of X.
#include <cmath>
#include <string>
#include <vector>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/misc/misc_kernels.h"

namespace ge::ref::misc {
namespace {

struct OptimizerArgs {
  double r = 0;
  int64_t t = 0;
  int n = 0;
};

// Checks R, T and `groups` lists of n same-shaped float/double tensors; allocates the `groups - 1` output lists.
StatusOr<OptimizerArgs> Prepare(KernelContext& ctx, int groups) {
  OptimizerArgs a;
  const Tensor* r = ctx.input(0);
  const Tensor* t = ctx.input(1);
  if (!r || r->numel() != 1 || (r->dtype() != DataType::kFloat && r->dtype() != DataType::kDouble)) {
    return ctx.Error("R must be a float or double scalar");
  }
  if (!t || t->numel() != 1 || t->dtype() != DataType::kInt64) return ctx.Error("T must be an int64 scalar");
  a.r = r->GetAsDouble(0);
  a.t = t->GetAsInt64(0);
  const int n_tensors = ctx.num_inputs() - 2;
  if (n_tensors <= 0 || n_tensors % groups != 0 || ctx.num_outputs() != (groups - 1) * (n_tensors / groups)) {
    return ctx.Error("wrong number of inputs or outputs");
  }
  a.n = n_tensors / groups;
  for (int i = 0; i < a.n; ++i) {
    const Tensor* x = ctx.input(2 + i);
    if (!x || (x->dtype() != DataType::kFloat && x->dtype() != DataType::kDouble)) {
      return ctx.Error("X" + std::to_string(i) + " must be a float or double tensor");
    }
    for (int g = 1; g < groups; ++g) {
      const Tensor* o = ctx.input(2 + g * a.n + i);
      if (!o || o->dtype() != x->dtype() || o->dims() != x->dims()) {
        return ctx.Error("input " + std::to_string(2 + g * a.n + i) + " must match X" + std::to_string(i) +
                         " in dtype and shape");
      }
    }
    for (int g = 0; g < groups - 1; ++g) {
      GE_RETURN_IF_ERROR(ctx.AllocateOutput(g * a.n + i, x->dims(), x->dtype()).status());
    }
  }
  return a;
}

// Calls f(T-tag) with T the element type of X_i (float or double).
template <typename F>
void ForXType(const Tensor& x, F&& f) {
  if (x.dtype() == DataType::kDouble) {
    f(TypeTag<double>{});
  } else {
    f(TypeTag<float>{});
  }
}

Status RefAdagrad(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(OptimizerArgs a, Prepare(ctx, 3));
  const double decay = ctx.attr().GetFloat("decay_factor", 0.0f);
  const double eps = ctx.attr().GetFloat("epsilon", 1e-6f);
  const double norm = ctx.attr().GetFloat("norm_coefficient", 0.0f);
  const double r_adj = a.r / (1 + static_cast<double>(a.t) * decay);
  for (int i = 0; i < a.n; ++i) {
    const Tensor& x = *ctx.input(2 + i);
    ForXType(x, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* px = x.data<T>();
      const T* pg = ctx.input(2 + a.n + i)->data<T>();
      const T* ph = ctx.input(2 + 2 * a.n + i)->data<T>();
      T* ox = ctx.outputs[i].tensor.data<T>();
      T* oh = ctx.outputs[a.n + i].tensor.data<T>();
      const T r = static_cast<T>(r_adj), e = static_cast<T>(eps), nc = static_cast<T>(norm);
      for (int64_t k = 0, m = x.numel(); k < m; ++k) {
        const T g = nc * px[k] + pg[k];
        const T h = ph[k] + g * g;
        oh[k] = h;
        ox[k] = px[k] - r * g / (std::sqrt(h) + e);
      }
    });
  }
  return Status::Ok();
}

Status RefMomentum(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(OptimizerArgs a, Prepare(ctx, 3));
  const double alpha = ctx.attr().GetFloat("alpha", 0.0f);
  const double beta = ctx.attr().GetFloat("beta", 0.0f);
  const double norm = ctx.attr().GetFloat("norm_coefficient", 0.0f);
  const std::string mode = ctx.attr().GetString("mode", "");
  if (mode != "standard" && mode != "nesterov") return ctx.Error("mode must be 'standard' or 'nesterov'");
  const bool nesterov = mode == "nesterov";
  // The gradient's coefficient is 1 on the first step (T == 0).
  const double beta_adj = a.t > 0 ? beta : 1.0;
  for (int i = 0; i < a.n; ++i) {
    const Tensor& x = *ctx.input(2 + i);
    ForXType(x, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* px = x.data<T>();
      const T* pg = ctx.input(2 + a.n + i)->data<T>();
      const T* pv = ctx.input(2 + 2 * a.n + i)->data<T>();
      T* ox = ctx.outputs[i].tensor.data<T>();
      T* ov = ctx.outputs[a.n + i].tensor.data<T>();
      const T r = static_cast<T>(a.r), al = static_cast<T>(alpha), be = static_cast<T>(beta_adj);
      const T nc = static_cast<T>(norm);
      for (int64_t k = 0, m = x.numel(); k < m; ++k) {
        const T g = nc * px[k] + pg[k];
        const T v = al * pv[k] + be * g;
        ov[k] = v;
        ox[k] = nesterov ? px[k] - r * (g + al * v) : px[k] - r * v;
      }
    });
  }
  return Status::Ok();
}

Status RefAdam(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(OptimizerArgs a, Prepare(ctx, 4));
  const double alpha = ctx.attr().GetFloat("alpha", 0.9f);
  const double beta = ctx.attr().GetFloat("beta", 0.999f);
  const double eps = ctx.attr().GetFloat("epsilon", 1e-6f);
  const double norm = ctx.attr().GetFloat("norm_coefficient", 0.0f);
  const double norm_post = ctx.attr().GetFloat("norm_coefficient_post", 0.0f);
  // Bias correction of both moments folded into the learning rate (only from the second step on).
  const double r_adj = a.t > 0 ? a.r * std::sqrt(1 - std::pow(beta, static_cast<double>(a.t))) /
                                     (1 - std::pow(alpha, static_cast<double>(a.t)))
                               : a.r;
  for (int i = 0; i < a.n; ++i) {
    const Tensor& x = *ctx.input(2 + i);
    ForXType(x, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* px = x.data<T>();
      const T* pg = ctx.input(2 + a.n + i)->data<T>();
      const T* pv = ctx.input(2 + 2 * a.n + i)->data<T>();
      const T* ph = ctx.input(2 + 3 * a.n + i)->data<T>();
      T* ox = ctx.outputs[i].tensor.data<T>();
      T* ov = ctx.outputs[a.n + i].tensor.data<T>();
      T* oh = ctx.outputs[2 * a.n + i].tensor.data<T>();
      const T al = static_cast<T>(alpha), be = static_cast<T>(beta), e = static_cast<T>(eps);
      const T nc = static_cast<T>(norm), post = static_cast<T>(1 - norm_post), r = static_cast<T>(r_adj);
      for (int64_t k = 0, m = x.numel(); k < m; ++k) {
        const T g = nc * px[k] + pg[k];
        const T v = al * pv[k] + (1 - al) * g;
        const T h = be * ph[k] + (1 - be) * (g * g);
        ov[k] = v;
        oh[k] = h;
        ox[k] = post * (px[k] - r * (v / (std::sqrt(h) + e)));
      }
    });
  }
  return Status::Ok();
}

}  // namespace

void RegisterTrainingKernels(KernelRegistry* r) {
  r->Add(OpId::kTrainingAdagrad, RefAdagrad);
  r->Add(OpId::kTrainingMomentum, RefMomentum);
  r->Add(OpId::kTrainingAdam, RefAdam);
}

}  // namespace ge::ref::misc
