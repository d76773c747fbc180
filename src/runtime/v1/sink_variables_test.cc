// Offline models with variables (seed 000, issue 11): VAR_INFO written at compile time and restored at load, the
// model's variables at the logical addresses the session's VarManager gave them, models of one session sharing
// the variables' memory.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "runtime/v1/sink_model.h"
#include "runtime/v1/sink_test_util.h"
#include "var/var_manager.h"

namespace ge::runtime {
namespace {

// acc: v += x, returns v. read: returns 3 * v.
constexpr char kAccumulate[] = R"(opset "" 17
opset "ge" 1
graph acc(%x: float32[3]) {
  v: %v = ge::Variable() {dtype=1, shape=[3]}
  w: %w = ge::AssignAdd(%v, %x)
  return %w
})";
constexpr char kRead[] = R"(opset "" 17
opset "ge" 1
graph read() {
  const %three: float32[] = [3]
  v: %v = ge::Variable() {dtype=1, shape=[3]}
  m: %m = Mul(%v, %three)
  return %m
})";

class SinkVariablesTest : public ::testing::Test {
 protected:
  void SetUp() override { device_ = rt::CreateDefaultDevice().value(); }

  std::shared_ptr<var::VarManager> NewSession(uint64_t id) {
    auto m = std::make_shared<var::VarManager>(id, device_.get());
    EXPECT_TRUE(m->Init(var::VarManagerOptions()).ok());
    return m;
  }
  std::shared_ptr<const om::OmReader> Compile(const char* text, var::VarManager* vars) {
    compiler::CompileOptions co;
    co.variables = vars;
    return testing::Open(testing::CompileText(text, std::move(co)).bytes);
  }
  std::unique_ptr<SinkModel> Load(std::shared_ptr<const om::OmReader> om, std::shared_ptr<var::VarManager> vars) {
    SinkModelOptions o;
    o.variables = std::move(vars);
    auto model = SinkModel::Load(std::move(om), device_.get(), o);
    EXPECT_TRUE(model.ok()) << model.status().ToString();
    return model.ok() ? std::move(*model) : nullptr;
  }
  static std::vector<float> Run(SinkModel& m, std::vector<float> x) {
    std::vector<float> out(3);
    std::vector<DataBuffer> in;
    if (!x.empty()) in.push_back(DataBuffer{x.data(), x.size() * sizeof(float)});
    Status s = m.Execute(in, {DataBuffer{out.data(), out.size() * sizeof(float)}});
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }
  std::unique_ptr<rt::Device> device_;
};

TEST_F(SinkVariablesTest, ModelsOfASessionShareVariables) {
  auto session = NewSession(1);
  auto acc = Load(Compile(kAccumulate, session.get()), session);
  auto read = Load(Compile(kRead, session.get()), session);
  ASSERT_TRUE(acc && read);
  EXPECT_EQ(acc->stats().num_variables, 1u);
  EXPECT_EQ(Run(*acc, {1, 2, 3}), (std::vector<float>{1, 2, 3}));  // variables start as zeros
  EXPECT_EQ(Run(*read, {}), (std::vector<float>{3, 6, 9}));
  EXPECT_EQ(Run(*acc, {1, 1, 1}), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(Run(*read, {}), (std::vector<float>{6, 9, 12}));
  // Another session has its own variable.
  auto other = NewSession(2);
  auto read2 = Load(Compile(kRead, other.get()), other);
  EXPECT_EQ(Run(*read2, {}), (std::vector<float>{0, 0, 0}));
}

TEST_F(SinkVariablesTest, LoadRestoresTheCompiledLogicalAddresses) {
  auto compiling = NewSession(1);
  var::VarRequest before;  // something placed first, so v's offset is not the base
  before.name = "placed_first";
  before.desc = TensorDesc(DataType::kFloat, Shape(Dims{100}));
  ASSERT_TRUE(compiling->AssignVarMem(before).ok());
  auto om = Compile(kAccumulate, compiling.get());
  ASSERT_TRUE(om->has(om::PartitionType::kVarInfo));
  const TensorDesc desc(DataType::kFloat, Shape(Dims{3}));
  auto compiled_addr = compiling->GetVarAddr("v", desc);
  ASSERT_TRUE(compiled_addr.ok()) << compiled_addr.status().ToString();
  EXPECT_GT(compiled_addr->logical, compiling->var_mem_logic_base());

  auto loading = NewSession(7);  // a fresh session: everything comes from VAR_INFO
  auto model = Load(om, loading);
  ASSERT_NE(model, nullptr);
  auto restored = loading->GetVarAddr("v", desc);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(restored->logical, compiled_addr->logical);
  EXPECT_EQ(Run(*model, {5, 5, 5}), (std::vector<float>{5, 5, 5}));
  // Without a session the model has variables of its own.
  auto alone = Load(om, nullptr);
  ASSERT_NE(alone, nullptr);
  EXPECT_EQ(Run(*alone, {1, 1, 1}), (std::vector<float>{1, 1, 1}));
}

TEST_F(SinkVariablesTest, ConflictingVariableIsRefused) {
  auto compiling = NewSession(1);
  auto om = Compile(kAccumulate, compiling.get());
  auto loading = NewSession(2);
  var::VarRequest clash;  // v already exists there with another shape
  clash.name = "v";
  clash.desc = TensorDesc(DataType::kFloat, Shape(Dims{1}));
  ASSERT_TRUE(loading->AssignVarMem(clash).ok());
  SinkModelOptions o;
  o.variables = loading;
  auto model = SinkModel::Load(om, device_.get(), o);
  EXPECT_FALSE(model.ok());
}

TEST_F(SinkVariablesTest, AVariableStartsAtItsInitValue) {
  constexpr char kReadInit[] = R"(opset "" 17
opset "ge" 1
graph read() {
  const %three: float32[] = [3]
  v: %v = ge::Variable() {dtype=1, shape=[3], _init_value=float32[3] [1, 2, 4]}
  m: %m = Mul(%v, %three)
  return %m
})";
  auto om = Compile(kReadInit, NewSession(1).get());
  auto model = Load(om, NewSession(2));  // the load gives the session the value, not the compile
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(Run(*model, {}), (std::vector<float>{3, 6, 12}));
  auto alone = Load(om, nullptr);
  ASSERT_NE(alone, nullptr);
  EXPECT_EQ(Run(*alone, {}), (std::vector<float>{3, 6, 12}));
}

}  // namespace
}  // namespace ge::runtime
