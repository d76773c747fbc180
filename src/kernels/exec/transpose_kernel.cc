#include "kernels/exec/transpose_kernel.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kernels/exec/kernel_util.h"

namespace ge::exec {

size_t GatherElemSize(DataType dt) {
  if (dt == DataType::kString || dt == DataType::kUndefined) return 0;
  const size_t s = DataTypeSize(dt);
  return s == 1 || s == 2 || s == 4 || s == 8 ? s : 0;
}

std::vector<int64_t> ContiguousStrides(const Dims& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
  return s;
}

namespace {

// Tile edge of the blocked transpose: a tile row is 64 bytes for 4-byte words, 16 x 8 = 128 for 8-byte ones.
template <typename T>
constexpr int64_t kTile = sizeof(T) == 8 ? 8 : 16;

// A full kTile x kTile tile of 4-byte words as 4x4 SSE2 register transposes; false for other word sizes.
template <typename T>
bool FullTile4(const T* src, T* dst, int64_t ldi, int64_t ldo) {
#if defined(__SSE2__)
  if constexpr (sizeof(T) == 4) {
    for (int64_t j = 0; j < kTile<T>; j += 4) {
      for (int64_t i = 0; i < kTile<T>; i += 4) {
        const T* s = src + j * ldi + i;
        __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + ldi));
        __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 2 * ldi));
        __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 3 * ldi));
        const __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
        const __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
        T* d = dst + i * ldo + j;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_unpacklo_epi64(t0, t1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + ldo), _mm_unpackhi_epi64(t0, t1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 2 * ldo), _mm_unpacklo_epi64(t2, t3));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 3 * ldo), _mm_unpackhi_epi64(t2, t3));
      }
    }
    return true;
  }
#endif
  (void)src, (void)dst, (void)ldi, (void)ldo;
  return false;
}

// out[a * ldo + b] = in[a + b * ldi] for a in [a0, a1), b in [0, n). Tiles read kTile input rows of contiguous a's
// and write kTile output rows of contiguous b's; a full tile has constant trip counts.
template <typename T>
void TileTranspose(const T* in, T* out, int64_t a0, int64_t a1, int64_t n, int64_t ldi, int64_t ldo) {
  constexpr int64_t B = kTile<T>;
  for (int64_t a = a0; a < a1; a += B) {
    const int64_t am = std::min(B, a1 - a);
    for (int64_t b = 0; b < n; b += B) {
      const int64_t bn = std::min(B, n - b);
      const T* src = in + a + b * ldi;
      T* dst = out + a * ldo + b;
      if (am == B && bn == B && FullTile4(src, dst, ldi, ldo)) continue;
      if (am == B && bn == B) {
        T tile[B][B];
        for (int64_t j = 0; j < B; ++j) {
          for (int64_t i = 0; i < B; ++i) tile[i][j] = src[j * ldi + i];
        }
        for (int64_t i = 0; i < B; ++i) std::memcpy(dst + i * ldo, tile[i], sizeof(tile[i]));
      } else {
        for (int64_t i = 0; i < am; ++i) {
          for (int64_t j = 0; j < bn; ++j) dst[i * ldo + j] = src[j * ldi + i];
        }
      }
    }
  }
}

template <typename T>
void CopyRun(const T* src, T* dst, int64_t len, int64_t stride) {
  if (stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(len) * sizeof(T));
  } else {
    for (int64_t k = 0; k < len; ++k) dst[k] = src[k * stride];
  }
}

// Work units [begin, end): unit u is outer position u / splits, chunk u % splits of the inner's first extent.
template <typename T>
void GatherUnits(const GatherPlan& p, const T* in, T* out, int64_t begin, int64_t end) {
  int64_t idx[kMaxGatherRank];
  int64_t o = begin / p.splits, s = begin % p.splits;
  int64_t in_off = 0, out_off = 0;
  for (int d = p.outer_rank - 1; d >= 0; --d) {
    idx[d] = o % p.outer_dims[d];
    o /= p.outer_dims[d];
    in_off += idx[d] * p.outer_in[d];
    out_off += idx[d] * p.outer_out[d];
  }
  const bool tile = p.inner == GatherPlan::Inner::kTile;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t lo = s * p.chunk;
    if (tile) {
      TileTranspose(in + in_off, out + out_off, lo, std::min(p.m, lo + p.chunk), p.n, p.in_stride, p.out_ld);
    } else {
      CopyRun(in + in_off + lo * p.in_stride, out + out_off + lo, std::min(p.chunk, p.n - lo), p.in_stride);
    }
    if (++s < p.splits) continue;
    s = 0;
    for (int d = p.outer_rank - 1; d >= 0; --d) {
      in_off += p.outer_in[d];
      out_off += p.outer_out[d];
      if (++idx[d] < p.outer_dims[d]) break;
      in_off -= p.outer_in[d] * p.outer_dims[d];
      out_off -= p.outer_out[d] * p.outer_dims[d];
      idx[d] = 0;
    }
  }
}

template <typename T>
void RunGatherWords(const GatherPlan& p, const void* in_base, void* out_base, rt::TaskContext& ctx) {
  const T* in = static_cast<const T*>(in_base) + p.in_offset;
  T* out = static_cast<T*>(out_base);
  const int64_t units = p.outer_count * p.splits;
  auto body = [&p, in, out](size_t b, size_t e) {
    GatherUnits<T>(p, in, out, static_cast<int64_t>(b), static_cast<int64_t>(e));
  };
  if (p.numel >= kParallelMinElements && ctx.pool != nullptr) {
    const int64_t unit_elems = p.chunk * (p.inner == GatherPlan::Inner::kTile ? p.n : 1);
    const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(kParallelGrain) / unit_elems);
    ctx.pool->ParallelFor(static_cast<size_t>(units), body, static_cast<size_t>(grain));
  } else {
    body(0, static_cast<size_t>(units));
  }
}

template <typename T>
Status RunGatherPlan(const GatherPlan& p, const KernelBinding& binding, rt::TaskContext& ctx, const GatherKernel* k) {
  if (p.inner == GatherPlan::Inner::kEmpty) return Status::Ok();
  const void* in = static_cast<const T*>(binding.io.inputs[0]) + p.in_offset;
  if (p.contiguous() && in == binding.io.outputs[0]) return Status::Ok();
  if (binding.io.inputs[0] == binding.io.outputs[0]) {
    return FailedPrecondition(std::string(k->impl_name()) + ": the output slot is the input's (not an in-place op)");
  }
  RunGatherWords<T>(p, binding.io.inputs[0], binding.io.outputs[0], ctx);
  return Status::Ok();
}

template <typename T>
Status GatherTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const GatherKernel* k = &BoundKernel<GatherKernel>(binding);
  return RunGatherPlan<T>(k->plan(), binding, ctx, k);
}

// The axes of Transpose(perm) of an input of `dims`; false when perm is not a permutation of them.
bool TransposeAxes(const Dims& dims, const std::vector<int64_t>& perm, std::vector<GatherAxis>* axes) {
  const int rank = static_cast<int>(dims.size());
  if (static_cast<int>(perm.size()) != rank) return false;
  const std::vector<int64_t> strides = ContiguousStrides(dims);
  std::vector<bool> seen(rank, false);
  axes->clear();
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p]) return false;
    seen[p] = true;
    axes->push_back({dims[p], strides[p]});
  }
  return true;
}

// Shape-agnostic Transpose: the binding's plan, re-planned when a run's input dims differ from the last run's.
struct AgnosticTransposeState final : KernelState {
  GatherPlan plan;
  Dims dims;  // the input dims `plan` is for (empty before the first run)
};

template <typename T>
Status AgnosticTransposeTask(void* args, rt::TaskContext& ctx) {
  const auto& binding = *static_cast<const KernelBinding*>(args);
  const GatherKernel* k = &BoundKernel<GatherKernel>(binding);
  auto* st = static_cast<AgnosticTransposeState*>(binding.state.get());
  const int64_t* now = binding.io.input_dims[0];
  if (now == nullptr) return Internal(std::string(k->impl_name()) + ": shape-agnostic kernel run without its input's dims");
  const size_t rank = k->perm().size();
  if (st->dims.empty() || !std::equal(st->dims.begin(), st->dims.end(), now)) {
    st->dims.assign(now, now + rank);
    std::vector<GatherAxis> axes;
    if (!TransposeAxes(st->dims, k->perm(), &axes)) {
      st->dims.clear();
      return Internal(std::string(k->impl_name()) + ": perm does not fit the input's dims");
    }
    st->plan = BuildGatherPlan(axes, 0, k->plan().elem_size);
  }
  return RunGatherPlan<T>(st->plan, binding, ctx, k);
}

template <typename T>
rt::TaskFn TaskOf(bool agnostic) {
  return agnostic ? &AgnosticTransposeTask<T> : &GatherTask<T>;
}

// The task moving elem_size-byte words: a fixed plan's, or the shape-agnostic Transpose's.
rt::TaskFn TaskForSize(size_t elem_size, bool agnostic) {
  switch (elem_size) {
    case 1:
      return TaskOf<uint8_t>(agnostic);
    case 2:
      return TaskOf<uint16_t>(agnostic);
    case 4:
      return TaskOf<uint32_t>(agnostic);
    case 8:
      return TaskOf<uint64_t>(agnostic);
    default:
      return nullptr;
  }
}

}  // namespace

void RunGather(const GatherPlan& p, const void* in, void* out, rt::TaskContext& ctx) {
  if (p.inner == GatherPlan::Inner::kEmpty) return;
  switch (p.elem_size) {
    case 1:
      return RunGatherWords<uint8_t>(p, in, out, ctx);
    case 2:
      return RunGatherWords<uint16_t>(p, in, out, ctx);
    case 4:
      return RunGatherWords<uint32_t>(p, in, out, ctx);
    case 8:
      return RunGatherWords<uint64_t>(p, in, out, ctx);
    default:
      return;
  }
}

GatherPlan BuildGatherPlan(const std::vector<GatherAxis>& axes, int64_t in_offset, size_t elem_size) {
  GatherPlan p;
  p.elem_size = elem_size;
  p.in_offset = in_offset;
  p.numel = 1;
  for (const GatherAxis& a : axes) p.numel *= a.dim;
  if (p.numel == 0) return p;
  std::vector<GatherAxis> r;  // unit axes dropped; an axis whose stride chains onto the next merged into it
  for (const GatherAxis& a : axes) {
    if (a.dim == 1) continue;
    if (!r.empty() && r.back().in_stride == a.in_stride * a.dim) {
      r.back() = {r.back().dim * a.dim, a.in_stride};
    } else {
      r.push_back(a);
    }
  }
  if (r.empty()) r.push_back({1, 1});
  Dims reduced;
  for (const GatherAxis& a : r) reduced.push_back(a.dim);
  const std::vector<int64_t> out_strides = ContiguousStrides(reduced);
  const int last = static_cast<int>(r.size()) - 1;
  int tile_axis = -1;
  for (int j = 0; j < last && r[last].in_stride != 1; ++j) {
    if (r[j].in_stride == 1) tile_axis = j;
  }
  p.inner = tile_axis >= 0 ? GatherPlan::Inner::kTile : GatherPlan::Inner::kRun;
  p.n = r[last].dim;
  p.in_stride = r[last].in_stride;
  if (tile_axis >= 0) {
    p.m = r[tile_axis].dim;
    p.out_ld = out_strides[tile_axis];
  }
  for (int k = 0; k < last; ++k) {
    if (k == tile_axis) continue;
    p.outer_dims[p.outer_rank] = r[k].dim;
    p.outer_in[p.outer_rank] = r[k].in_stride;
    p.outer_out[p.outer_rank] = out_strides[k];
    p.outer_count *= r[k].dim;
    ++p.outer_rank;
  }
  const bool tile = p.inner == GatherPlan::Inner::kTile;
  const int64_t first = tile ? p.m : p.n;
  const int64_t per_first = tile ? p.n : 1;
  p.chunk = first;
  if (p.numel >= kParallelMinElements && first * per_first > static_cast<int64_t>(kParallelGrain)) {
    int64_t c = std::max<int64_t>(1, static_cast<int64_t>(kParallelGrain) / per_first);
    if (tile) c = (c + 15) / 16 * 16;
    p.chunk = std::min(c, first);
  }
  p.splits = (first + p.chunk - 1) / p.chunk;
  return p;
}

GatherKernel::GatherKernel(const char* impl, const GatherPlan& plan, int num_inputs) : impl_(impl), plan_(plan) {
  fn_ = TaskForSize(plan.elem_size, /*agnostic=*/false);
  num_inputs_ = num_inputs;
  num_outputs_ = 1;
}

void GatherKernel::MakeAgnosticTranspose(std::vector<int64_t> perm, std::vector<std::vector<bool>> runtime_input_dims) {
  perm_ = std::move(perm);
  runtime_input_dims_ = std::move(runtime_input_dims);
  fn_ = TaskForSize(plan_.elem_size, /*agnostic=*/true);
}

StatusOr<std::unique_ptr<KernelState>> GatherKernel::CreateState() const {
  if (!shape_agnostic()) return std::unique_ptr<KernelState>();
  return std::unique_ptr<KernelState>(std::make_unique<AgnosticTransposeState>());
}

size_t GatherableElemSize(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (node.num_inputs() < 1 || node.num_outputs() != 1) return 0;
  if (!InputPresent(r, 0) || !OutputPresent(r, 0)) return 0;
  const TensorDesc& in = r.input_descs[0];
  if (in.dtype != r.output_descs[0].dtype || in.shape.dims().size() > static_cast<size_t>(kMaxGatherRank)) return 0;
  return GatherElemSize(in.dtype);
}

std::unique_ptr<PreparedKernel> PrepareTranspose(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (node.num_inputs() != 1) return nullptr;
  const size_t elem_size = GatherableElemSize(r);
  if (elem_size == 0) return nullptr;
  const TensorDesc& in = r.input_descs[0];
  const TensorDesc& out = r.output_descs[0];
  const Dims& dims = in.shape.dims();
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> perm = node.attrs().GetInts("perm");
  if (!node.attrs().Has("perm")) {
    for (int i = rank - 1; i >= 0; --i) perm.push_back(i);
  }
  if (static_cast<int>(perm.size()) != rank) return nullptr;
  std::vector<GatherAxis> axes;
  if (!TransposeAxes(dims, perm, &axes)) return nullptr;  // ref reports it
  Dims out_dims;
  for (const GatherAxis& a : axes) out_dims.push_back(a.dim);
  if (out_dims != out.shape.dims()) return nullptr;
  auto k = std::make_unique<GatherKernel>("exec.transpose", BuildGatherPlan(axes, 0, elem_size), 1);
  if (HasVaryingDims(r, 0)) k->MakeAgnosticTranspose(perm, {r.varying_input_dims[0]});
  return k;
}

}  // namespace ge::exec
