#include "kernels/exec/matmul_kernel.h"

#include <algorithm>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/packed_gemm.h"
#include "ops/fused/fused_activation.h"

namespace ge::exec {
namespace {

class PackedMatMulKernel final : public PreparedKernel {
 public:
  PackedMatMulKernel(int num_inputs, int num_outputs) {
    fn_ = &PackedMatMulKernel::Task;
    num_inputs_ = num_inputs;
    num_outputs_ = num_outputs;
  }
  const char* impl_name() const override { return "exec.packed_gemm_avx2"; }

  int64_t m = 0, k = 0;
  PackedMatrix b;
  int bias_input = -1;              // the slot holding a [N] bias, or -1
  std::vector<float> const_bias;    // a constant bias folded at prepare (Gemm's C), else empty
  GemmActivation act = GemmActivation::kNone;

 private:
  static constexpr int64_t kRowChunk = 24;  // 4 register tiles of rows per work item

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto* kr = &BoundKernel<PackedMatMulKernel>(*bd);
    const float* a = static_cast<const float*>(bd->io.inputs[0]);
    float* c = static_cast<float*>(bd->io.outputs[0]);
    const float* bias = !kr->const_bias.empty() ? kr->const_bias.data()
                        : kr->bias_input >= 0   ? static_cast<const float*>(bd->io.inputs[kr->bias_input])
                                                : nullptr;
    const int64_t n = kr->b.n, panels = (n + kPanel - 1) / kPanel;
    const int64_t chunks = (kr->m + kRowChunk - 1) / kRowChunk;
    auto body = [&](size_t begin, size_t end) {
      for (size_t item = begin; item < end; ++item) {
        const int64_t q = static_cast<int64_t>(item) % panels, r = static_cast<int64_t>(item) / panels;
        PackedGemm(r * kRowChunk, std::min(kr->m, (r + 1) * kRowChunk), q, q + 1, a, kr->k, kr->b, bias, kr->act,
                   c, n);
      }
    };
    const int64_t items = panels * chunks;
    if (ctx.pool != nullptr && kr->m * n * kr->k >= 64 * 1024 && items > 1) {
      ctx.pool->ParallelFor(static_cast<size_t>(items), body, 1);
    } else {
      body(0, static_cast<size_t>(items));
    }
    return Status::Ok();
  }
};

bool Float2dConst(const Tensor* t) { return t != nullptr && t->dtype() == DataType::kFloat && t->rank() == 2; }

}  // namespace

std::unique_ptr<PreparedKernel> PrepareMatMulPacked(const PrepareRequest& r) {
  if (!PackedGemmAllowed(r.max_isa)) return nullptr;
  const ir::Node& node = *r.node;
  const bool ge = node.domain() == "ge";
  const bool onnx = node.domain().empty() || node.domain() == "ai.onnx";
  const bool matmul = (onnx && node.op_type() == "MatMul") || (ge && node.op_type() == "FusedMatMul");
  const bool gemm = (onnx && node.op_type() == "Gemm") || (ge && node.op_type() == "FusedGemm");
  if (!matmul && !gemm) return nullptr;
  if (node.num_outputs() != 1 || !OutputPresent(r, 0) || !InputPresent(r, 0) || !InputPresent(r, 1)) return nullptr;
  for (size_t i = 0; i < r.input_descs.size(); ++i) {
    if (InputPresent(r, static_cast<int>(i)) &&
        (r.input_descs[i].dtype != DataType::kFloat || IsNonPlainLayout(r.input_descs[i].format))) {
      return nullptr;
    }
  }
  const TensorDesc& y = r.output_descs[0];
  if (y.dtype != DataType::kFloat || IsNonPlainLayout(y.format)) return nullptr;
  if (!r.input_descs[0].shape.IsFullyKnown() || !y.shape.IsFullyKnown()) return nullptr;  // M is fixed at prepare
  GemmActivation act = GemmActivation::kNone;
  if (ge) {
    fused::ActivationSpec spec;
    if (!fused::ParseActivation(node.attrs(), &spec).ok()) return nullptr;
    if (spec.kind == fused::Activation::kRelu) {
      act = GemmActivation::kRelu;
    } else if (spec.kind != fused::Activation::kNone) {
      return nullptr;
    }
  }
  const Tensor* b = ConstInput(r, 1);
  if (!Float2dConst(b)) return nullptr;
  const Dims& a_dims = r.input_descs[0].shape.dims();
  auto k = std::make_unique<PackedMatMulKernel>(node.num_inputs(), 1);
  k->act = act;
  if (matmul) {
    if (a_dims.size() < 2 || a_dims.back() != b->dim(0)) return nullptr;
    k->k = b->dim(0);
    k->m = NumElements(a_dims) / k->k;
    k->b = PackB(b->data<float>(), b->dim(0), b->dim(1), b->dim(1), false);
    if (node.num_inputs() > 2 && InputPresent(r, 2)) {  // FusedMatMul's bias over N
      if (r.input_descs[2].shape.dims() != Dims{b->dim(1)}) return nullptr;
      k->bias_input = 2;
    }
  } else {
    const ir::AttrMap& at = node.attrs();
    if (at.GetInt("transA", 0) != 0 || at.GetFloat("alpha", 1.f) != 1.f || a_dims.size() != 2) return nullptr;
    const bool tb = at.GetInt("transB", 0) != 0;
    const int64_t kk = tb ? b->dim(1) : b->dim(0), n = tb ? b->dim(0) : b->dim(1);
    if (a_dims[1] != kk) return nullptr;
    k->k = kk;
    k->m = a_dims[0];
    k->b = PackB(b->data<float>(), kk, n, b->dim(1), tb);
    if (node.num_inputs() > 2 && InputPresent(r, 2)) {  // C: a [N] or [1, N] constant, times beta
      const Tensor* c = ConstInput(r, 2);
      if (c == nullptr || c->numel() != n || (c->rank() == 2 && c->dim(0) != 1) || c->rank() > 2) return nullptr;
      const float beta = at.GetFloat("beta", 1.f);
      k->const_bias.resize(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) k->const_bias[j] = beta * c->data<float>()[j];
    }
  }
  Dims want = a_dims;
  want.back() = k->b.n;
  if (matmul ? y.shape.dims() != want : y.shape.dims() != Dims{k->m, k->b.n}) return nullptr;
  return k;
}

}  // namespace ge::exec
