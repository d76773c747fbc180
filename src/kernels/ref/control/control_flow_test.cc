#include <gtest/gtest.h>

#include <memory>

#include "ir/graph.h"
#include "kernels/ref/control/test_graph_runner.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"
#include "ops/infer_util.h"

namespace ge::ref {
namespace {

using testing::OpTester;
using testing::TestGraphRunner;

// Test-local schemas and kernels of Add, Identity and Less (just what the bodies below need), so these tests need no
// other op family.
Status RefTestAdd(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0, a->dims(), DataType::kFloat));
  for (int64_t i = 0; i < a->numel(); ++i) {
    out->data<float>()[i] = a->data<float>()[i] + b->data<float>()[b->numel() == 1 ? 0 : i];
  }
  return Status::Ok();
}
Status RefTestIdentity(KernelContext& ctx) {
  ctx.SetOutputValue(0, *ctx.input_value(0));
  return Status::Ok();
}
Status InferTestLess(ops::InferContext& ctx) {
  ctx.output(0) = TensorDesc(DataType::kBool, Shape());
  return Status::Ok();
}
Status RefTestLess(KernelContext& ctx) {
  ctx.SetOutput(0, Tensor::Scalar<bool>(ctx.input(0)->GetAsInt64(0) < ctx.input(1)->GetAsInt64(0)));
  return Status::Ok();
}

class ControlFlowTest : public ::testing::Test {
 protected:
  ControlFlowTest() : t_(ops::RegisterControlOps, RegisterControlRefKernels) {
    t_.op_registry().Add({OpId::kAdd, 2, 2, 1, 1, ops::InferBroadcast});
    t_.op_registry().Add({OpId::kIdentity, 1, 1, 1, 1, ops::InferSameAsInput0});
    t_.op_registry().Add({OpId::kLess, 2, 2, 1, 1, InferTestLess});
    t_.kernel_registry().Add(OpId::kAdd, RefTestAdd);
    t_.kernel_registry().Add(OpId::kIdentity, RefTestIdentity);
    t_.kernel_registry().Add(OpId::kLess, RefTestLess);
  }
  TestGraphRunner Runner() { return TestGraphRunner(&t_.op_registry(), &t_.kernel_registry()); }
  OpTester t_;
};

TensorDesc F(Dims d) { return TensorDesc(DataType::kFloat, Shape(std::move(d))); }

// Loop body: y_out = y_in + 1; scan = y_out; cond_out = iter < limit.
std::unique_ptr<ir::Graph> CountingBody(int64_t limit) {
  auto g = std::make_unique<ir::Graph>("body");
  ir::Value* iter = g->AddInput("iter", TensorDesc(DataType::kInt64, Shape()));
  g->AddInput("cond_in", TensorDesc(DataType::kBool, Shape()));
  ir::Value* y_in = g->AddInput("y_in", F({1}));
  ir::Value* one = g->AddConstant("one", Tensor::Scalar<float>(1.0f));
  ir::Value* lim = g->AddConstant("limit", Tensor::Scalar<int64_t>(limit));
  ir::Value* cond_out = g->AddValue("cond_out", TensorDesc(DataType::kBool, Shape()));
  ir::Value* y_out = g->AddValue("y_out", F({1}));
  ir::Value* scan = g->AddValue("scan", F({1}));
  g->AddNode("Less", "less", {iter, lim}, {cond_out});
  g->AddNode("Add", "add", {y_in, one}, {y_out});
  g->AddNode("Identity", "id", {y_out}, {scan});
  g->AddOutput(cond_out);
  g->AddOutput(y_out);
  g->AddOutput(scan);
  return g;
}

struct LoopGraph {
  ir::Graph outer{"main"};
  ir::Node* loop = nullptr;
};

std::unique_ptr<LoopGraph> MakeLoop(bool with_m, bool with_cond, int64_t limit) {
  auto lg = std::make_unique<LoopGraph>();
  ir::Graph& g = lg->outer;
  ir::Value* m = with_m ? g.AddInput("M", TensorDesc(DataType::kInt64, Shape())) : nullptr;
  ir::Value* c = with_cond ? g.AddInput("cond", TensorDesc(DataType::kBool, Shape())) : nullptr;
  ir::Value* y = g.AddInput("y", F({1}));
  ir::Value* yf = g.AddValue("y_final");
  ir::Value* sc = g.AddValue("scan_out");
  lg->loop = g.AddNode("Loop", "loop", {m, c, y}, {yf, sc});
  lg->loop->AddSubgraph("body", CountingBody(limit));
  return lg;
}

TEST_F(ControlFlowTest, LoopTripCountAndScanOutput) {
  auto lg = MakeLoop(true, true, 100);
  TestGraphRunner r = Runner();
  r.Bind("M", Value(Tensor::Scalar<int64_t>(5)));
  r.Bind("cond", Value(Tensor::Scalar<bool>(true)));
  r.Bind("y", Value(Tensor::FromVector<float>({-2}, {1})));
  auto outs = r.RunOne(lg->loop, 11);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({3}, {1}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({-1, 0, 1, 2, 3}, {5, 1}), 0));
}

TEST_F(ControlFlowTest, LoopStopsOnCondition) {
  auto lg = MakeLoop(false, true, 2);  // iterations 0, 1, 2 run; iteration 2 returns cond=false
  TestGraphRunner r = Runner();
  r.Bind("cond", Value(Tensor::Scalar<bool>(true)));
  r.Bind("y", Value(Tensor::FromVector<float>({0}, {1})));
  auto outs = r.RunOne(lg->loop, 13);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({3}, {1}), 0));
  EXPECT_EQ((*outs)[1].tensor.dims(), (Dims{3, 1}));
}

TEST_F(ControlFlowTest, LoopIgnoresBodyConditionWithoutCondInput) {
  auto lg = MakeLoop(true, false, 0);
  TestGraphRunner r = Runner();
  r.Bind("M", Value(Tensor::Scalar<int64_t>(4)));
  r.Bind("y", Value(Tensor::FromVector<float>({0}, {1})));
  auto outs = r.RunOne(lg->loop, 16);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({4}, {1}), 0));
}

TEST_F(ControlFlowTest, LoopZeroTripsKeepsInitialValues) {
  auto lg = MakeLoop(true, true, 100);
  TestGraphRunner r = Runner();
  r.Bind("M", Value(Tensor::Scalar<int64_t>(0)));
  r.Bind("cond", Value(Tensor::Scalar<bool>(true)));
  r.Bind("y", Value(Tensor::FromVector<float>({7}, {1})));
  auto outs = r.RunOne(lg->loop);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({7}, {1}), 0));
  EXPECT_EQ((*outs)[1].tensor.dims(), (Dims{0, 1}));
}

TEST_F(ControlFlowTest, LoopErrors) {
  auto lg = MakeLoop(false, false, 0);
  TestGraphRunner r = Runner();
  r.Bind("y", Value(Tensor::FromVector<float>({0}, {1})));
  EXPECT_FALSE(r.RunOne(lg->loop).ok());  // would never end
  auto lg2 = MakeLoop(true, true, 3);
  TestGraphRunner r2 = Runner();
  r2.Bind("M", Value(Tensor::FromVector<int64_t>({1, 2}, {2})));
  r2.Bind("cond", Value(Tensor::Scalar<bool>(true)));
  r2.Bind("y", Value(Tensor::FromVector<float>({0}, {1})));
  EXPECT_FALSE(r2.RunOne(lg2->loop).ok());  // M is not a scalar
}

TEST_F(ControlFlowTest, LoopInferenceLeavesTripCountUnknown) {
  auto lg = MakeLoop(true, true, 3);
  ops::InferContext ctx;
  ir::AttrMap attrs;
  ctx.node = lg->loop;
  ctx.attrs = &attrs;
  ctx.op_type = "Loop";
  TensorDesc m(DataType::kInt64, Shape()), c(DataType::kBool, Shape()), y = F({kUnknownDim});
  ctx.inputs = {&m, &c, &y};
  ctx.input_values = {nullptr, nullptr, nullptr};
  ctx.outputs.resize(2);
  ASSERT_TRUE(t_.op_registry().Find("", "Loop")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim}));
  EXPECT_EQ(ctx.outputs[1].shape, Shape({kUnknownDim, 1}));
  EXPECT_EQ(ctx.outputs[1].dtype, DataType::kFloat);
}

TEST_F(ControlFlowTest, LoopCarriesSequence) {
  ir::Graph g("main");
  ir::Value* m = g.AddInput("M", TensorDesc(DataType::kInt64, Shape()));
  TensorDesc seq_desc(DataType::kFloat, Shape::UnknownRank());
  seq_desc.kind = ValueKind::kSequence;
  ir::Value* s = g.AddInput("s", seq_desc);
  ir::Value* out = g.AddValue("s_final");
  ir::Node* loop = g.AddNode("Loop", "loop", {m, nullptr, s}, {out});
  auto body = std::make_unique<ir::Graph>("body");
  ir::Value* iter = body->AddInput("iter", TensorDesc(DataType::kInt64, Shape()));
  ir::Value* cin = body->AddInput("cond_in", TensorDesc(DataType::kBool, Shape()));
  ir::Value* sin = body->AddInput("s_in", seq_desc);
  ir::Value* x = body->AddConstant("x", Tensor::FromVector<float>({1, 2}, {2}));
  ir::Value* cout = body->AddValue("cond_out");
  ir::Value* sout = body->AddValue("s_out", seq_desc);
  (void)iter;
  body->AddNode("Identity", "id", {cin}, {cout});
  body->AddNode("SequenceInsert", "ins", {sin, x}, {sout});
  body->AddOutput(cout);
  body->AddOutput(sout);
  loop->AddSubgraph("body", std::move(body));
  TestGraphRunner r = Runner();
  r.Bind("M", Value(Tensor::Scalar<int64_t>(3)));
  r.Bind("s", Value::Sequence({}, DataType::kFloat));
  auto outs = r.RunOne(loop, 13);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ASSERT_TRUE((*outs)[0].is_sequence());
  ASSERT_EQ((*outs)[0].sequence.size(), 3u);
  EXPECT_TRUE(TensorsMatch((*outs)[0].sequence[2], Tensor::FromVector<float>({1, 2}, {2}), 0));
}

std::unique_ptr<ir::Graph> ConstBranch(const std::string& name, Tensor t) {
  auto g = std::make_unique<ir::Graph>(name);
  ir::Value* c = g->AddConstant(name + "_c", t);
  c->desc() = TensorDesc(t.dtype(), Shape(t.dims()));
  g->AddOutput(c);
  return g;
}

TEST_F(ControlFlowTest, IfPicksBranchAndInfersMergedShape) {
  ir::Graph g("main");
  ir::Value* c = g.AddInput("c", TensorDesc(DataType::kBool, Shape()));
  ir::Value* out = g.AddValue("out");
  ir::Node* n = g.AddNode("If", "if", {c}, {out});
  n->AddSubgraph("then_branch", ConstBranch("then", Tensor::FromVector<float>({1, 2}, {2})));
  n->AddSubgraph("else_branch", ConstBranch("else", Tensor::FromVector<float>({3, 4, 5}, {3})));
  for (bool cond : {true, false}) {
    TestGraphRunner r = Runner();
    r.Bind("c", Value(Tensor::Scalar<bool>(cond)));
    auto outs = r.RunOne(n);
    ASSERT_TRUE(outs.ok()) << outs.status().ToString();
    Tensor want = cond ? Tensor::FromVector<float>({1, 2}, {2}) : Tensor::FromVector<float>({3, 4, 5}, {3});
    EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, want, 0));
  }
  ops::InferContext ctx;
  ir::AttrMap attrs;
  ctx.node = n;
  ctx.attrs = &attrs;
  ctx.op_type = "If";
  TensorDesc cd(DataType::kBool, Shape());
  ctx.inputs = {&cd};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(t_.op_registry().Find("", "If")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim}));
  TensorDesc bad(DataType::kFloat, Shape());
  ctx.inputs = {&bad};
  EXPECT_FALSE(t_.op_registry().Find("", "If")->infer(ctx).ok());
}

// Scan body: sum_out = sum_in + x; scan = sum_out.
std::unique_ptr<ir::Graph> SumBody() {
  auto g = std::make_unique<ir::Graph>("scan_body");
  ir::Value* s = g->AddInput("sum_in", F({2}));
  ir::Value* x = g->AddInput("next", F({2}));
  ir::Value* so = g->AddValue("sum_out", F({2}));
  ir::Value* sc = g->AddValue("scan_out", F({2}));
  g->AddNode("Add", "add", {s, x}, {so});
  g->AddNode("Identity", "id", {so}, {sc});
  g->AddOutput(so);
  g->AddOutput(sc);
  return g;
}

struct ScanCase {
  ir::Graph g{"main"};
  ir::Node* n = nullptr;
};

std::unique_ptr<ScanCase> MakeScan(bool batched) {
  auto sc = std::make_unique<ScanCase>();
  std::vector<ir::Value*> ins;
  if (batched) ins.push_back(sc->g.AddInput("lens", TensorDesc(DataType::kInt32, Shape({1}))));
  ins.push_back(sc->g.AddInput("init", F({})));
  ins.push_back(sc->g.AddInput("x", F({})));
  sc->n = sc->g.AddNode("Scan", "scan", ins, {sc->g.AddValue("y"), sc->g.AddValue("z")});
  sc->n->attrs().Set("num_scan_inputs", ir::AttrValue::Int(1));
  sc->n->AddSubgraph("body", SumBody());
  return sc;
}

TEST_F(ControlFlowTest, Scan9Sum) {
  auto sc = MakeScan(false);
  TestGraphRunner r = Runner();
  r.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {2})));
  r.Bind("x", Value(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2})));
  auto outs = r.RunOne(sc->n, 16);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({9, 12}, {2}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({1, 2, 4, 6, 9, 12}, {3, 2}), 0));
}

TEST_F(ControlFlowTest, Scan9DirectionsAndAxes) {
  auto sc = MakeScan(false);
  sc->n->attrs().Set("scan_input_directions", ir::AttrValue::Ints({1}));
  sc->n->attrs().Set("scan_output_axes", ir::AttrValue::Ints({-1}));
  TestGraphRunner r = Runner();
  r.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {2})));
  r.Bind("x", Value(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2})));
  auto outs = r.RunOne(sc->n, 11);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  // Backward partial sums 5,6 / 8,10 / 9,12 stacked along the last axis.
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({5, 8, 9, 6, 10, 12}, {2, 3}), 0));

  auto sc2 = MakeScan(false);
  sc2->n->attrs().Set("scan_input_axes", ir::AttrValue::Ints({1}));
  sc2->n->attrs().Set("scan_output_directions", ir::AttrValue::Ints({1}));
  TestGraphRunner r2 = Runner();
  r2.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {2})));
  r2.Bind("x", Value(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3})));  // columns [1,4] [2,5] [3,6]
  outs = r2.RunOne(sc2->n, 11);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({6, 15}, {2}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({6, 15, 3, 9, 1, 4}, {3, 2}), 0));
}

TEST_F(ControlFlowTest, Scan8BatchedWithSequenceLens) {
  auto sc = MakeScan(true);
  TestGraphRunner r = Runner();
  r.Bind("lens", Value(Tensor::FromVector<int32_t>({2}, {1})));
  r.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {1, 2})));
  r.Bind("x", Value(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {1, 3, 2})));
  auto outs = r.RunOne(sc->n, 8);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, Tensor::FromVector<float>({4, 6}, {1, 2}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[1].tensor, Tensor::FromVector<float>({1, 2, 4, 6, 0, 0}, {1, 3, 2}), 0))
      << (*outs)[1].tensor.DebugString();

  TestGraphRunner r2 = Runner();
  r2.Bind("lens", Value(Tensor::FromVector<int32_t>({4}, {1})));  // longer than the sequence
  r2.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {1, 2})));
  r2.Bind("x", Value(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {1, 3, 2})));
  EXPECT_FALSE(r2.RunOne(sc->n, 8).ok());
}

TEST_F(ControlFlowTest, ScanRejectsMismatchedLengths) {
  auto sc = MakeScan(false);
  sc->n->attrs().Set("num_scan_inputs", ir::AttrValue::Int(3));
  TestGraphRunner r = Runner();
  r.Bind("init", Value(Tensor::FromVector<float>({0, 0}, {2})));
  r.Bind("x", Value(Tensor::FromVector<float>({1, 2}, {1, 2})));
  EXPECT_FALSE(r.RunOne(sc->n, 11).ok());
}

TEST_F(ControlFlowTest, SequenceMapAddsTensorToEachElement) {
  ir::Graph g("main");
  TensorDesc seq_desc(DataType::kFloat, Shape::UnknownRank());
  seq_desc.kind = ValueKind::kSequence;
  ir::Value* s = g.AddInput("s", seq_desc);
  ir::Value* t = g.AddInput("t", F({1}));
  ir::Node* n = g.AddNode("SequenceMap", "map", {s, t}, {g.AddValue("out")});
  auto body = std::make_unique<ir::Graph>("body");
  ir::Value* a = body->AddInput("a", F({kUnknownDim}));
  ir::Value* b = body->AddInput("b", F({1}));
  ir::Value* o = body->AddValue("o", F({kUnknownDim}));
  body->AddNode("Add", "add", {a, b}, {o});
  body->AddOutput(o);
  n->AddSubgraph("body", std::move(body));
  TestGraphRunner r = Runner();
  r.Bind("s", Value::Sequence({Tensor::FromVector<float>({1, 2}, {2}), Tensor::FromVector<float>({3}, {1})},
                              DataType::kFloat));
  r.Bind("t", Value(Tensor::FromVector<float>({10}, {1})));
  auto outs = r.RunOne(n);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ASSERT_EQ((*outs)[0].sequence.size(), 2u);
  EXPECT_TRUE(TensorsMatch((*outs)[0].sequence[0], Tensor::FromVector<float>({11, 12}, {2}), 0));
  EXPECT_TRUE(TensorsMatch((*outs)[0].sequence[1], Tensor::FromVector<float>({13}, {1}), 0));
}

}  // namespace
}  // namespace ge::ref
