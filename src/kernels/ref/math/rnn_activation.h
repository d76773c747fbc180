// Activation functions of the recurrent ops (ONNX RNN/GRU/LSTM `activations`, `activation_alpha/beta`).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge::ref::math {

struct Activation {
  enum class Kind { kSigmoid, kTanh, kRelu, kAffine, kLeakyRelu, kThresholdedRelu, kScaledTanh, kHardSigmoid, kElu,
                    kSoftsign, kSoftplus };
  Kind kind = Kind::kSigmoid;
  float alpha = 0.f, beta = 0.f;
};

// Parses `names` (case-insensitive). alphas/betas are consumed in order by the functions that take them; a
// function finding none left gets the default of the matching ONNX operator.
StatusOr<std::vector<Activation>> ParseActivations(const std::vector<std::string>& names,
                                                   const std::vector<float>& alphas, const std::vector<float>& betas);

// x[i] = act(x[i]) for i < n.
template <typename C>
void ApplyActivation(const Activation& a, C* x, int64_t n) {
  const C alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta);
  switch (a.kind) {
    case Activation::Kind::kSigmoid:
      for (int64_t i = 0; i < n; ++i) x[i] = C(1) / (C(1) + std::exp(-x[i]));
      break;
    case Activation::Kind::kTanh:
      for (int64_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
      break;
    case Activation::Kind::kRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] > C(0) ? x[i] : C(0);
      break;
    case Activation::Kind::kAffine:
      for (int64_t i = 0; i < n; ++i) x[i] = alpha * x[i] + beta;
      break;
    case Activation::Kind::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] >= C(0) ? x[i] : alpha * x[i];
      break;
    case Activation::Kind::kThresholdedRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] > alpha ? x[i] : C(0);
      break;
    case Activation::Kind::kScaledTanh:
      for (int64_t i = 0; i < n; ++i) x[i] = alpha * std::tanh(beta * x[i]);
      break;
    case Activation::Kind::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) {
        C v = alpha * x[i] + beta;
        x[i] = v < C(0) ? C(0) : v > C(1) ? C(1) : v;
      }
      break;
    case Activation::Kind::kElu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] >= C(0) ? x[i] : alpha * (std::exp(x[i]) - C(1));
      break;
    case Activation::Kind::kSoftsign:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] / (C(1) + std::fabs(x[i]));
      break;
    case Activation::Kind::kSoftplus:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] > C(20) ? x[i] : std::log1p(std::exp(x[i]));
      break;
  }
}

}  // namespace ge::ref::math
