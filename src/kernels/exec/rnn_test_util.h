// Test helpers of ge's RNN kernels (exec.lstm, exec.gru): random ONNX LSTM / GRU cases, the check against the
// reference kernels, and the kernel re-prepared on the constants it packed (as a compiled model maps them).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/packed_weights.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {

struct RnnForm {
  const char* direction = "forward";
  bool bias = true, initial = true, peephole = false;  // peephole: LSTM only
  bool lbr = false;                                    // GRU only
};

inline int64_t RnnDirs(const RnnForm& f) { return std::string(f.direction) == "bidirectional" ? 2 : 1; }

inline OpCase LstmCase(int64_t seq, int64_t batch, int64_t input, int64_t hidden, const RnnForm& f, std::mt19937& rng) {
  const int64_t dirs = RnnDirs(f);
  auto t = [&](const Dims& d, double scale) { return RandomTensor(DataType::kFloat, d, rng, -scale, scale); };
  std::vector<Tensor> in = {t({seq, batch, input}, 1),
                            t({dirs, 4 * hidden, input}, 0.5),
                            t({dirs, 4 * hidden, hidden}, 0.5),
                            f.bias ? t({dirs, 8 * hidden}, 0.5) : Tensor(),
                            Tensor(),
                            f.initial ? t({dirs, batch, hidden}, 1) : Tensor(),
                            f.initial ? t({dirs, batch, hidden}, 1) : Tensor(),
                            f.peephole ? t({dirs, 3 * hidden}, 0.5) : Tensor()};
  while (!in.back().valid()) in.pop_back();
  ir::AttrMap a;
  a.Set("hidden_size", ir::AttrValue::Int(hidden));
  a.Set("direction", ir::AttrValue::String(f.direction));
  return OpCase("LSTM", std::move(in), {false, true, true, true, true, false, false, true}, a, 3);
}

inline OpCase GruCase(int64_t seq, int64_t batch, int64_t input, int64_t hidden, const RnnForm& f, std::mt19937& rng) {
  const int64_t dirs = RnnDirs(f);
  auto t = [&](const Dims& d, double scale) { return RandomTensor(DataType::kFloat, d, rng, -scale, scale); };
  // PyTorch's initialisation, 1 / sqrt(hidden): larger recurrent weights make a long GRU chaotic, where rounding
  // differences of the order of summation grow step by step.
  const double w = std::min(0.5, 1 / std::sqrt(static_cast<double>(hidden)));
  std::vector<Tensor> in = {t({seq, batch, input}, 1),
                            t({dirs, 3 * hidden, input}, w),
                            t({dirs, 3 * hidden, hidden}, w),
                            f.bias ? t({dirs, 6 * hidden}, w) : Tensor(),
                            Tensor(),
                            f.initial ? t({dirs, batch, hidden}, 1) : Tensor()};
  while (!in.back().valid()) in.pop_back();
  ir::AttrMap a;
  a.Set("hidden_size", ir::AttrValue::Int(hidden));
  a.Set("direction", ir::AttrValue::String(f.direction));
  if (f.lbr) a.Set("linear_before_reset", ir::AttrValue::Int(1));
  return OpCase("GRU", std::move(in), {false, true, true, true, true, false}, a, 2);
}

// Within tol relative to the element or, where a gate update cancelled, to the output's largest magnitude; NaN
// where ref has NaN.
inline void ExpectRnnOutputsMatchRef(const OpCase& c, const std::vector<Tensor>& got, double tol = 1e-5) {
  const std::string name = CaseName(c);
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  for (int i = 0; i < c.num_outputs; ++i) {
    const Tensor& w = (*want)[i].tensor;
    double scale = 0;
    for (int64_t j = 0; j < w.numel(); ++j) {
      const double v = std::fabs(w.GetAsDouble(j));
      if (std::isfinite(v)) scale = std::max(scale, v);
    }
    EXPECT_TRUE(TensorsMatch(got[i], w, Tolerance{tol * scale, tol, true})) << name << " output " << i;
  }
}

inline std::vector<Tensor> RunOnBuffers(const PreparedKernel& k, const Prepared& p, rt::ThreadPool* pool = nullptr);

// Prepares and runs the case on `impl` and checks it against ref: for this CPU (its AVX-512 loops where it has
// them) and for a model targeting x86-64-v3 (the AVX2 loops).
inline void ExpectRnnMatchesRef(const OpCase& c, const char* impl, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), impl) << name;
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  ExpectRnnOutputsMatchRef(c, (*p)->outputs);
  PrepareRequest v3 = (*p)->request;
  v3.max_isa = IsaLevel::kX86_64_V3;
  auto avx2 = PrepareKernel(v3);
  ASSERT_TRUE(avx2.ok()) << name << ": " << avx2.status().ToString();
  EXPECT_STREQ((*avx2)->impl_name(), impl) << name << " at x86-64-v3";
  SCOPED_TRACE("x86-64-v3");
  ExpectRnnOutputsMatchRef(c, RunOnBuffers(**avx2, **p, pool));
}

// The prepared case's kernel re-prepared as a compiled model loads it: its packed constants in place of input
// `packed.input` (a uint8 FRACTAL_Z constant with the packed_* attributes), `layout` as the recorded layout.
struct RepreparedOnPacked {
  Tensor bytes;
  StatusOr<std::unique_ptr<PreparedKernel>> kernel = std::unique_ptr<PreparedKernel>();
};
using RnnFactory = std::unique_ptr<PreparedKernel> (*)(const PrepareRequest&);
inline RepreparedOnPacked PrepareOnPacked(Prepared& p, RnnFactory factory, const PackedConstant& packed,
                                          const std::string& layout) {
  RepreparedOnPacked out;
  out.bytes = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(packed.bytes.size())}).value();
  std::memcpy(out.bytes.raw_data(), packed.bytes.data(), packed.bytes.size());
  ir::Graph& g = *p.graph;
  ir::Value* v = g.AddConstant(g.UniqueValueName("packed"), out.bytes);
  v->desc().format = Format::kFractalZ;
  p.node->attrs().Set(kPackedInputAttr, ir::AttrValue::Int(packed.input));
  p.node->attrs().Set(kPackedLayoutAttr, ir::AttrValue::String(layout));
  p.node->attrs().Set(kPackedShapeAttr, ir::AttrValue::Ints(p.request.input_descs[packed.input].shape.dims()));
  p.node->SetInput(packed.input, v);
  PrepareRequest r = p.request;
  r.input_descs[packed.input] = v->desc();
  r.const_inputs[packed.input] = &out.bytes;
  out.kernel = factory(r);
  return out;
}

// Runs `k` on p's input and output buffers (fresh outputs); the outputs.
inline std::vector<Tensor> RunOnBuffers(const PreparedKernel& k, const Prepared& p, rt::ThreadPool* pool) {
  auto b = k.NewBinding();
  EXPECT_TRUE(b.ok());
  std::vector<Tensor> outs;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    (*b)->io.inputs[i] = p.inputs[i].valid() ? const_cast<void*>(p.inputs[i].raw_data()) : nullptr;
  }
  for (const Tensor& o : p.outputs) {
    outs.push_back(Tensor::Create(o.dtype(), o.dims()).value());
    std::fill_n(outs.back().data<float>(), outs.back().numel(), std::nanf(""));
  }
  for (size_t i = 0; i < outs.size(); ++i) (*b)->io.outputs[i] = outs[i].raw_data();
  rt::TaskContext ctx;
  ctx.pool = pool;
  EXPECT_TRUE(k.fn()(b->get(), ctx).ok());
  return outs;
}

// The kernel prepared on plain weights exports its packed constants; re-prepared on them (mapped, nothing packed)
// it gives the same bits and exports nothing; a layout string of another build is declined.
inline void ExpectPackedRoundTrip(const OpCase& c, RnnFactory factory, const char* impl,
                                  rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  ASSERT_STREQ((*p)->kernel->impl_name(), impl) << name;
  PackedConstant packed;
  ASSERT_TRUE((*p)->kernel->PackedConstants(&packed)) << name;
  EXPECT_EQ(packed.input, 2) << name;
  const std::vector<Tensor> want = RunOnBuffers(*(*p)->kernel, **p, pool);
  RepreparedOnPacked other = PrepareOnPacked(**p, factory, packed, packed.layout + "x");
  ASSERT_TRUE(other.kernel.ok());
  EXPECT_EQ(*other.kernel, nullptr) << name;
  RepreparedOnPacked on = PrepareOnPacked(**p, factory, packed, packed.layout);
  ASSERT_TRUE(on.kernel.ok()) << name << ": " << on.kernel.status().ToString();
  ASSERT_NE(*on.kernel, nullptr) << name;
  ASSERT_STREQ((*on.kernel)->impl_name(), impl) << name;
  PackedConstant again;
  EXPECT_FALSE((*on.kernel)->PackedConstants(&again)) << name;
  const std::vector<Tensor> got = RunOnBuffers(**on.kernel, **p, pool);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::memcmp(got[i].raw_data(), want[i].raw_data(), got[i].nbytes()), 0) << name << " output " << i;
  }
}

}  // namespace ge::exec::testing
