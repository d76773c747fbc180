// ONNX training info lowered into session graphs: variables for the bound initializers, the step graph that
// writes them, the inference graph that reads them; run in a session.
#include "session/training_graphs.h"

#include <gtest/gtest.h>

#include <map>

#include "ge/session.h"
#include "ops/op_id.h"
#include "session/graph_access.h"

namespace ge::session {
namespace {

// Inference: y = Neg(x * W). Training step (SGD): W_new = W - G, counter n_new = n + 1 (n unused by inference).
std::unique_ptr<ir::Model> SgdModel() {
  auto m = std::make_unique<ir::Model>();
  m->opsets[""] = 17;
  m->graph = std::make_unique<ir::Graph>("sgd");
  ir::Graph& g = *m->graph;
  const Tensor w = Tensor::FromVector<float>({1, 2}, {2});
  const Tensor n = Tensor::Scalar<int64_t>(0);
  ir::Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape(Dims{2})));
  ir::Value* wc = g.AddConstant("W", w);
  ir::Value* xw = g.AddValue("xw", TensorDesc(DataType::kFloat, Shape(Dims{2})));
  ir::Value* y = g.AddValue("y", TensorDesc(DataType::kFloat, Shape(Dims{2})));
  g.AddNode("Mul", "mul", {x, wc}, {xw});
  g.AddNode("Neg", "neg", {xw}, {y});
  g.AddOutput(y);
  m->training_initializers["W"] = w;
  m->training_initializers["n"] = n;

  ir::TrainingInfo info;
  info.algorithm = std::make_unique<ir::Graph>("step");
  ir::Graph& a = *info.algorithm;
  ir::Value* grad = a.AddInput("G", TensorDesc(DataType::kFloat, Shape(Dims{2})));
  ir::Value* w_cap = a.AddCapture("W");
  w_cap->desc() = TensorDesc(DataType::kFloat, Shape(Dims{2}));
  ir::Value* n_cap = a.AddCapture("n");
  n_cap->desc() = TensorDesc(DataType::kInt64, Shape(Dims{}));
  ir::Value* one = a.AddConstant("one", Tensor::Scalar<int64_t>(1));
  ir::Value* w_new = a.AddValue("W_new", TensorDesc(DataType::kFloat, Shape(Dims{2})));
  ir::Value* n_new = a.AddValue("n_new", TensorDesc(DataType::kInt64, Shape(Dims{})));
  ir::Value* loss = a.AddValue("loss", TensorDesc(DataType::kFloat, Shape(Dims{})));
  a.AddNode("Sub", "sub", {w_cap, grad}, {w_new});
  a.AddNode("Add", "count", {n_cap, one}, {n_new});
  a.AddNode("ReduceSum", "loss", {w_cap}, {loss})->attrs().Set("keepdims", ir::AttrValue::Int(0));
  a.AddOutput(loss);
  a.AddOutput(w_new);
  a.AddOutput(n_new);
  info.update_binding = {{"W", "W_new"}, {"n", "n_new"}};
  m->training_info.push_back(std::move(info));
  return m;
}

int CountOps(const ir::Graph& g, ops::OpId id) {
  int n = 0;
  for (const ir::Node* node : g.nodes()) n += ops::IsOp(*node, id) ? 1 : 0;
  return n;
}

TEST(LowerTraining, BindingsBecomeVariablesAndAssigns) {
  auto model = SgdModel();
  auto lowered = LowerTraining(*model);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  EXPECT_EQ(lowered->variables, (std::vector<std::string>{"W", "n"}));
  EXPECT_EQ(lowered->initialization, nullptr);
  EXPECT_EQ(CountOps(*lowered->inference->graph, ops::OpId::kGeVariable), 2);
  EXPECT_EQ(CountOps(*lowered->step->graph, ops::OpId::kGeAssign), 2);
  ASSERT_EQ(lowered->step->graph->outputs().size(), 1u);  // loss; the bound outputs are written, not returned
  EXPECT_EQ(lowered->step->graph->inputs().size(), 2u);   // x (inference) and G (algorithm)
}

TEST(LowerTraining, StepsUpdateWhatInferenceReads) {
  auto lowered = LowerTraining(*SgdModel());
  ASSERT_TRUE(lowered.ok());
  ASSERT_TRUE(GEInitialize().ok());
  Session s;
  Status added = s.AddGraph(1, GraphAccess::FromModel(std::move(lowered->step)));
  ASSERT_TRUE(added.ok()) << added.ToString();
  ASSERT_TRUE(s.AddGraph(2, GraphAccess::FromModel(std::move(lowered->inference))).ok());
  const Tensor x = Tensor::FromVector<float>({1, 1}, {2});
  const Tensor g = Tensor::FromVector<float>({0.5f, 0.5f}, {2});
  std::vector<Tensor> out;
  for (int i = 0; i < 2; ++i) {
    Status st = s.RunGraph(1, {x, g}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_FLOAT_EQ(out[0].data<float>()[0], 2.0f);  // loss of step 2 reads W before its write: 0.5 + 1.5
  ASSERT_TRUE(s.RunGraph(2, {x}, out).ok());
  EXPECT_FLOAT_EQ(out[0].data<float>()[0], -0.0f);
  EXPECT_FLOAT_EQ(out[0].data<float>()[1], -1.0f);
  std::vector<std::string> names{"n"};
  std::vector<Tensor> values;
  ASSERT_TRUE(s.GetVariables(names, values).ok());
  EXPECT_EQ(values[0].data<int64_t>()[0], 2);
}

// SgdModel whose initialization graph sets n to 5.
std::unique_ptr<ir::Model> SgdModelWithInitialization() {
  auto model = SgdModel();
  auto init = std::make_unique<ir::Graph>("init");
  init->AddOutput(init->AddConstant("n0", Tensor::Scalar<int64_t>(5)));
  model->training_info[0].initialization = std::move(init);
  model->training_info[0].initialization_binding = {{"n", "n0"}};
  return model;
}

TEST(LowerTraining, InitializationGraphKeepsTheModelsVersionsAndProducer) {
  auto model = SgdModelWithInitialization();
  model->ir_version = 9;
  model->producer = "pytorch";
  auto lowered = LowerTraining(*model);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  ASSERT_NE(lowered->initialization, nullptr);
  EXPECT_EQ(lowered->initialization->ir_version, 9);
  EXPECT_EQ(lowered->initialization->producer, "pytorch");
  EXPECT_EQ(lowered->initialization->opsets, (std::map<std::string, int64_t>{{"", 17}, {"ge", 1}}));
  EXPECT_EQ(CountOps(*lowered->initialization->graph, ops::OpId::kGeAssign), 1);
}

TEST(LowerTraining, InitializationGraphMakesVariablesOnlyOfBoundInitializers) {
  auto model = SgdModelWithInitialization();
  model->training_initializers["scale"] = Tensor::Scalar<float>(0.5f);  // no binding names it
  auto lowered = LowerTraining(*model);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  ASSERT_NE(lowered->initialization, nullptr);
  const ir::Graph& init = *lowered->initialization->graph;
  EXPECT_EQ(CountOps(init, ops::OpId::kGeVariable), 2);  // W and n
  const ir::Value* scale = init.FindValue("scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE(scale->is_constant());
}

TEST(LowerTraining, ModelsWithoutTrainingInfoAreRefused) {
  auto model = SgdModel();
  model->training_info.clear();
  EXPECT_EQ(LowerTraining(*model).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ge::session
