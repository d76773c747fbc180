#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/packed_gemm.h"

namespace ge::compiler {
namespace {

using testing::BuiltinEnginesContext;
using testing::Parse;
using testing::RunOnePass;

// A small constant-weight MatMul (ge's packed SGEMM takes it at any target) and a convolution (oneDNN's).
const char* kNet = R"(opset "" 17
graph net(%x: float32[1,16,16,16], %v: float32[8,64]) {
  const %w: float32[16,16,3,3] = <elided 2304 elements>
  const %m: float32[64,32] = <elided 2048 elements>
  conv: %a: float32[1,16,16,16] = Conv(%x, %w) {pads=[1,1,1,1]} @dnnl
  mm: %b: float32[8,32] = MatMul(%v, %m) @dnnl
  return %a, %b
})";

// Each engine node gets the implementation and the engine that prepared it (exec/engine_choice.h), with or without
// a report to count them in.
TEST(KernelSelectionPass, RecordsTheChosenImplementationAndEngine) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  for (bool with_report : {false, true}) {
    SCOPED_TRACE(with_report ? "with a report" : "without a report");
    auto m = Parse(kNet);
    ASSERT_NE(m, nullptr);
    KernelSelectionReport report;
    auto r = RunOnePass(
        CreateKernelSelectionPass(1, /*prepack=*/false, /*keep_sourced=*/false, with_report ? &report : nullptr), *m,
        BuiltinEnginesContext());
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    for (const ir::Node* n : m->graph->nodes()) {
      const std::string impl = n->attrs().GetString(kKernelImplAttr, "");
      if (n->name() == "mm") {
        EXPECT_EQ(impl, "exec.packed_gemm_avx2");
        EXPECT_EQ(n->engine(), "exec");
      } else {
        EXPECT_EQ(impl.rfind("dnnl.conv", 0), 0u) << impl;
        EXPECT_EQ(n->engine(), "dnnl");
      }
    }
    if (with_report) {
      EXPECT_EQ(report.impls["exec.packed_gemm_avx2"], 1);
      EXPECT_TRUE(report.reference_nodes.empty());
    }
  }
}

// ge.weights.prepack=0 (prepack false) stores no packed weights; with prepacking the convolution's weights become
// the kernel's layout (a packed input), ge's SGEMM packs at load (no packed constants for it).
TEST(KernelSelectionPass, PrepacksOnlyWhenAsked) {
  for (bool prepack : {false, true}) {
    SCOPED_TRACE(prepack ? "prepack" : "no prepack");
    auto m = Parse(kNet);
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateKernelSelectionPass(1, prepack, false, nullptr), *m, BuiltinEnginesContext());
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    for (const ir::Node* n : m->graph->nodes()) {
      const bool packed = n->attrs().Has(exec::kPackedInputAttr);
      EXPECT_EQ(packed, prepack && n->name() == "conv") << n->name();
    }
  }
}

// ge.engine.exec=0 keeps every node on its assigned engine.
TEST(KernelSelectionPass, AnEngineTurnedOffIsNotOffered) {
  auto m = Parse(kNet);
  ASSERT_NE(m, nullptr);
  PassContext ctx = BuiltinEnginesContext();
  ctx.options["ge.engine.exec"] = "0";
  auto r = RunOnePass(CreateKernelSelectionPass(1, false, false, nullptr), *m, ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  for (const ir::Node* n : m->graph->nodes()) {
    EXPECT_EQ(n->engine(), "dnnl") << n->name();
    EXPECT_EQ(n->attrs().GetString(kKernelImplAttr, "").rfind("dnnl.", 0), 0u) << n->name();
  }
}

}  // namespace
}  // namespace ge::compiler
