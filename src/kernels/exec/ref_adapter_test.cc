// The ref adapter: ops without a fast kernel equal their ref kernel, planned-dims mismatches are clear errors,
// re-patched slots are honoured, random ops are seeded per kernel, and what cannot be prepared is refused.
#include "kernels/exec/ref_adapter.h"

#include "kernels/exec/exec_test_util.h"

namespace ge::exec::testing {
namespace {

TEST(RefAdapter, ConvEqualsTheRefKernel) {
  std::mt19937 rng(31);
  ir::AttrMap attrs;
  attrs.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  attrs.Set("strides", ir::AttrValue::Ints({2, 1}));
  OpCase c("Conv",
           {RandomTensor(DataType::kFloat, {1, 3, 7, 6}, rng), RandomTensor(DataType::kFloat, {4, 3, 3, 3}, rng),
            RandomTensor(DataType::kFloat, {4}, rng)},
           {false, true, true}, attrs);
  ExpectMatchesRef(c, "ref", 0);
}

TEST(RefAdapter, SoftmaxEqualsTheRefKernelAndFollowsRepatchedSlots) {
  std::mt19937 rng(32);
  OpCase c("Softmax", {RandomTensor(DataType::kFloat, {3, 10}, rng)});
  ExpectMatchesRef(c, "ref", 0);

  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_TRUE((*p)->Run().ok());
  // Re-patch both slots (zero-copy graph IO) and run again: the new input is read, the new output written.
  OpCase c2("Softmax", {RandomTensor(DataType::kFloat, {3, 10}, rng)});
  Tensor in2 = c2.inputs[0].Clone().value();
  Tensor out2 = Tensor::Create(DataType::kFloat, {3, 10}).value();
  (*p)->binding->io.inputs[0] = in2.raw_data();
  (*p)->binding->io.outputs[0] = out2.raw_data();
  ASSERT_TRUE((*p)->Run().ok());
  auto want = RunRef(c2);
  ASSERT_TRUE(want.ok());
  ExpectTensorNear(out2, (*want)[0].tensor, 0, "after re-patch");
}

// An integer Add runs on the adapter; with its output slot on top of an input slot (the planner's in-place reuse,
// or a caller passing one buffer twice) the adapter must not hand the kernel zero-filled memory over the input.
TEST(RefAdapter, OutputSlotOverAnInputSlotStillComputesFromTheInput) {
  std::mt19937 rng(33);
  OpCase c("Add", {RandomTensor(DataType::kInt32, {4, 8}, rng, -100, 100),
                   RandomTensor(DataType::kInt32, {4, 8}, rng, -100, 100)});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_STREQ((*p)->kernel->impl_name(), "ref");
  auto want = RunRef(c);
  ASSERT_TRUE(want.ok());
  for (int run = 0; run < 2; ++run) {  // alias, then a separate buffer again (slots re-patched)
    Tensor a = c.inputs[0].Clone().value();
    Tensor out = Tensor::Create(DataType::kInt32, {4, 8}).value();
    (*p)->binding->io.inputs[0] = a.raw_data();
    (*p)->binding->io.outputs[0] = run == 0 ? a.raw_data() : out.raw_data();
    ASSERT_TRUE((*p)->Run().ok());
    ExpectTensorNear(run == 0 ? a : out, (*want)[0].tensor, 0, run == 0 ? "in place" : "separate");
  }
}

TEST(RefAdapter, OutputDimsMismatchIsAClearError) {
  std::mt19937 rng(33);
  OpCase c("Softmax", {RandomTensor(DataType::kFloat, {3, 10}, rng)});
  auto p = PrepareCase(c, {TensorDesc(DataType::kFloat, Shape(Dims{10, 3}))});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Status s = (*p)->Run();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.ToString();
  EXPECT_NE(s.message().find("n_Softmax"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("output 0"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("[3,10]"), std::string::npos) << s.ToString();

  auto dt = PrepareCase(c, {TensorDesc(DataType::kDouble, Shape(Dims{3, 10}))});
  ASSERT_TRUE(dt.ok()) << dt.status().ToString();
  EXPECT_EQ((*dt)->Run().code(), StatusCode::kFailedPrecondition);

  // Ops with fast kernels do not take a plan they cannot honour: the ref adapter runs and reports it.
  for (const char* op : {"Relu", "Identity"}) {
    auto fast = PrepareCase(OpCase(op, {RandomTensor(DataType::kFloat, {3, 10}, rng)}),
                            {TensorDesc(DataType::kFloat, Shape(Dims{4, 10}))});
    ASSERT_TRUE(fast.ok()) << fast.status().ToString();
    EXPECT_STREQ((*fast)->kernel->impl_name(), "ref");
    EXPECT_EQ((*fast)->Run().code(), StatusCode::kFailedPrecondition);
  }
  auto add = PrepareCase(
      OpCase("Add", {RandomTensor(DataType::kFloat, {3, 10}, rng), RandomTensor(DataType::kFloat, {10}, rng)}),
      {TensorDesc(DataType::kFloat, Shape(Dims{1, 3, 10}))});
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  EXPECT_STREQ((*add)->kernel->impl_name(), "ref");
  EXPECT_EQ((*add)->Run().code(), StatusCode::kFailedPrecondition);
}

TEST(RefAdapter, UnboundSlotIsAnError) {
  std::mt19937 rng(34);
  auto p = PrepareCase(OpCase("Softmax", {RandomTensor(DataType::kFloat, {2, 2}, rng)}));
  ASSERT_TRUE(p.ok());
  (*p)->binding->io.inputs[0] = nullptr;
  EXPECT_EQ((*p)->Run().code(), StatusCode::kFailedPrecondition);
}

TEST(RefAdapter, RandomOpsAreSeededPerKernel) {
  ir::AttrMap attrs;
  attrs.Set("shape", ir::AttrValue::Ints({4, 5}));
  OpCase c("RandomUniform", {}, {}, attrs);
  auto a = PrepareCase(c);
  auto b = PrepareCase(c);
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  ASSERT_TRUE((*a)->Run().ok());
  ASSERT_TRUE((*b)->Run().ok());
  ExpectTensorNear((*a)->outputs[0], (*b)->outputs[0], 0, "same seed, same values");
  Tensor first = (*a)->outputs[0].Clone().value();
  ASSERT_TRUE((*a)->Run().ok());
  bool differs = false;
  for (int64_t i = 0; i < first.numel(); ++i) differs |= first.data<float>()[i] != (*a)->outputs[0].data<float>()[i];
  EXPECT_TRUE(differs) << "the kernel's generator advances between runs";
}

ir::Node* AddNode(ir::Graph& g, const std::string& op, int inputs, int outputs) {
  std::vector<ir::Value*> ins, outs;
  for (int i = 0; i < inputs; ++i)
    ins.push_back(g.AddInput(op + "_in" + std::to_string(i), TensorDesc(DataType::kFloat, Shape(Dims{2}))));
  for (int i = 0; i < outputs; ++i)
    outs.push_back(g.AddValue(op + "_out" + std::to_string(i), TensorDesc(DataType::kFloat, Shape(Dims{2}))));
  return g.AddNode(op, "n_" + op, ins, outs);
}

TEST(CanPrepare, RefusesSubgraphsSequencesOptionalsAndUnknownOps) {
  ir::Graph g;
  EXPECT_TRUE(CanPrepare(*AddNode(g, "Relu", 1, 1)));
  EXPECT_TRUE(CanPrepare(*AddNode(g, "Softmax", 1, 1)));
  ir::Node* if_node = AddNode(g, "If", 1, 1);
  EXPECT_FALSE(CanPrepare(*if_node));
  if_node->AddSubgraph("then_branch", std::make_unique<ir::Graph>("then"));
  EXPECT_FALSE(CanPrepare(*if_node));
  EXPECT_FALSE(CanPrepare(*AddNode(g, "Loop", 2, 1)));
  EXPECT_FALSE(CanPrepare(*AddNode(g, "Scan", 1, 1)));
  EXPECT_FALSE(CanPrepare(*AddNode(g, "SequenceConstruct", 2, 1)));
  EXPECT_FALSE(CanPrepare(*AddNode(g, "OptionalHasElement", 1, 1)));
  EXPECT_FALSE(CanPrepare(*AddNode(g, "NoSuchOp", 1, 1)));
  // A sequence-typed value on an ordinary op, and a string tensor.
  ir::Node* id = AddNode(g, "Identity", 1, 1);
  id->output(0)->desc().kind = ValueKind::kSequence;
  EXPECT_FALSE(CanPrepare(*id));
  ir::Node* str = AddNode(g, "Identity", 1, 1);
  str->input(0)->desc().dtype = DataType::kString;
  EXPECT_FALSE(CanPrepare(*str));
}

TEST(PrepareKernel, RefusesWhatCannotBePreparedNamingTheNode) {
  ir::Graph g;
  ir::Node* n = AddNode(g, "SequenceConstruct", 2, 1);
  PrepareRequest r;
  r.node = n;
  r.input_descs = {TensorDesc(DataType::kFloat, Shape(Dims{2})), TensorDesc(DataType::kFloat, Shape(Dims{2}))};
  r.output_descs = {TensorDesc(DataType::kFloat, Shape(Dims{2}))};
  auto k = PrepareKernel(r);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(k.status().message().find("n_SequenceConstruct"), std::string::npos) << k.status().ToString();
  auto direct = RefAdapter::Create(r);
  EXPECT_EQ(direct.status().code(), StatusCode::kUnimplemented);
}

TEST(PrepareKernel, RejectsMalformedRequests) {
  ir::Graph g;
  ir::Node* n = AddNode(g, "Relu", 1, 1);
  PrepareRequest r;
  EXPECT_EQ(PrepareKernel(r).status().code(), StatusCode::kInvalidArgument);  // no node
  r.node = n;
  EXPECT_EQ(PrepareKernel(r).status().code(), StatusCode::kInvalidArgument);  // no descs
  r.input_descs = {TensorDesc(DataType::kFloat, Shape(Dims{2}))};
  r.output_descs = {TensorDesc(DataType::kFloat, Shape::UnknownRank())};
  EXPECT_EQ(PrepareKernel(r).status().code(), StatusCode::kInvalidArgument);  // not static
  r.output_descs = {TensorDesc(DataType::kFloat, Shape(Dims{2}))};
  auto ok = PrepareKernel(r);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_STREQ((*ok)->impl_name(), "exec.unary_f32");
}

}  // namespace
}  // namespace ge::exec::testing
