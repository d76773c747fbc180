#include "kernels/exec/concat_kernel.h"

#include <xmmintrin.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"

namespace ge::exec {
namespace {

// Bytes of one input's run per output row and where in the row it goes.
struct ConcatPart {
  size_t run_bytes = 0;
  size_t out_offset = 0;
};

class ConcatKernel final : public PreparedKernel {
 public:
  ConcatKernel(std::vector<ConcatPart> parts, int64_t outer, size_t row_bytes, size_t elem_size);
  const char* impl_name() const override { return "exec.concat"; }

  const std::vector<ConcatPart>& parts() const { return parts_; }
  int64_t outer() const { return outer_; }
  size_t row_bytes() const { return row_bytes_; }
  size_t elem_size() const { return elem_size_; }

 private:
  std::vector<ConcatPart> parts_;  // one per node input; a run of 0 bytes for an empty input
  int64_t outer_ = 1;
  size_t row_bytes_ = 0;
  size_t elem_size_ = 0;
};

constexpr size_t kShortRunBytes = 256;

// Copies `rows` runs of `n` words of W bytes from `in` (contiguous) to `dst` (rows `stride` words apart); the fixed
// size memcpy compiles to one unaligned move.
template <size_t W>
void CopyShortRuns(const char* in, char* dst, int64_t rows, size_t n, size_t stride) {
  for (int64_t r = 0; r < rows; ++r, in += n * W, dst += stride * W) {
    for (size_t e = 0; e < n; ++e) std::memcpy(dst + e * W, in + e * W, W);
  }
}

// Two inputs of one 4-byte word per row (torch.stack of two tensors along a new last axis, as in an interleaved
// rotary embedding): rows [r0, r1) of the output are the two inputs' words interleaved.
void InterleavePairs(const float* a, const float* b, float* y, int64_t r0, int64_t r1) {
  int64_t r = r0;
  for (; r + 4 <= r1; r += 4) {
    const __m128 va = _mm_loadu_ps(a + r), vb = _mm_loadu_ps(b + r);
    _mm_storeu_ps(y + 2 * r, _mm_unpacklo_ps(va, vb));
    _mm_storeu_ps(y + 2 * r + 4, _mm_unpackhi_ps(va, vb));
  }
  for (; r < r1; ++r) {
    y[2 * r] = a[r];
    y[2 * r + 1] = b[r];
  }
}

bool IsPairInterleave(const ConcatKernel& k) {
  return k.parts().size() == 2 && k.elem_size() == 4 && k.parts()[0].run_bytes == 4 && k.parts()[1].run_bytes == 4;
}

// Copies rows [r0, r1) of every input into the output.
void CopyRows(const ConcatKernel& k, const KernelBinding& b, int64_t r0, int64_t r1) {
  auto* out = static_cast<char*>(b.io.outputs[0]);
  if (IsPairInterleave(k)) {
    InterleavePairs(static_cast<const float*>(b.io.inputs[0]), static_cast<const float*>(b.io.inputs[1]),
                    reinterpret_cast<float*>(out), r0, r1);
    return;
  }
  for (size_t i = 0; i < k.parts().size(); ++i) {
    const ConcatPart& part = k.parts()[i];
    if (part.run_bytes == 0) continue;
    const char* in = static_cast<const char*>(b.io.inputs[i]) + r0 * part.run_bytes;
    char* dst = out + r0 * k.row_bytes() + part.out_offset;
    const int64_t rows = r1 - r0;
    if (part.run_bytes > kShortRunBytes) {
      for (int64_t r = 0; r < rows; ++r, in += part.run_bytes, dst += k.row_bytes()) {
        std::memcpy(dst, in, part.run_bytes);
      }
    } else if (part.run_bytes % 16 == 0 && k.row_bytes() % 16 == 0) {
      // Short runs (a rotary embedding's half head) as 16-byte words rather than a memcpy call per row.
      CopyShortRuns<16>(in, dst, rows, part.run_bytes / 16, k.row_bytes() / 16);
    } else {
      const size_t es = k.elem_size();
      switch (es) {
        case 1:
          CopyShortRuns<1>(in, dst, rows, part.run_bytes, k.row_bytes());
          break;
        case 2:
          CopyShortRuns<2>(in, dst, rows, part.run_bytes / 2, k.row_bytes() / 2);
          break;
        case 4:
          CopyShortRuns<4>(in, dst, rows, part.run_bytes / 4, k.row_bytes() / 4);
          break;
        default:
          CopyShortRuns<8>(in, dst, rows, part.run_bytes / 8, k.row_bytes() / 8);
          break;
      }
    }
  }
}

Status ConcatTask(void* args, rt::TaskContext& ctx) {
  const auto& b = *static_cast<const KernelBinding*>(args);
  const ConcatKernel& k = BoundKernel<ConcatKernel>(b);
  for (size_t i = 0; i < k.parts().size(); ++i) {
    if (b.io.inputs[i] == b.io.outputs[0] && k.parts()[i].run_bytes > 0) {
      return FailedPrecondition("exec.concat: input " + std::to_string(i) + " shares the output's slot");
    }
  }
  const int64_t row_elems = static_cast<int64_t>(k.row_bytes() / k.elem_size());
  if (k.outer() > 1) {
    ParallelUnits(ctx, k.outer(), row_elems,
                  [&](size_t r0, size_t r1) { CopyRows(k, b, static_cast<int64_t>(r0), static_cast<int64_t>(r1)); });
    return Status::Ok();
  }
  // One row (concatenation along the first non-unit axis): each input is one long run, cut into chunks.
  for (size_t i = 0; i < k.parts().size(); ++i) {
    const ConcatPart& part = k.parts()[i];
    const char* in = static_cast<const char*>(b.io.inputs[i]);
    char* dst = static_cast<char*>(b.io.outputs[0]) + part.out_offset;
    const size_t es = k.elem_size();
    ParallelRange(ctx, static_cast<int64_t>(part.run_bytes / es),
                  [&](size_t e0, size_t e1) { std::memcpy(dst + e0 * es, in + e0 * es, (e1 - e0) * es); });
  }
  return Status::Ok();
}

ConcatKernel::ConcatKernel(std::vector<ConcatPart> parts, int64_t outer, size_t row_bytes, size_t elem_size)
    : parts_(std::move(parts)), outer_(outer), row_bytes_(row_bytes), elem_size_(elem_size) {
  fn_ = &ConcatTask;
  num_inputs_ = static_cast<int>(parts_.size());
  num_outputs_ = 1;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareConcat(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() < 1 || node.num_outputs() != 1 || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& out = r.output_descs[0];
  if (IsNonPlainLayout(out.format)) return nullptr;
  const size_t elem_size = GatherElemSize(out.dtype);
  const Dims& y = out.shape.dims();
  const int rank = static_cast<int>(y.size());
  if (elem_size == 0 || rank == 0 || !node.attrs().Has("axis")) return nullptr;
  int64_t axis = node.attrs().GetInt("axis", 0);
  if (axis < -rank || axis >= rank) return nullptr;
  if (axis < 0) axis += rank;
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k) outer *= y[k];
  for (int k = static_cast<int>(axis) + 1; k < rank; ++k) inner *= y[k];
  std::vector<ConcatPart> parts;
  int64_t offset = 0;
  for (int i = 0; i < node.num_inputs(); ++i) {
    if (!InputPresent(r, i)) return nullptr;
    const TensorDesc& in = r.input_descs[i];
    if (in.dtype != out.dtype || IsNonPlainLayout(in.format) || in.shape.rank() != rank) return nullptr;
    for (int k = 0; k < rank; ++k) {
      if (k != axis && in.shape.dim(k) != y[k]) return nullptr;
    }
    const int64_t extent = in.shape.dim(static_cast<int>(axis));
    parts.push_back({static_cast<size_t>(extent * inner) * elem_size, static_cast<size_t>(offset * inner) * elem_size});
    offset += extent;
  }
  if (offset != y[axis]) return nullptr;
  return std::make_unique<ConcatKernel>(std::move(parts), outer, static_cast<size_t>(offset * inner) * elem_size,
                                        elem_size);
}

}  // namespace ge::exec
