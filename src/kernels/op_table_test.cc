// The op table (ops/op_table.def) against everything that names ops: every op has a schema and a reference kernel, each
// family registers exactly its own ops, and every op an engine's table names is a known op that the compiler can infer
// and the reference kernels can run.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/builtin_engines.h"
#include "kernels/ref/families.h"
#include "kernels/ref/kernel_registry.h"
#include "ops/families.h"
#include "ops/op_id.h"
#include "ops/op_schema.h"

namespace ge::kernels {
namespace {

using ops::OpFamily;
using ops::OpId;

// Ops of the table with a schema but no reference kernel, and why.
const std::map<OpId, const char*>& OpsWithoutRefKernel() {
  static const std::map<OpId, const char*> ops = {
      {OpId::kGeTransData,
       "a layout change into or out of an engine's blocked format: format "
       "selection inserts it on that engine, "
       "and only that engine's kernel runs it (exec::PrepareKernel refuses it "
       "elsewhere)"},
  };
  return ops;
}

std::vector<OpId> AllOps() {
  std::vector<OpId> ids;
  for (int i = 0; i < ops::kNumOpIds; ++i) ids.push_back(static_cast<OpId>(i));
  return ids;
}

// Every op every engine of `engines` names is in the op table, has a schema and (unless listed in OpsWithoutRefKernel)
// a reference kernel, and is named once per engine.
Status CheckEngineOps(const EngineList& engines) {
  for (const auto& engine : engines) {
    const std::string who = std::string("engine '") + engine->name() + "'";
    std::set<OpId> seen;
    for (OpId id : engine->Ops()) {
      if (!ops::IsKnownOp(id)) {
        return InvalidArgument(who + " names " + ops::OpLabel(id) + ", which is not in the op table (" +
                               std::to_string(ops::kNumOpIds) + " ops, src/ops/op_table.def)");
      }
      if (!seen.insert(id).second) return InvalidArgument(who + " names " + ops::OpLabel(id) + " twice");
      if (ops::BuiltinOps().Find(id) == nullptr) {
        return InvalidArgument(who + " names " + ops::OpLabel(id) + ", which has no schema");
      }
      if (ref::RefKernels().Find(id) == nullptr && OpsWithoutRefKernel().count(id) == 0) {
        return InvalidArgument(who + " names " + ops::OpLabel(id) + ", which has no reference kernel");
      }
    }
  }
  return Status::Ok();
}

TEST(OpTable, NamesAndDomainsAreUniqueAndRoundTrip) {
  std::set<std::pair<std::string, std::string>> keys;
  for (OpId id : AllOps()) {
    EXPECT_TRUE(keys.insert({ops::OpDomain(id), ops::OpName(id)}).second) << ops::OpLabel(id);
    EXPECT_NE(std::string(ops::OpName(id)), "") << static_cast<int>(id);
    EXPECT_EQ(ops::OpIdOf(ops::OpDomain(id), ops::OpName(id)), id) << ops::OpLabel(id);
  }
  EXPECT_EQ(ops::OpIdOf("ai.onnx", "Conv"), OpId::kConv);
  EXPECT_EQ(ops::OpIdOf("", "Conv"), OpId::kConv);
  EXPECT_EQ(ops::OpIdOf("ge", "FusedConv"), OpId::kGeFusedConv);
  EXPECT_EQ(ops::OpIdOf("ge", "LayerNormalization"), OpId::kGeLayerNormalization);
  EXPECT_EQ(ops::OpIdOf("", "LayerNormalization"), OpId::kLayerNormalization);
  EXPECT_EQ(ops::OpIdOf("", "FusedConv"), OpId::kUnknown);
  EXPECT_EQ(ops::OpIdOf("", "NoSuchOp"), OpId::kUnknown);
  EXPECT_EQ(ops::OpLabel(OpId::kGeFusedConv), "ge::FusedConv");
  EXPECT_EQ(ops::OpLabel(OpId::kAdd), "Add");
}

TEST(OpTable, IsOpComparesDomainAndName) {
  ir::Graph g("g");
  ir::Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape({2})));
  ir::Value* y = g.AddValue("y", TensorDesc(DataType::kFloat, Shape({2})));
  ir::Node* onnx = g.AddNode("LayerNormalization", "a", {x, x}, {y}, "");
  EXPECT_TRUE(ops::IsOp(*onnx, OpId::kLayerNormalization));
  EXPECT_FALSE(ops::IsOp(*onnx, OpId::kGeLayerNormalization));
  EXPECT_EQ(ops::OpIdOf(*onnx), OpId::kLayerNormalization);
  onnx->set_domain("ge");
  EXPECT_TRUE(ops::IsOp(onnx, OpId::kGeLayerNormalization));
  EXPECT_FALSE(ops::IsOp(nullptr, OpId::kAdd));
}

TEST(OpTable, EveryOpHasASchemaAndAReferenceKernel) {
  for (OpId id : AllOps()) {
    EXPECT_NE(ops::BuiltinOps().Find(id), nullptr) << ops::OpLabel(id) << " has no schema";
    const bool excepted = OpsWithoutRefKernel().count(id) != 0;
    EXPECT_EQ(ref::RefKernels().Find(id) != nullptr, !excepted)
        << ops::OpLabel(id)
        << (excepted ? " is listed as having no reference kernel but has one" : " has no reference kernel");
  }
  EXPECT_EQ(ops::BuiltinOps().Ids(), AllOps());
}

// Each family's registration functions register exactly the ops the table gives that family.
TEST(OpTable, FamiliesRegisterTheirOwnOps) {
  const std::vector<std::pair<OpFamily, std::pair<void (*)(ops::OpRegistry*), void (*)(ref::KernelRegistry*)>>>
      families = {
          {OpFamily::kElementwise, {ops::RegisterElementwiseOps, ref::RegisterElementwiseRefKernels}},
          {OpFamily::kReduce, {ops::RegisterReduceOps, ref::RegisterReduceRefKernels}},
          {OpFamily::kNn, {ops::RegisterNnOps, ref::RegisterNnRefKernels}},
          {OpFamily::kShape, {ops::RegisterShapeOps, ref::RegisterShapeRefKernels}},
          {OpFamily::kIndex, {ops::RegisterIndexOps, ref::RegisterIndexRefKernels}},
          {OpFamily::kMath, {ops::RegisterMathOps, ref::RegisterMathRefKernels}},
          {OpFamily::kControl, {ops::RegisterControlOps, ref::RegisterControlRefKernels}},
          {OpFamily::kMisc, {ops::RegisterMiscOps, ref::RegisterMiscRefKernels}},
          {OpFamily::kFused, {ops::RegisterFusedOps, ref::RegisterFusedRefKernels}},
          {OpFamily::kVariable, {ops::RegisterVariableOps, ref::RegisterVariableRefKernels}},
      };
  for (const auto& [family, registers] : families) {
    ops::OpRegistry schemas;
    registers.first(&schemas);
    ref::KernelRegistry kernels;
    registers.second(&kernels);
    std::vector<OpId> expected;
    for (OpId id : AllOps()) {
      if (ops::FamilyOf(id) == family) expected.push_back(id);
    }
    EXPECT_EQ(schemas.Ids(), expected) << "family " << static_cast<int>(family);
    for (OpId id : kernels.Ids()) EXPECT_EQ(ops::FamilyOf(id), family) << ops::OpLabel(id);
  }
}

TEST(OpTable, EveryEngineOpIsKnownWithASchemaAndAReferenceKernel) {
  const EngineList engines = BuiltinEngines();
  for (const auto& e : engines) EXPECT_FALSE(e->Ops().empty()) << e->name();
  const Status st = CheckEngineOps(engines);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

class FakeEngine final : public Engine {
 public:
  explicit FakeEngine(std::vector<OpId> ops) : ops_(std::move(ops)) {}
  const char* name() const override { return "fake"; }
  std::vector<OpId> Ops() const override { return ops_; }
  bool Claims(const ir::Node&) const override { return false; }
  bool Supports(const ir::Node&) const override { return false; }
  StatusOr<std::unique_ptr<exec::PreparedKernel>> Prepare(const exec::PrepareRequest&) const override {
    return std::unique_ptr<exec::PreparedKernel>();
  }
  StatusOr<KernelChoice> Choose(const exec::PrepareRequest&) const override { return KernelChoice(); }

 private:
  std::vector<OpId> ops_;
};

TEST(OpTable, CheckEngineOpsRejectsAnEngineNamingAnUnknownOp) {
  const EngineList engines = {
      std::make_shared<FakeEngine>(std::vector<OpId>{OpId::kRelu, static_cast<OpId>(60000)})};
  const Status st = CheckEngineOps(engines);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("engine 'fake'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("op id 60000"), std::string::npos) << st.ToString();
  std::printf("CheckEngineOps: %s\n", st.ToString().c_str());
}

TEST(OpTable, CheckEngineOpsRejectsAnOpNamedTwice) {
  const EngineList engines = {std::make_shared<FakeEngine>(std::vector<OpId>{OpId::kRelu, OpId::kRelu})};
  const Status st = CheckEngineOps(engines);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("engine 'fake' names Relu twice"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace ge::kernels
