#include "kernels/exec/engine_choice.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::exec {
namespace {

// A kernel that only names its engine.
class NamedKernel final : public PreparedKernel {
 public:
  explicit NamedKernel(std::string name) : name_(std::move(name)) {}
  const char* impl_name() const override { return name_.c_str(); }

 private:
  std::string name_;
};

// An engine that supports the ops named `supports`, prepares a node when `takes` is set or the node's variant is
// one of `variants`, and lists `variants`.
class FakeEngine final : public kernels::Engine {
 public:
  FakeEngine(std::string name, bool supports, bool takes, std::vector<std::string> variants = {})
      : name_(std::move(name)), supports_(supports), takes_(takes), variants_(std::move(variants)) {}
  const char* name() const override { return name_.c_str(); }
  std::vector<ops::OpId> Ops() const override { return {}; }
  bool Claims(const ir::Node&) const override { return false; }
  bool Supports(const ir::Node&) const override { return supports_; }
  StatusOr<std::unique_ptr<PreparedKernel>> Prepare(const PrepareRequest& r) const override {
    const std::string v = r.node->attrs().GetString(kKernelVariantAttr, "");
    const bool own_variant = std::find(variants_.begin(), variants_.end(), v) != variants_.end();
    if ((v.empty() && takes_) || own_variant) return std::unique_ptr<PreparedKernel>(new NamedKernel(name_));
    return std::unique_ptr<PreparedKernel>();
  }
  StatusOr<kernels::KernelChoice> Choose(const PrepareRequest& r) const override {
    GE_ASSIGN_OR_RETURN(auto k, Prepare(r));
    kernels::KernelChoice c;
    c.prepared = k != nullptr;
    if (k != nullptr) c.impl = k->impl_name();
    return c;
  }
  std::vector<std::string> Variants(const PrepareRequest&) const override { return variants_; }

 private:
  std::string name_;
  bool supports_, takes_;
  std::vector<std::string> variants_;
};

struct OneNode {
  ir::Graph g;
  ir::Node* node = nullptr;
  PrepareRequest request;
  explicit OneNode(const std::string& engine) {
    node = g.AddNode("Relu", "n", {}, {});
    node->set_engine(engine);
    request.node = node;
  }
};

std::vector<std::string> Names(const std::vector<const kernels::Engine*>& engines) {
  std::vector<std::string> out;
  for (const kernels::Engine* e : engines) out.push_back(e->name());
  return out;
}

TEST(EngineChoice, EnginesBeforeTheNodesOwnThatSupportItComeFirst) {
  const kernels::EngineList engines = {
      std::make_shared<FakeEngine>("a", true, false), std::make_shared<FakeEngine>("b", false, true),
      std::make_shared<FakeEngine>("c", true, true), std::make_shared<FakeEngine>("d", true, true)};
  OneNode on_c("c");
  EXPECT_EQ(Names(CandidateEngines(*on_c.node, engines)), (std::vector<std::string>{"a", "c"}));
  OneNode on_b("b");  // its own engine always, whether it says it supports the node or not
  EXPECT_EQ(Names(CandidateEngines(*on_b.node, engines)), (std::vector<std::string>{"a", "b"}));
  OneNode none("ref");
  EXPECT_TRUE(CandidateEngines(*none.node, engines).empty());
  // A kernel chosen at compile pins the node to its engine.
  on_c.node->attrs().Set(kKernelImplAttr, ir::AttrValue::String("c"));
  EXPECT_EQ(Names(CandidateEngines(*on_c.node, engines)), (std::vector<std::string>{"c"}));
}

TEST(EngineChoice, TheFirstCandidateThatPreparesRunsTheNode) {
  const kernels::EngineList engines = {std::make_shared<FakeEngine>("first", true, false),
                                       std::make_shared<FakeEngine>("own", true, true)};
  OneNode n("own");
  const kernels::Engine* chosen = nullptr;
  auto k = PrepareOnEngines(n.request, engines, &chosen);
  ASSERT_TRUE(k.ok());
  ASSERT_NE(*k, nullptr);
  EXPECT_STREQ((*k)->impl_name(), "own");
  EXPECT_STREQ(chosen->name(), "own");
  const kernels::EngineList eager = {std::make_shared<FakeEngine>("first", true, true), engines[1]};
  auto c = ChooseOnEngines(n.request, eager, &chosen);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->prepared);
  EXPECT_EQ(c->impl, "first");
  EXPECT_STREQ(chosen->name(), "first");
  const kernels::EngineList none = {std::make_shared<FakeEngine>("own", true, false)};
  auto d = PrepareOnEngines(n.request, none, &chosen);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, nullptr);
  EXPECT_EQ(chosen, nullptr);
  chosen = engines[1].get();  // a caller's stale value is cleared when every candidate declines
  auto e = ChooseOnEngines(n.request, none, &chosen);
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(e->prepared);
  EXPECT_EQ(chosen, nullptr);
}

TEST(EngineChoice, VariantsListTheDefaultEnginesFirst) {
  auto ge_first = std::make_shared<FakeEngine>("ge", true, true, std::vector<std::string>{"g1", "g2"});
  auto ge_declines = std::make_shared<FakeEngine>("ge", true, false, std::vector<std::string>{"g1"});
  auto own = std::make_shared<FakeEngine>("own", true, true, std::vector<std::string>{"o1", "o2"});
  auto own_unnamed = std::make_shared<FakeEngine>("own", true, true);
  OneNode n("own");
  EXPECT_EQ(VariantsOnEngines(n.request, {ge_first, own}), (std::vector<std::string>{"g1", "g2", "o1", "o2"}));
  EXPECT_EQ(VariantsOnEngines(n.request, {ge_declines, own}), (std::vector<std::string>{"o1", "o2", "g1"}));
  // The default engine names no variant: the empty name stands for its choice, first.
  EXPECT_EQ(VariantsOnEngines(n.request, {ge_declines, own_unnamed}), (std::vector<std::string>{"", "g1"}));
  // One way to prepare it: nothing to tune.
  EXPECT_TRUE(VariantsOnEngines(n.request, {own_unnamed}).empty());
  const kernels::EngineList one_named = {
      std::make_shared<FakeEngine>("own", true, true, std::vector<std::string>{"x"})};
  EXPECT_TRUE(VariantsOnEngines(n.request, one_named).empty());
}

}  // namespace
}  // namespace ge::exec
