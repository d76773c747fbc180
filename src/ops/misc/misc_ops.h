// Per-topic registration of the misc op family.
#pragma once
#include "ops/op_schema.h"

namespace ge::ops::misc {

void RegisterRandomOps(OpRegistry* r);    // Bernoulli, RandomUniform(Like), RandomNormal(Like), Multinomial
void RegisterTrainingOps(OpRegistry* r);  // Adagrad, Adam, Momentum (ai.onnx.preview.training)
void RegisterTextOps(OpRegistry* r);      // StringNormalizer, TfIdfVectorizer

}  // namespace ge::ops::misc
