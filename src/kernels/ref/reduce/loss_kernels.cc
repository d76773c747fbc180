// Reference kernels of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opset 12/13).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/ref/reduce/reduce_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using reduce_util::StoreAs;

// The negative log-likelihood of `logp` (N, C, d1..dk) at `target` (N, d1..dk), weighted by weight[target]
// (1 without weights); targets equal to ignore_index contribute 0 loss and 0 weight. "mean" divides the weighted
// sum by the sum of the weights that were used (which is N*d1*..*dk without weights or ignored targets).
template <typename T>
Status RunNll(KernelContext& ctx, const T* logp, const Dims& xdims, const Tensor& target, const Tensor* weight) {
  const int64_t N = xdims[0], C = xdims[1];
  int64_t D = 1;
  for (size_t i = 2; i < xdims.size(); ++i) D *= xdims[i];
  const std::vector<int64_t> t = target.ToInt64Vector();
  const T* w = weight ? weight->data<T>() : nullptr;
  const bool has_ignore = ctx.attr().Has("ignore_index");
  const int64_t ignore = ctx.attr().GetInt("ignore_index", 0);
  const std::string reduction = ctx.attr().GetString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    return ctx.Error("reduction must be none, sum or mean, got '" + reduction + "'");
  }
  std::vector<double> loss(N * D);
  double loss_sum = 0, weight_sum = 0;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t d = 0; d < D; ++d) {
      const int64_t c = t[n * D + d];
      double l = 0, wt = 0;
      if (!(has_ignore && c == ignore)) {
        if (c < 0 || c >= C) {
          return ctx.Error("target value " + std::to_string(c) + " is outside [0, " + std::to_string(C) + ")");
        }
        wt = w ? static_cast<double>(w[c]) : 1.0;
        l = -static_cast<double>(logp[(n * C + c) * D + d]) * wt;
      }
      loss[n * D + d] = l;
      loss_sum += l;
      weight_sum += wt;
    }
  }
  if (reduction == "none") {
    GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, target.dims(), DataTypeOf<T>::value));
    T* yd = y->data<T>();
    for (int64_t i = 0; i < N * D; ++i) yd[i] = StoreAs<T>(loss[i]);
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {}, DataTypeOf<T>::value));
  y->data<T>()[0] = StoreAs<T>(reduction == "sum" ? loss_sum : loss_sum / weight_sum);
  return Status::Ok();
}

// Validates scores/target/weight shapes for both losses.
Status CheckLossInputs(KernelContext& ctx, const Tensor** x, const Tensor** target, const Tensor** weight) {
  *x = ctx.input(0);
  *target = ctx.input(1);
  *weight = ctx.input(2);
  if (!*x || !*target) return ctx.Error("inputs 0 and 1 must be tensors");
  const Dims& xd = (*x)->dims();
  const Dims& td = (*target)->dims();
  if (xd.size() < 2) return ctx.Error("input 0 must have rank >= 2, got " + DimsToString(xd));
  bool match = td.size() + 1 == xd.size() && td[0] == xd[0];
  for (size_t i = 1; match && i < td.size(); ++i) match = td[i] == xd[i + 1];
  if (!match) return ctx.Error("target shape " + DimsToString(td) + " does not fit input shape " + DimsToString(xd));
  if ((*target)->dtype() != DataType::kInt32 && (*target)->dtype() != DataType::kInt64) {
    return ctx.Error("target must be int32 or int64");
  }
  if (*weight) {
    if ((*weight)->dtype() != (*x)->dtype()) return ctx.Error("weight must have the input's data type");
    if ((*weight)->rank() != 1 || (*weight)->dim(0) != xd[1]) {
      return ctx.Error("weight must have shape [C] = [" + std::to_string(xd[1]) + "]");
    }
  }
  return Status::Ok();
}

Status RefNll(KernelContext& ctx) {
  const Tensor *x, *target, *weight;
  GE_RETURN_IF_ERROR(CheckLossInputs(ctx, &x, &target, &weight));
  Status st;
  GE_RETURN_IF_ERROR(VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    st = RunNll<T>(ctx, x->data<T>(), x->dims(), *target, weight);
  }));
  return st;
}

// log_softmax over axis 1 of x viewed as [N, C, D].
template <typename T>
void LogSoftmaxAxis1(const T* x, T* y, int64_t N, int64_t C, int64_t D) {
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  std::vector<Acc> mx(D), sum(D);
  for (int64_t n = 0; n < N; ++n) {
    const T* xn = x + n * C * D;
    T* yn = y + n * C * D;
    std::fill(mx.begin(), mx.end(), -INFINITY);
    std::fill(sum.begin(), sum.end(), Acc(0));
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t d = 0; d < D; ++d) mx[d] = std::max(mx[d], static_cast<Acc>(xn[c * D + d]));
    }
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t d = 0; d < D; ++d) sum[d] += std::exp(static_cast<Acc>(xn[c * D + d]) - mx[d]);
    }
    for (int64_t d = 0; d < D; ++d) sum[d] = mx[d] + std::log(sum[d]);
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t d = 0; d < D; ++d) yn[c * D + d] = StoreAs<T>(static_cast<Acc>(xn[c * D + d]) - sum[d]);
    }
  }
}

Status RefSoftmaxCrossEntropy(KernelContext& ctx) {
  const Tensor *x, *target, *weight;
  GE_RETURN_IF_ERROR(CheckLossInputs(ctx, &x, &target, &weight));
  const Dims& xd = x->dims();
  int64_t D = 1;
  for (size_t i = 2; i < xd.size(); ++i) D *= xd[i];
  GE_ASSIGN_OR_RETURN(Tensor logp, Tensor::Create(x->dtype(), xd));
  Status st;
  GE_RETURN_IF_ERROR(VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    LogSoftmaxAxis1<T>(x->data<T>(), logp.data<T>(), xd[0], xd[1], D);
    st = RunNll<T>(ctx, logp.data<T>(), xd, *target, weight);
  }));
  GE_RETURN_IF_ERROR(st);
  if (ctx.num_outputs() > 1) ctx.SetOutput(1, logp);
  return Status::Ok();
}

}  // namespace

void RegisterLossRefKernels(KernelRegistry* r) {
  r->Add(OpId::kNegativeLogLikelihoodLoss, RefNll);
  r->Add(OpId::kSoftmaxCrossEntropyLoss, RefSoftmaxCrossEntropy);
}

}  // namespace ge::ref
