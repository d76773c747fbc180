// Test helper for shape-agnostic kernels (PreparedKernel::shape_agnostic): a one-node graph whose inputs have
// unknown dims, one kernel prepared for the first set of shapes with those dims marked varying, then run on one
// binding at every set of shapes (KernelIo's dims pointed at them, as runtime v2 does) on fresh random inputs,
// each compared with the reference kernel at that shape.
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/engine.h"
#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/reshape.h"

namespace ge::exec::testing {

struct AgnosticCase {
  std::string op;
  ir::AttrMap attrs;
  std::vector<Dims> graph_dims;      // per input, the graph's dims (-1 where they vary)
  std::vector<Tensor> constants;     // per input: a valid tensor makes the input a constant of that value
  std::vector<std::vector<Dims>> runs;  // per run, every input's dims (constants: their own)
  DataType dtype = DataType::kFloat;
};

// Returns the kernel's implementation name (for the caller to check which kernel served).
inline std::string ExpectAgnosticMatchesRef(const AgnosticCase& c, const kernels::EngineList& engines = {},
                                            const std::string& engine = "", double rtol = 1e-5) {
  std::mt19937 rng(97);
  ir::Graph g("g");
  std::vector<ir::Value*> ins;
  for (size_t i = 0; i < c.graph_dims.size(); ++i) {
    if (i < c.constants.size() && c.constants[i].valid()) {
      ins.push_back(g.AddConstant("c" + std::to_string(i), c.constants[i]));
    } else {
      ins.push_back(g.AddInput("x" + std::to_string(i), TensorDesc(c.dtype, Shape(c.graph_dims[i]))));
    }
  }
  ir::Value* y = g.AddValue("y", TensorDesc(c.dtype, Shape::UnknownRank()));
  ir::Node* node = g.AddNode(c.op, "n", ins, {y});
  node->attrs() = c.attrs;
  node->set_engine(engine);
  const KernelSpec spec = MakeSpec(*node, RequestSettings());

  std::unique_ptr<PreparedKernel> kernel;
  std::unique_ptr<KernelBinding> binding;
  for (size_t run = 0; run < c.runs.size(); ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    std::vector<TensorDesc> in_descs;
    for (size_t i = 0; i < c.runs[run].size(); ++i) {
      const bool is_const = i < c.constants.size() && c.constants[i].valid();
      in_descs.push_back(TensorDesc(is_const ? c.constants[i].dtype() : c.dtype, Shape(c.runs[run][i])));
    }
    std::vector<TensorDesc> out_descs;
    auto probe = Reshape(spec, in_descs, engines, &out_descs);  // the output dims at this run's shapes
    EXPECT_TRUE(probe.ok()) << probe.status().ToString();
    if (!probe.ok()) return "";
    if (kernel == nullptr) {
      PrepareRequest r = MakeRequest(*node, RequestSettings());
      r.input_descs = in_descs;
      r.output_descs = out_descs;
      r.const_inputs = spec.const_inputs;
      r.varying_input_dims.resize(ins.size());
      for (size_t i = 0; i < ins.size(); ++i) {
        for (int64_t d : c.graph_dims[i]) r.varying_input_dims[i].push_back(d < 0);
      }
      auto k = PrepareKernel(r, engines);
      EXPECT_TRUE(k.ok()) << k.status().ToString();
      if (!k.ok()) return "";
      kernel = std::move(*k);
      EXPECT_TRUE(kernel->shape_agnostic()) << kernel->impl_name();
      if (!kernel->shape_agnostic()) return kernel->impl_name();
      auto b = kernel->NewBinding();
      EXPECT_TRUE(b.ok()) << b.status().ToString();
      binding = std::move(*b);
    }
    std::vector<Tensor> inputs;
    std::vector<Dims> in_dims(c.runs[run]);
    for (size_t i = 0; i < ins.size(); ++i) {
      const bool is_const = i < c.constants.size() && c.constants[i].valid();
      inputs.push_back(is_const ? c.constants[i] : RandomTensor(c.dtype, in_dims[i], rng));
      binding->io.inputs[i] = inputs.back().raw_data();
      binding->io.input_dims[i] = in_dims[i].data();
    }
    Tensor out = Tensor::Create(out_descs[0].dtype, out_descs[0].shape.dims()).value();
    Dims out_dims = out_descs[0].shape.dims();
    binding->io.outputs[0] = out.raw_data();
    binding->io.output_dims[0] = out_dims.data();
    rt::TaskContext ctx;
    Status s = kernel->fn()(binding.get(), ctx);
    EXPECT_TRUE(s.ok()) << s.ToString();
    auto want = MakeTester().Run(c.op, inputs, c.attrs, 1, 17, "");
    EXPECT_TRUE(want.ok()) << want.status().ToString();
    if (!s.ok() || !want.ok()) continue;
    EXPECT_TRUE(TensorsMatch(out, want->at(0).tensor, Tolerance{rtol, rtol}));
  }
  return kernel != nullptr ? kernel->impl_name() : "";
}

}  // namespace ge::exec::testing
