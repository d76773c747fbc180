#include "kernels/exec/pad_kernel.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/transpose_kernel.h"
#include "ops/shape/shape_params.h"

namespace ge::exec {
namespace {

enum class PadMode { kConstant, kReflect, kEdge };

// A source index of kFill along an axis: the position lies in a constant pad.
constexpr int64_t kFill = -1;

// Ranks above this stay on ref (the row odometer lives on the stack).
constexpr size_t kMaxRank = 16;

// Reflect's source for a position `src` outside [0, d): mirrored without repeating the edge, folding again while
// the pad is wider than the dim (the reference kernel's rule).
int64_t MirrorIndex(int64_t src, int64_t d) {
  if (d == 1) return 0;
  const int64_t period = 2 * (d - 1);
  int64_t m = src % period;
  if (m < 0) m += period;
  return m < d ? m : period - m;
}

// The source index along one axis of each output index (kFill in a constant pad). `in` > 0 unless mode is constant.
std::vector<int64_t> AxisMap(int64_t in, int64_t out, int64_t begin, PadMode mode) {
  std::vector<int64_t> m(static_cast<size_t>(out));
  for (int64_t j = 0; j < out; ++j) {
    const int64_t src = j - begin;
    if (src >= 0 && src < in) {
      m[j] = src;
    } else if (mode == PadMode::kConstant) {
      m[j] = kFill;
    } else if (mode == PadMode::kEdge) {
      m[j] = src < 0 ? 0 : in - 1;
    } else {
      m[j] = MirrorIndex(src, in);
    }
  }
  return m;
}

// The output as `rows` rows of `row_blocks` blocks of `block` elements: the rows range over the axes before the last
// padded one (`outer_*`), the blocks over that axis, a block is the whole of the axes after it.
struct PadPlan {
  PadMode mode = PadMode::kConstant;
  int64_t numel = 0;
  int64_t rows = 1;
  int64_t row_blocks = 0;
  int64_t block = 1;
  // Output blocks [lo, hi) copy source blocks from interior_src on; the others are borders (hi <= lo: none inside).
  int64_t lo = 0, hi = 0, interior_src = 0;
  std::vector<int64_t> block_map;                   // source block of each output block (kFill in a constant pad)
  std::vector<int64_t> outer_dims;                  // output dims of the row axes
  std::vector<std::vector<int64_t>> outer_offsets;  // per row axis and output index: source elements, or kFill
  uint64_t fill_bits = 0;                           // the constant value's bytes, when known at prepare
  bool fill_from_input = false;                     // the constant value is input 2, read at each run
};

PadPlan BuildPlan(Dims in, std::vector<int64_t> pads, PadMode mode) {
  if (in.empty()) {  // a scalar: one element, nothing padded
    in = {1};
    pads = {0, 0};
  }
  const int rank = static_cast<int>(in.size());
  Dims out(in.size());
  for (int k = 0; k < rank; ++k) out[k] = in[k] + pads[k] + pads[k + rank];
  int last = 0;
  for (int k = 0; k < rank; ++k) {
    if (pads[k] != 0 || pads[k + rank] != 0) last = k;
  }
  PadPlan p;
  p.mode = mode;
  p.numel = NumElements(out);
  for (int k = last + 1; k < rank; ++k) p.block *= in[k];
  int64_t in_stride = p.block * in[last];
  for (int k = last - 1; k >= 0; --k) {
    std::vector<int64_t> offsets = AxisMap(in[k], out[k], pads[k], mode);
    for (int64_t& o : offsets) o = o == kFill ? kFill : o * in_stride;
    p.outer_offsets.insert(p.outer_offsets.begin(), std::move(offsets));
    p.outer_dims.insert(p.outer_dims.begin(), out[k]);
    p.rows *= out[k];
    in_stride *= in[k];
  }
  p.row_blocks = out[last];
  p.block_map = AxisMap(in[last], out[last], pads[last], mode);
  p.lo = std::clamp<int64_t>(pads[last], 0, out[last]);
  p.hi = std::clamp<int64_t>(pads[last] + in[last], 0, out[last]);
  p.interior_src = p.lo - pads[last];
  return p;
}

class PadKernel final : public PreparedKernel {
 public:
  PadKernel(PadPlan plan, rt::TaskFn fn, int num_inputs) : plan_(std::move(plan)) {
    fn_ = fn;
    num_inputs_ = num_inputs;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.pad"; }
  const PadPlan& plan() const { return plan_; }

 private:
  PadPlan plan_;
};

template <typename T>
void FillWords(T* dst, int64_t n, T v) {
  for (int64_t i = 0; i < n; ++i) dst[i] = v;
}

// Output blocks [j0, j1) of a row outside the interior, from the row's source `src`.
template <typename T>
void WriteBorder(const PadPlan& p, const T* src, T fill, T* dst, int64_t j0, int64_t j1) {
  const int64_t b = p.block;
  if (p.mode == PadMode::kConstant) {
    FillWords(dst + j0 * b, (j1 - j0) * b, fill);
  } else if (b == 1) {
    for (int64_t j = j0; j < j1; ++j) dst[j] = src[p.block_map[j]];
  } else {
    for (int64_t j = j0; j < j1; ++j) std::memcpy(dst + j * b, src + p.block_map[j] * b, sizeof(T) * b);
  }
}

// One output row; src is the row's source in the input, or nullptr when the whole row is the constant value.
template <typename T>
void WriteRow(const PadPlan& p, const T* src, T fill, T* dst) {
  const int64_t b = p.block;
  if (src == nullptr) {
    FillWords(dst, p.row_blocks * b, fill);
    return;
  }
  if (p.hi <= p.lo) {
    WriteBorder(p, src, fill, dst, 0, p.row_blocks);
    return;
  }
  WriteBorder(p, src, fill, dst, 0, p.lo);
  std::memcpy(dst + p.lo * b, src + p.interior_src * b, sizeof(T) * b * (p.hi - p.lo));
  WriteBorder(p, src, fill, dst, p.hi, p.row_blocks);
}

// Rows [r0, r1): an odometer over the row axes gives each row's source.
template <typename T>
void WriteRows(const PadPlan& p, const T* x, T fill, T* y, int64_t r0, int64_t r1) {
  const int outer = static_cast<int>(p.outer_dims.size());
  std::array<int64_t, kMaxRank> idx{};
  int64_t rem = r0;
  for (int k = outer - 1; k >= 0; --k) {
    idx[k] = rem % p.outer_dims[k];
    rem /= p.outer_dims[k];
  }
  const int64_t row_elems = p.row_blocks * p.block;
  for (int64_t r = r0; r < r1; ++r) {
    int64_t offset = 0;
    for (int k = 0; k < outer && offset != kFill; ++k) {
      const int64_t o = p.outer_offsets[k][idx[k]];
      offset = o == kFill ? kFill : offset + o;
    }
    WriteRow<T>(p, offset == kFill ? nullptr : x + offset, fill, y + r * row_elems);
    for (int k = outer - 1; k >= 0; --k) {
      if (++idx[k] < p.outer_dims[k]) break;
      idx[k] = 0;
    }
  }
}

template <typename T>
Status PadTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const PadPlan& p = BoundKernel<PadKernel>(binding).plan();
  if (p.numel == 0) return Status::Ok();
  const T* x = static_cast<const T*>(binding.io.inputs[0]);
  T* y = static_cast<T*>(binding.io.outputs[0]);
  T fill;
  std::memcpy(&fill, p.fill_from_input ? binding.io.inputs[2] : static_cast<const void*>(&p.fill_bits), sizeof(T));
  ParallelUnits(ctx, p.rows, p.row_blocks * p.block,
                [&](int64_t r0, int64_t r1) { WriteRows<T>(p, x, fill, y, r0, r1); });
  return Status::Ok();
}

rt::TaskFn TaskForSize(size_t elem_size) {
  switch (elem_size) {
    case 1:
      return &PadTask<uint8_t>;
    case 2:
      return &PadTask<uint16_t>;
    case 4:
      return &PadTask<uint32_t>;
    case 8:
      return &PadTask<uint64_t>;
    default:
      return nullptr;
  }
}

bool ParseMode(const std::string& s, PadMode* mode) {
  if (s == "constant") {
    *mode = PadMode::kConstant;
  } else if (s == "reflect") {
    *mode = PadMode::kReflect;
  } else if (s == "edge") {
    *mode = PadMode::kEdge;
  } else {
    return false;
  }
  return true;
}

// Before opset 11 the constant is the `value` attribute, converted to the data's type as the reference kernel does.
bool AttributeFill(const ir::AttrMap& attrs, DataType dt, uint64_t* bits) {
  const double v = attrs.GetFloat("value", 0.0f);
  StatusOr<Tensor> fill = Tensor::Create(dt, {});
  if (!fill.ok()) return false;
  Status s = VisitNumericType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill->data<T>()[0] = static_cast<T>(static_cast<typename ComputeTypeOf<T>::type>(v));
  });
  if (!s.ok()) return false;
  std::memcpy(bits, fill->raw_data(), DataTypeSize(dt));
  return true;
}

}  // namespace

std::unique_ptr<PreparedKernel> PreparePad(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_outputs() != 1 || !InputPresent(r, 0) || !OutputPresent(r, 0)) return nullptr;
  const DataType dt = r.input_descs[0].dtype;
  const rt::TaskFn fn = TaskForSize(GatherElemSize(dt));
  PadMode mode = PadMode::kConstant;
  if (fn == nullptr || r.output_descs[0].dtype != dt || !ParseMode(node.attrs().GetString("mode", "constant"), &mode)) {
    return nullptr;
  }
  std::vector<int64_t> pads;
  uint64_t fill_bits = 0;
  bool fill_from_input = false;
  if (r.opset < 11) {
    const ir::AttrMap& a = node.attrs();
    if (!a.Has("pads") && !a.Has("paddings")) return nullptr;
    pads = a.Has("pads") ? a.GetInts("pads") : a.GetInts("paddings");
    if (!AttributeFill(a, dt, &fill_bits)) return nullptr;
  } else {
    if (node.num_inputs() > 3 || !InputPresent(r, 1) || ConstInput(r, 1) == nullptr) return nullptr;
    pads = ConstInput(r, 1)->ToInt64Vector();
    if (InputPresent(r, 2)) {
      const TensorDesc& cv = r.input_descs[2];
      if (cv.dtype != dt || NumElements(cv.shape.dims()) != 1) return nullptr;
      if (const Tensor* t = ConstInput(r, 2)) {
        std::memcpy(&fill_bits, t->raw_data(), DataTypeSize(dt));
      } else {
        fill_from_input = true;
      }
    }
  }
  const Dims& in = r.input_descs[0].shape.dims();
  if (in.size() > kMaxRank) return nullptr;
  StatusOr<Dims> out = ops::shape_family::PaddedDims(in, pads);
  if (!out.ok() || *out != r.output_descs[0].shape.dims()) return nullptr;
  if (mode != PadMode::kConstant) {
    for (size_t k = 0; k < in.size(); ++k) {
      if (in[k] == 0 && (*out)[k] != 0) return nullptr;  // nothing to reflect or repeat: the reference kernel fails
    }
  }
  PadPlan plan = BuildPlan(in, pads, mode);
  plan.fill_bits = fill_bits;
  plan.fill_from_input = fill_from_input;
  return std::make_unique<PadKernel>(std::move(plan), fn, static_cast<int>(node.num_inputs()));
}

}  // namespace ge::exec
