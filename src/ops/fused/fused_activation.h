// The activation a ge:: fused op applies last: attributes `activation` (a name, "" for none) and
// `activation_params` (floats). Shared by the fused ops' inference, their kernels (ref and dnnl) and the fusion
// passes; header-only so that kernel libraries need not link the ops library.
#pragma once
#include <limits>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/attribute.h"

namespace ge::fused {

enum class Activation { kNone, kRelu, kLeakyRelu, kClip, kSigmoid, kTanh, kHardSigmoid, kHardSwish, kElu, kGelu, kSilu };

struct ActivationInfo {
  const char* name;
  Activation kind;
  int num_params;       // activation_params holds either none (the defaults) or exactly this many
  float defaults[2];    // the ONNX attribute defaults
  const char* params;   // what the parameters mean, for errors
};

// Gelu is the erf form 0.5 * x * (1 + erf(x / sqrt(2))); Silu is x * sigmoid(x). Clip's defaults leave the value
// unbounded (float's lowest and max, as Clip before opset 11).
inline constexpr ActivationInfo kActivations[] = {
    {"", Activation::kNone, 0, {0.f, 0.f}, ""},
    {"Relu", Activation::kRelu, 0, {0.f, 0.f}, ""},
    {"LeakyRelu", Activation::kLeakyRelu, 1, {0.01f, 0.f}, "alpha"},
    {"Clip", Activation::kClip, 2, {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()},
     "min, max"},
    {"Sigmoid", Activation::kSigmoid, 0, {0.f, 0.f}, ""},
    {"Tanh", Activation::kTanh, 0, {0.f, 0.f}, ""},
    {"HardSigmoid", Activation::kHardSigmoid, 2, {0.2f, 0.5f}, "alpha, beta"},
    {"HardSwish", Activation::kHardSwish, 0, {0.f, 0.f}, ""},
    {"Elu", Activation::kElu, 1, {1.0f, 0.f}, "alpha"},
    {"Gelu", Activation::kGelu, 0, {0.f, 0.f}, ""},
    {"Silu", Activation::kSilu, 0, {0.f, 0.f}, ""},
};

struct ActivationSpec {
  Activation kind = Activation::kNone;
  // Resolved parameters, defaults filled in: LeakyRelu/Elu {alpha, -}, Clip {min, max}, HardSigmoid {alpha, beta}.
  float param[2] = {0.f, 0.f};
};

inline const ActivationInfo& InfoOf(Activation kind) {
  for (const ActivationInfo& a : kActivations)
    if (a.kind == kind) return a;
  return kActivations[0];
}

inline const char* ActivationName(Activation kind) { return InfoOf(kind).name; }

// Reads `activation` and `activation_params` (or another pair of attributes: ge::SqueezeExcite's gate); the error
// is a bare message for the caller to prefix.
inline Status ParseActivation(const ir::AttrMap& attrs, ActivationSpec* out, const char* name_key = "activation",
                              const char* params_key = "activation_params") {
  const std::string name = attrs.GetString(name_key, "");
  const std::vector<float> params = attrs.GetFloats(params_key);
  for (const ActivationInfo& a : kActivations) {
    if (name != a.name) continue;
    if (!params.empty() && static_cast<int>(params.size()) != a.num_params) {
      std::string want = a.num_params == 0 ? "none" : std::to_string(a.num_params) + " (" + a.params + ")";
      return InvalidArgument(std::string(name_key) + " '" + name + "' takes " + want + " " + params_key + ", got " +
                             std::to_string(params.size()));
    }
    out->kind = a.kind;
    for (int i = 0; i < 2; ++i) out->param[i] = i < static_cast<int>(params.size()) ? params[i] : a.defaults[i];
    return Status::Ok();
  }
  std::string known;
  for (const ActivationInfo& a : kActivations) {
    if (a.kind != Activation::kNone) known += std::string(", ") + a.name;
  }
  return InvalidArgument(std::string("unknown ") + name_key + " '" + name + "' (expected one of \"\"" + known + ")");
}

}  // namespace ge::fused
