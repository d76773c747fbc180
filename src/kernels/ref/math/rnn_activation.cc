#include "kernels/ref/math/rnn_activation.h"

#include <cctype>

namespace ge::ref::math {

StatusOr<std::vector<Activation>> ParseActivations(const std::vector<std::string>& names,
                                                   const std::vector<float>& alphas, const std::vector<float>& betas) {
  struct Entry {
    const char* name;
    Activation::Kind kind;
    bool uses_alpha, uses_beta;
    float alpha, beta;
  };
  static constexpr Entry kTable[] = {
      {"sigmoid", Activation::Kind::kSigmoid, false, false, 0.f, 0.f},
      {"tanh", Activation::Kind::kTanh, false, false, 0.f, 0.f},
      {"relu", Activation::Kind::kRelu, false, false, 0.f, 0.f},
      {"affine", Activation::Kind::kAffine, true, true, 1.f, 0.f},
      {"leakyrelu", Activation::Kind::kLeakyRelu, true, false, 0.01f, 0.f},
      {"thresholdedrelu", Activation::Kind::kThresholdedRelu, true, false, 1.f, 0.f},
      {"scaledtanh", Activation::Kind::kScaledTanh, true, true, 1.f, 1.f},
      {"hardsigmoid", Activation::Kind::kHardSigmoid, true, true, 0.2f, 0.5f},
      {"elu", Activation::Kind::kElu, true, false, 1.f, 0.f},
      {"softsign", Activation::Kind::kSoftsign, false, false, 0.f, 0.f},
      {"softplus", Activation::Kind::kSoftplus, false, false, 0.f, 0.f},
  };
  std::vector<Activation> out;
  size_t ai = 0, bi = 0;
  for (const std::string& name : names) {
    std::string lower;
    for (char ch : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    const Entry* e = nullptr;
    for (const Entry& cand : kTable)
      if (lower == cand.name) e = &cand;
    if (!e) return InvalidArgument("unknown activation '" + name + "'");
    Activation a;
    a.kind = e->kind;
    a.alpha = e->alpha;
    a.beta = e->beta;
    if (e->uses_alpha && ai < alphas.size()) a.alpha = alphas[ai++];
    if (e->uses_beta && bi < betas.size()) a.beta = betas[bi++];
    out.push_back(a);
  }
  return out;
}

}  // namespace ge::ref::math
