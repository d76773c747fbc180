// Test helpers for the pass tests: parse a model written in the IR text form, run one pass through a
// PassManager (validating afterwards), and dump the root graph.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compiler/passes/pass_manager.h"
#include "interpreter/interpreter.h"
#include "ir/dump.h"
#include "ir/text_parser.h"

namespace ge::compiler::testing {

inline std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString() << "\n" << text;
  return m.ok() ? std::move(m).value() : nullptr;
}

struct PassResult {
  Status status;
  bool changed = false;
};

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
// float32 tensor with known dims) and returns the largest relative L2 error over the outputs.
inline double MaxRelativeL2(const ir::Model& a, const ir::Model& b, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  std::vector<Value> inputs;
  for (const ir::Value* in : a.graph->inputs()) {
    auto t = Tensor::Create(DataType::kFloat, in->desc().shape.dims());
    EXPECT_TRUE(t.ok()) << in->name();
    if (!t.ok()) return INFINITY;
    for (int64_t i = 0; i < t->numel(); ++i) t->data<float>()[i] = dist(rng);
    inputs.emplace_back(*t);
  }
  std::vector<Value> outs[2];
  const ir::Model* models[2] = {&a, &b};
  for (int k = 0; k < 2; ++k) {
    auto interp = Interpreter::Create(models[k]);
    EXPECT_TRUE(interp.ok()) << interp.status().ToString();
    if (!interp.ok()) return INFINITY;
    Status s = (*interp)->Run(inputs, &outs[k]);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return INFINITY;
  }
  EXPECT_EQ(outs[0].size(), outs[1].size());
  double worst = 0;
  for (size_t o = 0; o < outs[0].size() && o < outs[1].size(); ++o) {
    const Tensor& x = outs[0][o].tensor;
    const Tensor& y = outs[1][o].tensor;
    EXPECT_EQ(x.dims(), y.dims());
    if (x.dims() != y.dims()) return INFINITY;
    double num = 0, den = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      double d = x.GetAsDouble(i) - y.GetAsDouble(i);
      num += d * d;
      den += x.GetAsDouble(i) * x.GetAsDouble(i);
    }
    worst = std::max(worst, std::sqrt(num / std::max(den, 1e-30)));
  }
  return worst;
}

}  // namespace ge::compiler::testing
