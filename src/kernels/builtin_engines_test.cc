#include "kernels/builtin_engines.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace ge::kernels {
namespace {

TensorDesc F32(Dims dims) { return TensorDesc(DataType::kFloat, Shape(dims)); }

TEST(BuiltinEngines, NamesAreUniqueAndFindable) {
  const EngineList engines = BuiltinEngines();
  ASSERT_FALSE(engines.empty());
  std::set<std::string> names;
  for (const auto& e : engines) {
    ASSERT_NE(e, nullptr);
    EXPECT_TRUE(names.insert(e->name()).second) << e->name();
    EXPECT_EQ(FindEngine(engines, e->name()), e.get());
  }
  EXPECT_NE(FindEngine(engines, "dnnl"), nullptr);
  EXPECT_EQ(FindEngine(engines, "no_such_engine"), nullptr);
}

TEST(BuiltinEngines, DnnlClaimsHeavyOpsAndSupportsLightOnes) {
  const Engine* dnnl = FindEngine(BuiltinEngines(), "dnnl");
  ASSERT_NE(dnnl, nullptr);
  ir::Graph g("g");
  ir::Value* x = g.AddInput("x", F32({1, 3, 8, 8}));
  ir::Value* y = g.AddValue("y", F32({1, 4, 6, 6}));
  ir::Value* w = g.AddInput("w", F32({4, 3, 3, 3}));
  ir::Node* conv = g.AddNode("Conv", "conv", {x, w}, {y}, "");
  ir::Value* r = g.AddValue("r", F32({1, 4, 6, 6}));
  ir::Node* relu = g.AddNode("Relu", "relu", {y}, {r}, "");
  EXPECT_TRUE(dnnl->Claims(*conv));
  EXPECT_TRUE(dnnl->Supports(*conv));
  EXPECT_FALSE(dnnl->Claims(*relu));  // element-wise work stays on ge's bit-exact kernels by default
  EXPECT_TRUE(dnnl->Supports(*relu));
  EXPECT_EQ(dnnl->BlockedChannels(IsaLevel::kX86_64_V4), 16);
  EXPECT_EQ(dnnl->BlockedChannels(IsaLevel::kX86_64_V3), 8);
}

TEST(BuiltinEngines, IsaLevelNeverAboveTheCpu) {
  const IsaLevel host = IsaLevelOf(HostIsa().features);
  EXPECT_EQ(EnginesMaxIsaLevel({}), host);
  EXPECT_LE(static_cast<int>(EnginesMaxIsaLevel(BuiltinEngines())), static_cast<int>(host));
}

}  // namespace
}  // namespace ge::kernels
