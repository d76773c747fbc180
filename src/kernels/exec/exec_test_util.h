// Test helpers: build a one-node graph, prepare its kernel the way the loader will (static descs from inference,
// constants as const inputs), bind slots to test buffers, run it as an rt task, and compare with the ref kernel
// run through OpTester.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/testing/expect_match.h"
#include "ir/graph.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/prepared_kernel.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"
#include "rt/task.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {

inline void RegisterAllOps(ops::OpRegistry* r) {
  ops::RegisterElementwiseOps(r);
  ops::RegisterReduceOps(r);
  ops::RegisterNnOps(r);
  ops::RegisterShapeOps(r);
  ops::RegisterIndexOps(r);
  ops::RegisterMathOps(r);
  ops::RegisterControlOps(r);
  ops::RegisterMiscOps(r);
  ops::RegisterFusedOps(r);
}

inline void RegisterAllKernels(ref::KernelRegistry* r) {
  ref::RegisterElementwiseRefKernels(r);
  ref::RegisterReduceRefKernels(r);
  ref::RegisterNnRefKernels(r);
  ref::RegisterShapeRefKernels(r);
  ref::RegisterIndexRefKernels(r);
  ref::RegisterMathRefKernels(r);
  ref::RegisterControlRefKernels(r);
  ref::RegisterMiscRefKernels(r);
  ref::RegisterFusedRefKernels(r);
}

inline ref::testing::OpTester MakeTester() { return ref::testing::OpTester(RegisterAllOps, RegisterAllKernels); }

// One op call: inputs (an invalid Tensor = omitted optional input), which of them are constants, attributes.
struct OpCase {
  OpCase(std::string op_type, std::vector<Tensor> in, std::vector<bool> consts = {}, ir::AttrMap a = ir::AttrMap(),
         int outputs = 1, int64_t op_opset = 17)
      : op(std::move(op_type)),
        inputs(std::move(in)),
        is_const(std::move(consts)),
        attrs(std::move(a)),
        num_outputs(outputs),
        opset(op_opset) {}
  std::string op;
  std::vector<Tensor> inputs;
  std::vector<bool> is_const;  // per input; missing entries are false
  ir::AttrMap attrs;
  int num_outputs = 1;
  int64_t opset = 17;
  std::string domain;  // "" = ai.onnx; "ge" for the compiler's fused ops
};

// A [N, C, spatial...] float tensor's values moved between NCHW order and NHWC storage (to_nhwc) or back.
inline Tensor PermuteNchwNhwc(const Tensor& x, bool to_nhwc) {
  const int64_t n = x.dim(0), c = x.dim(1), hw = x.numel() / std::max<int64_t>(1, n * c);
  Tensor y = Tensor::Create(DataType::kFloat, x.dims()).value();
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < hw; ++p) {
        const int64_t nchw = (b * c + k) * hw + p, nhwc = (b * hw + p) * c + k;
        y.data<float>()[to_nhwc ? nhwc : nchw] = x.data<float>()[to_nhwc ? nchw : nhwc];
      }
  return y;
}

// Transpose's perm attribute.
inline ir::AttrMap Perm(const std::vector<int64_t>& p) {
  ir::AttrMap m;
  m.Set("perm", ir::AttrValue::Ints(p));
  return m;
}

// A prepared one-node graph with its slots bound to owned buffers.
struct Prepared {
  std::unique_ptr<ir::Graph> graph;
  ir::Node* node = nullptr;
  PrepareRequest request;
  std::unique_ptr<PreparedKernel> kernel;
  std::unique_ptr<KernelBinding> binding;  // the kernel's slots and state for these buffers
  std::vector<Tensor> inputs;   // what the input slots point at
  std::vector<Tensor> outputs;  // what the output slots point at (planned dtype and dims)

  // Runs the kernel once as the rt::Model would.
  Status Run(rt::ThreadPool* pool = nullptr) {
    rt::TaskContext ctx;
    ctx.pool = pool;
    return kernel->fn()(binding.get(), ctx);
  }
};

inline bool IsConst(const OpCase& c, size_t i) { return i < c.is_const.size() && c.is_const[i]; }

// Builds the graph, infers static output descs (constants known, other inputs only by desc), prepares the kernel
// and binds the slots. output_override, when non-empty, replaces the inferred output descs (to plan wrong dims).
inline StatusOr<std::unique_ptr<Prepared>> PrepareCase(const OpCase& c,
                                                       const std::vector<TensorDesc>& output_override = {}) {
  auto p = std::make_unique<Prepared>();
  p->graph = std::make_unique<ir::Graph>("test");
  ir::Graph& g = *p->graph;
  std::vector<ir::Value*> ins;
  std::vector<TensorDesc> in_descs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const Tensor& t = c.inputs[i];
    if (!t.valid()) {
      ins.push_back(nullptr);
      in_descs.emplace_back();
      continue;
    }
    TensorDesc d(t.dtype(), Shape(t.dims()));
    const std::string name = "in" + std::to_string(i);
    ir::Value* v = IsConst(c, i) ? g.AddConstant(name, t) : g.AddInput(name, d);
    v->desc() = d;
    ins.push_back(v);
    in_descs.push_back(d);
  }
  // Inference as the compiler runs it: only constant values are known.
  const ops::OpSchema* schema = ops::BuiltinOps().Find(c.domain, c.op);
  if (schema == nullptr) return NotFound("no schema for " + c.op);
  ops::InferContext ictx;
  ictx.attrs = &c.attrs;
  ictx.opset = c.opset;
  ictx.op_type = c.op;
  ictx.node_name = "n_" + c.op;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    ictx.inputs.push_back(ins[i] ? &in_descs[i] : nullptr);
    ictx.input_values.push_back(ins[i] && IsConst(c, i) ? &c.inputs[i] : nullptr);
  }
  ictx.outputs.resize(c.num_outputs);
  GE_RETURN_IF_ERROR(ops::RunInference(*schema, ictx));
  std::vector<TensorDesc> out_descs = output_override.empty() ? ictx.outputs : output_override;
  std::vector<ir::Value*> outs;
  for (int i = 0; i < c.num_outputs; ++i) {
    ir::Value* v = g.AddValue("out" + std::to_string(i), out_descs[i]);
    outs.push_back(v);
  }
  p->node = g.AddNode(c.op, "n_" + c.op, ins, outs, c.domain);
  p->node->attrs() = c.attrs;

  PrepareRequest& r = p->request;
  r.node = p->node;
  r.opset = c.opset;
  r.input_descs = in_descs;
  r.output_descs = out_descs;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    r.const_inputs.push_back(ins[i] && IsConst(c, i) ? &c.inputs[i] : nullptr);
  r.seed = 42;
  GE_ASSIGN_OR_RETURN(p->kernel, PrepareKernel(r));
  // Slots: inputs point at copies (so an in-place kernel cannot clobber the case), outputs at fresh buffers.
  GE_ASSIGN_OR_RETURN(p->binding, p->kernel->NewBinding());
  KernelIo& io = p->binding->io;
  if (io.inputs.size() != c.inputs.size() || io.outputs.size() != static_cast<size_t>(c.num_outputs)) {
    return Internal("io() has the wrong number of slots");
  }
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (!c.inputs[i].valid()) {
      p->inputs.emplace_back();
      continue;
    }
    GE_ASSIGN_OR_RETURN(Tensor copy, c.inputs[i].Clone());
    p->inputs.push_back(copy);
    io.inputs[i] = p->inputs.back().raw_data();
  }
  for (int i = 0; i < c.num_outputs; ++i) {
    if (!IsStaticTensor(out_descs[i])) return Internal("output " + std::to_string(i) + " desc is not static");
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(out_descs[i].dtype, out_descs[i].shape.dims()));
    p->outputs.push_back(t);
    io.outputs[i] = p->outputs.back().raw_data();
  }
  return p;
}

// Runs the same op on the ref kernels (OpTester) with every input known.
inline StatusOr<std::vector<Value>> RunRef(const OpCase& c) {
  return MakeTester().Run(c.op, c.inputs, c.attrs, c.num_outputs, c.opset, c.domain);
}

// Uniform values in [lo, hi) (integers: rounded).
inline Tensor RandomTensor(DataType dt, const Dims& dims, std::mt19937& rng, double lo = -3, double hi = 3) {
  Tensor t = Tensor::Create(dt, dims).value();
  std::uniform_real_distribution<double> u(lo, hi);
  Status s = VisitNumericType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double v = u(rng);
      if constexpr (std::is_integral_v<T>) {
        p[i] = static_cast<T>(std::llround(v));
      } else {
        p[i] = static_cast<T>(static_cast<float>(v));
      }
    }
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return t;
}

// Expects got == want (dtype, dims, values) within a relative tolerance: |g - w| <= rtol * max(|g|, |w|); NaN
// only where want is NaN, infinities exactly (base/compare.h). rtol = 0: exact (and -0 == +0).
inline void ExpectTensorNear(const Tensor& got, const Tensor& want, double rtol, const std::string& what) {
  EXPECT_TRUE(TensorsMatch(got, want, Tolerance{0, rtol, true})) << what;
}

inline std::string CaseName(const OpCase& c) {
  std::string s = c.op + "(";
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (i) s += ", ";
    s += c.inputs[i].valid() ? std::string(DataTypeName(c.inputs[i].dtype())) + DimsToString(c.inputs[i].dims())
                             : "none";
    if (IsConst(c, i)) s += " const";
  }
  return s + ")";
}

// Prepares and runs c through the exec kernel and through ref; expects impl_name() == impl (when impl is non-null)
// and outputs within rtol.
inline void ExpectMatchesRef(const OpCase& c, const char* impl, double rtol, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  if (impl != nullptr) {
    EXPECT_STREQ((*p)->kernel->impl_name(), impl) << name;
  }
  Status s = (*p)->Run(pool);
  ASSERT_TRUE(s.ok()) << name << ": " << s.ToString();
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  for (int i = 0; i < c.num_outputs; ++i) {
    ASSERT_TRUE((*want)[i].is_tensor()) << name;
    ExpectTensorNear((*p)->outputs[i], (*want)[i].tensor, rtol, name + " output " + std::to_string(i));
  }
}

// Prepares c, expects the kernel named `impl`, runs it and expects output 0 byte-identical to the reference's.
inline void ExpectBitExact(const OpCase& c, const char* impl, rt::ThreadPool* pool = nullptr) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_STREQ((*p)->kernel->impl_name(), impl) << name;
  ASSERT_TRUE((*p)->Run(pool).ok()) << name;
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  const Tensor& w = (*want)[0].tensor;
  const Tensor& g = (*p)->outputs[0];
  ASSERT_EQ(g.dims(), w.dims()) << name;
  ASSERT_EQ(g.nbytes(), w.nbytes()) << name;
  EXPECT_EQ(std::memcmp(g.raw_data(), w.raw_data(), g.nbytes()), 0) << name;
}

}  // namespace ge::exec::testing
