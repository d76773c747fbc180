// Per-topic registration of the math op family (called by RegisterMathOps) and the inference helpers they share.
#pragma once
#include <cstdint>
#include <initializer_list>

#include "ops/infer_util.h"
#include "ops/op_schema.h"

namespace ge::ops {

void RegisterMatMulOps(OpRegistry* r);    // MatMul, Gemm, MatMulInteger, QLinearMatMul, Det
void RegisterQuantizeOps(OpRegistry* r);  // QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
void RegisterRnnOps(OpRegistry* r);       // RNN, GRU, LSTM
void RegisterSignalOps(OpRegistry* r);    // DFT, STFT, Blackman/Hann/HammingWindow, MelWeightMatrix

// Inference of MatMul and Gemm, which ge::FusedMatMul and ge::FusedGemm extend.
Status InferMatMul(InferContext& ctx);
Status InferGemm(InferContext& ctx);

namespace math {

// Dims [begin, end) of s, symbols kept. s must have known rank.
Shape SubShape(const Shape& s, int begin, int end);
// True when input i is present and its dtype is one of `allowed`, or when its dtype is not known yet.
bool DtypeIn(const InferContext& ctx, int i, std::initializer_list<DataType> allowed);
// Error naming input i and its dtype.
Status BadDtype(const InferContext& ctx, int i, const char* what);
// Numpy matmul shape of a @ b, with unknown dims left unknown.
StatusOr<Shape> MatMulShape(const InferContext& ctx, const Shape& a, const Shape& b);
// Value of input i when it is known and holds exactly one element.
bool KnownScalarInt(const InferContext& ctx, int i, int64_t* out);

}  // namespace math
}  // namespace ge::ops
