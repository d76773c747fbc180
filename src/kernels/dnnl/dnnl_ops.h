// The op families of the dnnl engine. Per family: Supported (the planner's verdict, also for non-static shapes,
// where only attributes, dtypes and ranks are checked) and Prepare (plan + primitives; nullptr when unsupported).
// Prepare may throw dnnl::error; PrepareDnnlKernel catches at the edge.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/dnnl/dnnl_util.h"

namespace ge::dnnl_kernels {

using KernelPtr = std::unique_ptr<exec::PreparedKernel>;

// Conv, ge::FusedConv, ConvTranspose (conv_kernels.cc)
bool ConvSupported(const OpView& v);
KernelPtr PrepareConv(const OpView& v);
// The kernel variants (kernels/exec/kernel_variant.h) a static Conv / ge::FusedConv can be prepared as, by name.
std::vector<std::string> ConvVariants(const OpView& v);
bool ConvTransposeSupported(const OpView& v);
KernelPtr PrepareConvTranspose(const OpView& v);
// MatMul, ge::FusedMatMul (matmul_kernels.cc); Gemm, ge::FusedGemm (gemm_kernels.cc)
bool MatMulSupported(const OpView& v);
KernelPtr PrepareMatMul(const OpView& v);
bool GemmSupported(const OpView& v);
KernelPtr PrepareGemm(const OpView& v);
// MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool (pool_kernels.cc)
bool PoolSupported(const OpView& v);
KernelPtr PreparePool(const OpView& v);
// Softmax, LogSoftmax (softmax_kernels.cc)
bool SoftmaxSupported(const OpView& v);
KernelPtr PrepareSoftmax(const OpView& v);
// LayerNormalization, BatchNormalization (norm_kernels.cc)
bool NormSupported(const OpView& v);
KernelPtr PrepareNorm(const OpView& v);
// ge::Attention (attention_kernels.cc)
bool AttentionSupported(const OpView& v);
KernelPtr PrepareAttention(const OpView& v);
// Relu ... Clip (eltwise_kernels.cc)
bool EltwiseSupported(const OpView& v);
KernelPtr PrepareEltwise(const OpView& v);
// Add Sub Mul Div Max Min (binary_kernels.cc)
bool BinarySupported(const OpView& v);
KernelPtr PrepareBinary(const OpView& v);
// Concat, Sum (concat_sum_kernels.cc)
bool ConcatSumSupported(const OpView& v);
KernelPtr PrepareConcatSum(const OpView& v);
// LSTM, GRU (rnn_kernels.cc)
bool RnnSupported(const OpView& v);
KernelPtr PrepareRnn(const OpView& v);
// ge::TransData: a reorder between the plain and the NC1HWC0 layout (trans_data_kernels.cc)
bool TransDataSupported(const OpView& v);
KernelPtr PrepareTransData(const OpView& v);

}  // namespace ge::dnnl_kernels
