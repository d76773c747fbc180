// Test helpers for the dnnl engine (after kernels/exec/exec_test_util.h): build a one-node graph (any domain),
// infer static output descs as the compiler does (constants known), prepare its kernel as the loader does for a node
// on the dnnl engine (exec/engine_choice.h over ge's engine list: ge's own kernels first where they are the default),
// bind the slots to owned buffers, run it as an rt task and compare with the reference kernels.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/testing/expect_match.h"
#include "ir/graph.h"
#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/exec/engine_choice.h"
#include "kernels/exec/exec_engine.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/ref/kernel_registry.h"
#include "kernels/ref/node_runner.h"
#include "ops/op_schema.h"
#include "rt/task.h"
#include "rt/cpu/thread_pool.h"

namespace ge::dnnl_kernels::testing {

struct Case {
  Case(std::string op_type, std::vector<Tensor> in, std::vector<bool> consts = {}, ir::AttrMap a = ir::AttrMap(),
       std::string op_domain = "")
      : op(std::move(op_type)),
        domain(std::move(op_domain)),
        inputs(std::move(in)),
        is_const(std::move(consts)),
        attrs(std::move(a)) {}
  std::string op, domain;
  std::vector<Tensor> inputs;  // an invalid Tensor = omitted optional input
  std::vector<bool> is_const;  // per input; missing entries are false
  ir::AttrMap attrs;
  int num_outputs = 1;
  std::vector<bool> output_present;  // per output; empty = all present
  int64_t opset = 17;
  int threads = 1;
  bool allow_bf16 = false;             // PrepareRequest::allow_bf16
  IsaLevel max_isa = IsaLevel::kNone;  // PrepareRequest::max_isa
  std::vector<Format> output_formats;  // per output; missing entries plain (outputs are then not comparable)
  std::vector<Format> input_formats;   // per input; missing entries plain (the case's tensors must be stored so)
  bool IsConst(size_t i) const { return i < is_const.size() && is_const[i]; }
};

// ge's engine list as kernels/builtin_engines.cc builds it: ge's own kernels, then oneDNN's.
inline const kernels::EngineList& TestEngines() {
  static const kernels::EngineList engines = [] {
    exec::ExecEngineConfig config;
    config.peer_max_isa = DnnlMaxIsaLevel();
    config.peer_runs_bf16 = CpuHasBf16();
    return kernels::EngineList{exec::CreateExecEngine(config), CreateDnnlEngine()};
  }();
  return engines;
}

struct Prepared {
  std::unique_ptr<ir::Graph> graph;
  ir::Node* node = nullptr;
  exec::PrepareRequest request;
  std::unique_ptr<exec::PreparedKernel> kernel;  // nullptr when the engine declined
  std::unique_ptr<exec::KernelBinding> binding;  // the kernel's slots and state for these buffers
  std::vector<Tensor> inputs, outputs;

  Status Run(rt::ThreadPool* pool = nullptr) {
    rt::TaskContext ctx;
    ctx.pool = pool;
    return kernel->fn()(binding.get(), ctx);
  }
};

inline StatusOr<std::unique_ptr<Prepared>> PrepareCase(const Case& c) {
  auto p = std::make_unique<Prepared>();
  p->graph = std::make_unique<ir::Graph>("test");
  ir::Graph& g = *p->graph;
  std::vector<ir::Value*> ins;
  std::vector<TensorDesc> in_descs;
  ops::InferContext ictx;
  ictx.attrs = &c.attrs;
  ictx.opset = c.opset;
  ictx.op_type = c.op;
  ictx.node_name = "n_" + c.op;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const Tensor& t = c.inputs[i];
    if (!t.valid()) {
      ins.push_back(nullptr);
      in_descs.emplace_back();
      continue;
    }
    TensorDesc d(t.dtype(), Shape(t.dims()));
    if (i < c.input_formats.size()) d.format = c.input_formats[i];
    const std::string name = "in" + std::to_string(i);
    ir::Value* v = c.IsConst(i) ? g.AddConstant(name, t) : g.AddInput(name, d);
    v->desc() = d;
    ins.push_back(v);
    in_descs.push_back(d);
  }
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    ictx.inputs.push_back(ins[i] ? &in_descs[i] : nullptr);
    ictx.input_values.push_back(ins[i] && c.IsConst(i) ? &c.inputs[i] : nullptr);
  }
  const ops::OpSchema* schema = ops::BuiltinOps().Find(c.domain, c.op);
  if (schema == nullptr) return NotFound("no schema for " + c.domain + "::" + c.op);
  ictx.outputs.resize(c.num_outputs);
  GE_RETURN_IF_ERROR(ops::RunInference(*schema, ictx));
  std::vector<ir::Value*> outs;
  for (int i = 0; i < c.num_outputs; ++i) {
    const bool present = c.output_present.empty() || c.output_present[i];
    if (i < static_cast<int>(c.output_formats.size())) ictx.outputs[i].format = c.output_formats[i];
    outs.push_back(present ? g.AddValue("out" + std::to_string(i), ictx.outputs[i]) : nullptr);
  }
  p->node = g.AddNode(c.op, "n_" + c.op, ins, outs, c.domain);
  p->node->attrs() = c.attrs;
  p->node->set_engine(kDnnlEngineName);

  exec::PrepareRequest& r = p->request;
  r.node = p->node;
  r.opset = c.opset;
  r.input_descs = in_descs;
  for (int i = 0; i < c.num_outputs; ++i) r.output_descs.push_back(outs[i] ? ictx.outputs[i] : TensorDesc());
  for (size_t i = 0; i < c.inputs.size(); ++i)
    r.const_inputs.push_back(ins[i] && c.IsConst(i) ? &c.inputs[i] : nullptr);
  r.intra_op_threads = c.threads;
  r.allow_bf16 = c.allow_bf16;
  r.max_isa = c.max_isa;
  GE_ASSIGN_OR_RETURN(p->kernel, exec::PrepareOnEngines(r, TestEngines()));
  if (p->kernel == nullptr) return p;
  GE_ASSIGN_OR_RETURN(p->binding, p->kernel->NewBinding());
  exec::KernelIo& io = p->binding->io;
  if (io.inputs.size() != c.inputs.size() || io.outputs.size() != static_cast<size_t>(c.num_outputs)) {
    return Internal("io() has the wrong number of slots");
  }
  // Inputs point at copies (an in-place kernel cannot clobber the case), outputs at fresh buffers.
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
    if (outs[i] == nullptr) {
      p->outputs.emplace_back();
      continue;
    }
    const TensorDesc& d = r.output_descs[i];
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.dtype, d.shape.dims()));
    p->outputs.push_back(t);
    io.outputs[i] = p->outputs.back().raw_data();
  }
  return p;
}

// The reference kernels (every registered family) on the same inputs.
inline StatusOr<std::vector<Value>> RunRef(const Case& c) {
  ref::NodeCall call;
  call.op_type = c.op;
  call.domain = c.domain;
  call.node_name = "ref_" + c.op;
  call.attrs = &c.attrs;
  call.opset = c.opset;
  call.num_outputs = c.num_outputs;
  std::vector<Value> vals;
  vals.reserve(c.inputs.size());
  for (const Tensor& t : c.inputs) vals.push_back(t.valid() ? Value(t) : Value());
  for (const Value& v : vals) call.inputs.push_back(v.is_none() ? nullptr : &v);
  std::mt19937_64 rng(0);
  call.rng = &rng;
  return ref::RunNode(ops::BuiltinOps(), ref::RefKernels(), call);
}

inline Tensor RandomTensor(const Dims& dims, std::mt19937& rng, double lo = -3, double hi = 3) {
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  std::uniform_real_distribution<double> u(lo, hi);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(u(rng));
  return t;
}

// got == want within rtol, relative to the larger magnitude of the pair or, for elements where accumulation
// cancelled (a sum of many terms that is near zero), to the largest finite magnitude of `want`: fp32 accumulation
// order differs between oneDNN and ref, so an absolute error of rtol * max|want| is the fair bound there. NaN and
// infinities must match exactly (base/compare.h).
inline void ExpectNear(const Tensor& got, const Tensor& want, double rtol, const std::string& what) {
  double scale = 0;
  if (got.dtype() == want.dtype() && IsFloatingPoint(want.dtype())) {
    for (int64_t i = 0; i < want.numel(); ++i) {
      const double w = std::fabs(want.GetAsDouble(i));
      if (std::isfinite(w)) scale = std::max(scale, w);
    }
  }
  EXPECT_TRUE(TensorsMatch(got, want, Tolerance{rtol * scale, rtol, true})) << what;
}

inline std::string CaseName(const Case& c) {
  std::string s = (c.domain.empty() ? "" : c.domain + "::") + c.op + "(";
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (i) s += ", ";
    s += c.inputs[i].valid() ? DimsToString(c.inputs[i].dims()) : "none";
    if (c.IsConst(i)) s += " const";
  }
  return s + ")";
}

// Prepares c on the dnnl engine (expects a kernel whose impl_name starts with `impl_prefix` and DnnlSupports to
// agree), runs it and compares every present output with the reference kernels.
inline void ExpectDnnlMatchesRef(const Case& c, double rtol = 1e-4, rt::ThreadPool* pool = nullptr,
                                 const char* impl_prefix = "dnnl.") {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  ASSERT_NE((*p)->kernel, nullptr) << name << ": the dnnl engine declined";
  EXPECT_TRUE(DnnlSupports(*(*p)->node)) << name;
  EXPECT_EQ(std::string((*p)->kernel->impl_name()).rfind(impl_prefix, 0), 0u) << (*p)->kernel->impl_name();
  if (std::getenv("GE_DNNL_TEST_VERBOSE")) std::printf("%s -> %s\n", name.c_str(), (*p)->kernel->impl_name());
  Status s = (*p)->Run(pool);
  ASSERT_TRUE(s.ok()) << name << ": " << s.ToString();
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
  for (int i = 0; i < c.num_outputs; ++i) {
    if (!(*p)->outputs[i].valid()) continue;
    ASSERT_TRUE((*want)[i].is_tensor()) << name;
    ExpectNear((*p)->outputs[i], (*want)[i].tensor, rtol, name + " output " + std::to_string(i));
  }
}

// Expects the engine to decline c (nullptr, no error) and DnnlSupports to say so.
inline void ExpectDeclined(const Case& c) {
  const std::string name = CaseName(c);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  EXPECT_TRUE((*p)->kernel == nullptr) << name << " was accepted as " << (*p)->kernel->impl_name();
  EXPECT_FALSE(DnnlSupports(*(*p)->node)) << name;
}

inline ir::AttrMap Attrs(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::AttrMap a;
  for (const auto& [k, v] : kv) a.Set(k, v);
  return a;
}
using AV = ir::AttrValue;

}  // namespace ge::dnnl_kernels::testing
