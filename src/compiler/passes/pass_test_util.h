// Test helpers for the pass tests: parse a model written in the IR text form, run one pass through a
// PassManager (validating afterwards), and dump the root graph.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/compare.h"
#include "compiler/passes/pass_manager.h"
#include "interpreter/interpreter.h"
#include "kernels/builtin_engines.h"
#include "ir/dump.h"
#include "ir/text_parser.h"

namespace ge::compiler::testing {

// n deterministic values scale * (-8..8) as the IR text of a constant's contents: "[v0, v1, ...]".
inline std::string PatternValues(int n, double scale) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(scale * (((i * 37) % 17) - 8));
  return s + "]";
}

inline std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString() << "\n" << text;
  return m.ok() ? std::move(m).value() : nullptr;
}

struct PassResult {
  Status status;
  bool changed = false;
};

// A context with ge's engine list (the dnnl engine), as `ge compile` passes it.
inline PassContext BuiltinEnginesContext() {
  PassContext ctx;
  ctx.engines = kernels::BuiltinEngines();
  return ctx;
}

inline PassResult RunOnePass(std::unique_ptr<GraphPass> pass, ir::Model& m, PassContext ctx = {}) {
  ctx.validate = true;
  PassManager pm;
  pm.Add(std::move(pass));
  PassResult r;
  r.status = pm.Run(m, ctx);
  r.changed = !pm.stats().empty() && pm.stats()[0].changes > 0;
  return r;
}

// Parses `text`, runs `pass` on it, expects success and returns the dump of the root graph ("" on failure).
inline std::string RunAndDump(std::unique_ptr<GraphPass> pass, const std::string& text, bool* changed = nullptr,
                              PassContext ctx = {}) {
  auto m = Parse(text);
  if (!m) return "";
  PassResult r = RunOnePass(std::move(pass), *m, ctx);
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  if (changed) *changed = r.changed;
  return r.status.ok() ? ir::DumpText(*m->graph) : "";
}

// Runs both models through the interpreter on the same random float32 inputs (every graph input must be a
// float32 tensor with known dims) and checks each output of `b` against `a`'s with CompareRelativeL2: relative
// L2 error <= max_error, and NaN/inf only where `a` has the same. *error receives the largest relative L2 error
// (+inf when a check failed).
inline ::testing::AssertionResult ModelsAgree(const ir::Model& a, const ir::Model& b, double max_error,
                                              uint64_t seed = 1, double* error = nullptr) {
  if (error) *error = INFINITY;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  std::vector<Value> inputs;
  for (const ir::Value* in : a.graph->inputs()) {
    auto t = Tensor::Create(DataType::kFloat, in->desc().shape.dims());
    if (!t.ok()) return ::testing::AssertionFailure() << in->name() << ": " << t.status().ToString();
    for (int64_t i = 0; i < t->numel(); ++i) t->data<float>()[i] = dist(rng);
    inputs.emplace_back(*t);
  }
  std::vector<Value> outs[2];
  const ir::Model* models[2] = {&a, &b};
  for (int k = 0; k < 2; ++k) {
    auto interp = Interpreter::Create(models[k]);
    if (!interp.ok()) return ::testing::AssertionFailure() << interp.status().ToString();
    Status s = (*interp)->Run(inputs, &outs[k]);
    if (!s.ok()) return ::testing::AssertionFailure() << s.ToString();
  }
  if (outs[0].size() != outs[1].size()) {
    return ::testing::AssertionFailure() << outs[1].size() << " outputs, expected " << outs[0].size();
  }
  double worst = 0;
  for (size_t o = 0; o < outs[0].size(); ++o) {
    double e = 0;
    Status s = CompareRelativeL2(outs[1][o].tensor, outs[0][o].tensor, max_error, "output " + std::to_string(o), &e);
    if (!s.ok()) return ::testing::AssertionFailure() << s.message();
    worst = std::max(worst, e);
  }
  if (error) *error = worst;
  return ::testing::AssertionSuccess();
}

}  // namespace ge::compiler::testing
