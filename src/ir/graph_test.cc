#include "ir/graph.h"

#include <gtest/gtest.h>

#include "ir/dump.h"

namespace ge::ir {
namespace {

// x -> Relu -> a -> Neg -> y ; a -> Abs -> b (dead)
std::unique_ptr<Graph> SmallGraph() {
  auto g = std::make_unique<Graph>("g");
  Value* x = g->AddInput("x", TensorDesc(DataType::kFloat, Shape({2, 3})));
  Value* a = g->AddValue("a");
  Value* y = g->AddValue("y");
  Value* b = g->AddValue("b");
  g->AddNode("Neg", "neg", {a}, {y});
  g->AddNode("Relu", "relu", {x}, {a});
  g->AddNode("Abs", "abs", {a}, {b});
  g->AddOutput(y);
  return g;
}

TEST(Graph, TopologicalOrderIsStable) {
  auto g = SmallGraph();
  auto order = g->TopologicalOrder();
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), 3u);
  EXPECT_EQ((*order)[0]->name(), "relu");
  EXPECT_EQ((*order)[1]->name(), "neg");
  EXPECT_EQ((*order)[2]->name(), "abs");
}

TEST(Graph, DetectsCycle) {
  Graph g("cyc");
  Value* a = g.AddValue("a");
  Value* b = g.AddValue("b");
  g.AddNode("Relu", "r1", {a}, {b});
  g.AddNode("Relu", "r2", {b}, {a});
  auto order = g.TopologicalOrder();
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.status().message().find("cycle"), std::string::npos);
  EXPECT_FALSE(g.Validate().ok());
}

TEST(Graph, UsesAndReplace) {
  auto g = SmallGraph();
  Value* a = g->FindValue("a");
  EXPECT_EQ(a->uses().size(), 2u);
  Value* x = g->FindValue("x");
  g->ReplaceAllUses(a, x);
  EXPECT_TRUE(a->uses().empty());
  EXPECT_EQ(x->uses().size(), 3u);
  Node* relu = a->producer();
  g->RemoveNode(relu);
  g->RemoveDeadValues();
  EXPECT_EQ(g->FindValue("a"), nullptr);
  EXPECT_EQ(g->num_nodes(), 2);
  EXPECT_TRUE(g->Validate().ok());
}

TEST(Graph, RenameValueKeepsLookupRight) {
  auto g = SmallGraph();
  Value* y = g->FindValue("y");
  g->RenameValue(y, "y_old");
  EXPECT_EQ(g->FindValue("y"), nullptr);
  EXPECT_EQ(g->FindValue("y_old"), y);
  EXPECT_EQ(y->name(), "y_old");
  EXPECT_EQ(g->UniqueValueName("y"), "y");
  EXPECT_TRUE(g->Validate().ok());
}

TEST(Graph, ValidateNamesMissingProducer) {
  Graph g("bad");
  Value* ghost = g.AddValue("ghost");
  Value* y = g.AddValue("y");
  g.AddNode("Relu", "r", {ghost}, {y});
  g.AddOutput(y);
  Status s = g.Validate();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'ghost'"), std::string::npos);
  EXPECT_NE(s.message().find("'r'"), std::string::npos);
}

TEST(Graph, ControlEdgesOrderNodes) {
  Graph g("ctl");
  Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape({1})));
  Value* a = g.AddValue("a");
  Value* b = g.AddValue("b");
  Node* first = g.AddNode("Relu", "first", {x}, {a});
  Node* second = g.AddNode("Neg", "second", {x}, {b});
  first->AddControlInput(second);
  auto order = g.TopologicalOrder();
  ASSERT_TRUE(order.ok());
  EXPECT_EQ((*order)[0]->name(), "second");
}

TEST(Dump, TextAndDot) {
  auto g = SmallGraph();
  g->FindValue("a")->desc() = TensorDesc(DataType::kFloat, Shape({2, 3}));
  g->FindValue("y")->producer()->attrs().Set("alpha", AttrValue::Float(0.5f));
  std::string text = DumpText(*g);
  EXPECT_NE(text.find("graph g("), std::string::npos) << text;
  EXPECT_NE(text.find("%a: float32[2,3] = Relu(%x)"), std::string::npos) << text;
  EXPECT_NE(text.find("{alpha=0.5}"), std::string::npos) << text;
  EXPECT_EQ(text, DumpText(*g));  // stable
  std::string dot = DumpDot(*g);
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("->"), std::string::npos);
}

}  // namespace
}  // namespace ge::ir
