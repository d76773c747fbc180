#include "interpreter/interpreter.h"

#include <gtest/gtest.h>

namespace ge {
namespace {

// y = Relu(x) + Neg(x), and an If whose branches read x from the enclosing graph.
std::unique_ptr<ir::Model> BuildModel() {
  auto m = std::make_unique<ir::Model>();
  m->opsets[""] = 13;
  m->graph = std::make_unique<ir::Graph>("main");
  ir::Graph& g = *m->graph;
  ir::Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape({3})));
  ir::Value* c = g.AddInput("c", TensorDesc(DataType::kBool, Shape()));
  ir::Value* r = g.AddValue("r");
  ir::Value* n = g.AddValue("n");
  ir::Value* y = g.AddValue("y");
  ir::Value* z = g.AddValue("z");
  g.AddNode("Relu", "relu", {x}, {r});
  g.AddNode("Neg", "neg", {x}, {n});
  g.AddNode("Add", "add", {r, n}, {y});
  ir::Node* if_node = g.AddNode("If", "if", {c}, {z});
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto sub = std::make_unique<ir::Graph>(branch);
    ir::Value* cx = sub->AddCapture("x");
    ir::Value* out = sub->AddValue(std::string(branch) + "_out");
    sub->AddNode(std::string(branch) == "then_branch" ? "Relu" : "Neg", "b", {cx}, {out});
    sub->AddOutput(out);
    if_node->AddSubgraph(branch, std::move(sub));
  }
  g.AddOutput(y);
  g.AddOutput(z);
  return m;
}

TEST(Interpreter, RunsGraphAndSubgraphs) {
  auto m = BuildModel();
  auto interp = Interpreter::Create(m.get());
  ASSERT_TRUE(interp.ok()) << interp.status().ToString();
  std::vector<Value> outs;
  Status s = (*interp)->Run({Value(Tensor::FromVector<float>({-1, 2, -3}, {3})), Value(Tensor::Scalar<bool>(true))}, &outs);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(outs.size(), 2u);
  // relu(x) + neg(x) = {0+1, 2-2, 0+3}
  EXPECT_EQ(outs[0].tensor.ToInt64Vector(), (std::vector<int64_t>{1, 0, 3}));
  EXPECT_EQ(outs[1].tensor.ToInt64Vector(), (std::vector<int64_t>{0, 2, 0}));
  s = (*interp)->Run({Value(Tensor::FromVector<float>({-1, 2, -3}, {3})), Value(Tensor::Scalar<bool>(false))}, &outs);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(outs[1].tensor.ToInt64Vector(), (std::vector<int64_t>{1, -2, 3}));
}

TEST(Interpreter, RejectsWrongInputs) {
  auto m = BuildModel();
  auto interp = Interpreter::Create(m.get());
  ASSERT_TRUE(interp.ok());
  std::vector<Value> outs;
  Status s = (*interp)->Run({Value(Tensor::FromVector<float>({1, 2}, {2}))}, &outs);
  EXPECT_NE(s.message().find("expects 2 inputs"), std::string::npos) << s.ToString();
  s = (*interp)->Run({Value(Tensor::FromVector<float>({1, 2}, {2})), Value(Tensor::Scalar<bool>(true))}, &outs);
  EXPECT_NE(s.message().find("input 'x': expected shape [3]"), std::string::npos) << s.ToString();
  s = (*interp)->Run({Value(Tensor::FromVector<int32_t>({1, 2, 3}, {3})), Value(Tensor::Scalar<bool>(true))}, &outs);
  EXPECT_NE(s.message().find("expected dtype float32"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace ge
