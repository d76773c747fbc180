#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::compiler {
namespace {

using testing::BuiltinEnginesContext;
using testing::Parse;
using testing::RunOnePass;

// A convolution (several oneDNN variants) and a constant-weight MatMul (oneDNN's or ge's packed SGEMM).
const char* kNet = R"(opset "" 17
graph net(%x: float32[1,16,16,16], %v: float32[64,256]) {
  const %w: float32[16,16,3,3] = <elided 2304 elements>
  const %m: float32[256,64] = <elided 16384 elements>
  conv: %a: float32[1,16,16,16] = Conv(%x, %w) {pads=[1,1,1,1]} @dnnl
  mm: %b: float32[64,64] = MatMul(%v, %m) @dnnl
  return %a, %b
})";

// Runs the tune pass for `threads` and returns the nodes' recorded thread counts (0 where none is recorded).
std::vector<int64_t> TunedThreads(int threads, TuneReport* report) {
  auto m = Parse(kNet);
  EXPECT_NE(m, nullptr);
  if (m == nullptr) return {};
  auto r = RunOnePass(CreateTunePass(threads, report), *m, BuiltinEnginesContext());
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  std::vector<int64_t> counts;
  for (const ir::Node* n : m->graph->nodes()) counts.push_back(n->attrs().GetInt(exec::kKernelThreadsAttr, 0));
  return counts;
}

// A model tuned for one thread records no thread count: loaded with more threads, its nodes use them all (a count
// of 1 on every node once made a model compiled with the default --threads run 1.4-1.7x slower at 2 threads).
TEST(TunePass, OneThreadRecordsNoThreadCount) {
  TuneReport report;
  for (int64_t t : TunedThreads(1, &report)) EXPECT_EQ(t, 0);
  EXPECT_GE(report.nodes, 1);  // the convolution's variants at least
  EXPECT_LE(report.changed, report.nodes);
}

// Tuned for two threads, a node records a count only where fewer threads were faster.
TEST(TunePass, RecordsOnlyFewerThreadsThanTheModels) {
  TuneReport report;
  for (int64_t t : TunedThreads(2, &report)) EXPECT_TRUE(t == 0 || t == 1) << t;
  EXPECT_EQ(report.nodes, 2);  // each node has at least two candidates at two thread counts
  EXPECT_GE(report.seconds_saved, 0);
}

// A node with one variant still has two candidates at two threads (all of them and one): it is timed.
TEST(TunePass, OneVariantAtTwoThreadsIsStillTuned) {
  auto m = Parse(R"(opset "" 17
graph net(%x: float32[1,64,56,56]) {
  relu: %y: float32[1,64,56,56] = Relu(%x) @dnnl
  return %y
})");
  ASSERT_NE(m, nullptr);
  TuneReport report;
  auto r = RunOnePass(CreateTunePass(2, &report), *m, BuiltinEnginesContext());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(report.nodes, 1);
  TuneReport one;
  auto m1 = Parse(R"(opset "" 17
graph net(%x: float32[1,64,56,56]) {
  relu: %y: float32[1,64,56,56] = Relu(%x) @dnnl
  return %y
})");
  ASSERT_NE(m1, nullptr);
  ASSERT_TRUE(RunOnePass(CreateTunePass(1, &one), *m1, BuiltinEnginesContext()).status.ok());
  EXPECT_EQ(one.nodes, 0);  // one variant at one thread: nothing to choose
}

// Scores decided by the test (TuneScore): the candidate scored fastest by more than 5% is what the node records,
// the report counts it and what it saves, and the pass says it changed the graph.
TEST(TunePass, RecordsTheFastestCandidateBeyondTheNoiseMargin) {
  auto m = Parse(kNet);
  ASSERT_NE(m, nullptr);
  std::map<std::string, std::vector<std::string>> seen;  // node -> variants scored at the model's thread count
  TuneScore score = [&](const ir::Node& n, const std::string& variant, int threads, double) {
    if (threads == 2) seen[n.name()].push_back(variant);
    // conv: its second-listed variant at one thread is the fastest; mm: everything alike (the default stays)
    const std::vector<std::string>& conv = seen["conv"];
    if (n.name() == "conv") return (threads == 1 && conv.size() >= 2 && variant == conv[1]) ? 1.0 : 2.0;
    return 1.0;
  };
  TuneReport report;
  auto r = RunOnePass(CreateTunePass(2, &report, {}, score), *m, BuiltinEnginesContext());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(report.failed_candidates, 0);
  ASSERT_GE(seen["conv"].size(), 2u);
  const ir::Node* conv = nullptr;
  const ir::Node* mm = nullptr;
  for (const ir::Node* n : m->graph->nodes()) (n->name() == "conv" ? conv : mm) = n;
  ASSERT_TRUE(conv != nullptr && mm != nullptr);
  const std::string want = seen["conv"][1];
  EXPECT_EQ(conv->attrs().GetString(exec::kKernelVariantAttr, ""), want);
  EXPECT_EQ(conv->attrs().GetInt(exec::kKernelThreadsAttr, 0), 1);
  EXPECT_FALSE(mm->attrs().Has(exec::kKernelThreadsAttr));
  EXPECT_EQ(mm->attrs().GetString(exec::kKernelVariantAttr, ""), seen["mm"].front());
  EXPECT_EQ(report.changed, 1);
  EXPECT_DOUBLE_EQ(report.seconds_saved, 1.0);
}

// Within the 5% margin the default stays: noise must not move nodes.
TEST(TunePass, KeepsTheDefaultWithinTheNoiseMargin) {
  auto m = Parse(kNet);
  ASSERT_NE(m, nullptr);
  std::map<std::string, int> calls;
  TuneScore score = [&](const ir::Node& n, const std::string&, int, double) {
    return calls[n.name()]++ == 0 ? 1.0 : 0.97;  // the default first, every other candidate 3% faster
  };
  TuneReport report;
  ASSERT_TRUE(RunOnePass(CreateTunePass(2, &report, {}, score), *m, BuiltinEnginesContext()).status.ok());
  EXPECT_EQ(report.changed, 0);
  EXPECT_EQ(report.seconds_saved, 0);
  for (const ir::Node* n : m->graph->nodes()) EXPECT_FALSE(n->attrs().Has(exec::kKernelThreadsAttr)) << n->name();
}

// Every candidate of the test net prepares and runs: none counted failed (a candidate that cannot run is never
// chosen, and is counted).
TEST(TunePass, CountsNoFailedCandidatesOnAHealthyNet) {
  TuneReport report;
  TunedThreads(2, &report);
  EXPECT_EQ(report.failed_candidates, 0);
  EXPECT_EQ(report.nodes, 2);
}

}  // namespace
}  // namespace ge::compiler
