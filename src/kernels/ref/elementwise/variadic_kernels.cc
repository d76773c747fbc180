// Variadic kernels with numpy broadcasting: Max Min Sum Mean. Inputs fold left to right into an accumulator of
// the compute type (float for float16 / bfloat16).
#include <cmath>
#include <string>
#include <vector>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

enum class Fold { kMax, kMin, kSum, kMean };

template <Fold kFold, typename C>
inline C Combine(C acc, C v) {
  if constexpr (kFold == Fold::kMax || kFold == Fold::kMin) {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(v)) return v;  // NaN propagates like numpy.maximum / minimum
    }
    return (kFold == Fold::kMax ? acc < v : v < acc) ? v : acc;
  } else if constexpr (kIsInt<C>) {
    return WrapAdd(acc, v);
  } else {
    return acc + v;
  }
}

template <Fold kFold>
Status RunFold(KernelContext& ctx) {
  std::vector<const Tensor*> ins;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    GE_ASSIGN_OR_RETURN(const Tensor* t, TensorInput(ctx, i));
    if (!ins.empty() && t->dtype() != ins[0]->dtype()) return ctx.Error("all inputs must have the same type");
    ins.push_back(t);
  }
  if (ins.empty()) return ctx.Error("needs at least one input");
  GE_ASSIGN_OR_RETURN(Dims dims, BroadcastAll(ctx, 0, ctx.num_inputs() - 1));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, dims, ins[0]->dtype()));
  return DtypeError(
      ctx, VisitNumericType(ins[0]->dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        const int64_t n = y->numel();
        std::vector<C> buffer;
        C* acc;
        if constexpr (std::is_same_v<C, T>) {
          acc = y->data<T>();
        } else {
          buffer.resize(static_cast<size_t>(n));
          acc = buffer.data();
        }
        const T* first = ins[0]->data<T>();
        ForEachRun(dims, {ins[0]->dims()}, [&](int64_t o, const int64_t* off, int64_t len, const int64_t* st) {
          for (int64_t i = 0; i < len; ++i) acc[o + i] = static_cast<C>(first[off[0] + i * st[0]]);
        });
        for (size_t k = 1; k < ins.size(); ++k) {
          const T* p = ins[k]->data<T>();
          ForEachRun(dims, {ins[k]->dims()}, [&](int64_t o, const int64_t* off, int64_t len, const int64_t* st) {
            for (int64_t i = 0; i < len; ++i)
              acc[o + i] = Combine<kFold>(acc[o + i], static_cast<C>(p[off[0] + i * st[0]]));
          });
        }
        if constexpr (kFold == Fold::kMean) {
          const C count = static_cast<C>(ins.size());
          for (int64_t i = 0; i < n; ++i) acc[i] = static_cast<C>(acc[i] / count);
        }
        if constexpr (!std::is_same_v<C, T>) {
          T* out = y->data<T>();
          for (int64_t i = 0; i < n; ++i) out[i] = FromCompute<T>(acc[i]);
        }
      }));
}

}  // namespace

void RegisterVariadicKernels(KernelRegistry* r) {
  r->Add(OpId::kMax, RunFold<Fold::kMax>);
  r->Add(OpId::kMin, RunFold<Fold::kMin>);
  r->Add(OpId::kSum, RunFold<Fold::kSum>);
  r->Add(OpId::kMean, RunFold<Fold::kMean>);
}

}  // namespace ge::ref::elementwise
