// Recognizes the activation a value feeds, for ActivationFusion: one ONNX activation node (Relu, LeakyRelu, Clip
// with constant bounds, Sigmoid, Tanh, HardSigmoid, HardSwish, Elu) or a decomposed one as exporters write it:
// Silu = Mul(x, Sigmoid(x)), and the erf GELU of torch.onnx (opsets 13-17) and of BERT-style models:
//   d = Div(x, sqrt(2)) (or Mul(x, 1/sqrt(2))), e1 = Add(Erf(d), 1), then 0.5 * x * e1 in any of
//   Mul(Mul(x, e1), 0.5), Mul(Mul(x, 0.5), e1), Mul(x, Mul(e1, 0.5)); operands of Add and Mul in either order.
#pragma once
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "ops/fused/fused_activation.h"

namespace ge::compiler {

struct ActivationMatch {
  fused::Activation kind = fused::Activation::kNone;
  std::vector<float> params;        // activation_params, complete
  std::vector<ir::Node*> nodes;     // the nodes the activation replaces
  ir::Value* output = nullptr;      // what the last of them produces
};

// Matches the activation that consumes x, when every use of x belongs to it, x and every value inside the pattern
// may disappear (scope.Internal), and the nodes may be removed. x must have a known floating-point dtype; `opset`
// is the model's ai.onnx version (Clip's bounds are attributes before 11). Exact semantics are kept: a Clip bound
// that float cannot hold exactly (double models) does not match.
bool MatchActivation(const FusionScope& scope, ir::Value* x, int64_t opset, ActivationMatch* out);

}  // namespace ge::compiler
