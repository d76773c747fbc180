// ModelProto.training_info import: training graphs, their captures of main-graph initializers, bindings, errors.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "parser/onnx/onnx_parser.h"

namespace ge::onnx_parser {
namespace {

void AddFloatInput(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims) {
  auto* in = g->add_input();
  in->set_name(name);
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

void AddFloatOutput(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims) {
  auto* out = g->add_output();
  out->set_name(name);
  auto* tt = out->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> ins,
                         std::vector<std::string> outs) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + outs[0]);
  for (auto& i : ins) n->add_input(i);
  for (auto& o : outs) n->add_output(o);
  return n;
}

onnx::TensorProto* AddFloatInitializer(onnx::GraphProto* g, const std::string& name, std::vector<float> values) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(static_cast<int64_t>(values.size()));
  for (float v : values) t->add_float_data(v);
  return t;
}

void Bind(google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>* bindings, const std::string& key,
          const std::string& value) {
  auto* e = bindings->Add();
  e->set_key(key);
  e->set_value(value);
}

// Main graph: y = x + W. Training: initialization sets W to [0.5, 0.5]; one algorithm step is W_new = W - G.
onnx::ModelProto SgdModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("main");
  AddFloatInput(g, "x", {2});
  AddFloatInitializer(g, "W", {1.0f, 2.0f});
  AddNode(g, "Add", {"x", "W"}, {"y"});
  AddFloatOutput(g, "y", {2});

  auto* ti = m.add_training_info();
  auto* init = ti->mutable_initialization();
  init->set_name("init");
  auto* value = AddNode(init, "Constant", {}, {"W_init"})->add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  value->mutable_t()->add_dims(2);
  value->mutable_t()->add_float_data(0.5f);
  value->mutable_t()->add_float_data(0.5f);
  AddFloatOutput(init, "W_init", {2});
  Bind(ti->mutable_initialization_binding(), "W", "W_init");

  auto* algo = ti->mutable_algorithm();
  algo->set_name("sgd");
  AddFloatInput(algo, "G", {2});
  AddNode(algo, "Sub", {"W", "G"}, {"W_new"});
  AddFloatOutput(algo, "W_new", {2});
  Bind(ti->mutable_update_binding(), "W", "W_new");
  return m;
}

std::vector<float> Floats(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

Status Parse(const onnx::ModelProto& m) { return ParseModelProto(m, ParseOptions()).status(); }

void ExpectError(const onnx::ModelProto& m, const std::vector<std::string>& fragments) {
  Status s = Parse(m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  for (const std::string& f : fragments) EXPECT_NE(s.message().find(f), std::string::npos) << s.message();
}

TEST(TrainingInfo, ImportsGraphsCapturesAndBindings) {
  auto parsed = ParseModelProto(SgdModel(), ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::Model& model = **parsed;
  ASSERT_EQ(model.training_info.size(), 1u);
  const ir::TrainingInfo& ti = model.training_info[0];

  ASSERT_NE(ti.algorithm, nullptr);
  const ir::Graph& algo = *ti.algorithm;
  EXPECT_EQ(algo.name(), "sgd");
  EXPECT_EQ(algo.parent_node(), nullptr);
  ASSERT_EQ(algo.inputs().size(), 1u);
  EXPECT_EQ(algo.inputs()[0]->name(), "G");
  EXPECT_EQ(algo.inputs()[0]->desc().shape.ToString(), "[2]");
  const ir::Value* w = algo.FindValue("W");
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->is_capture());
  EXPECT_FALSE(w->is_constant());
  EXPECT_EQ(w->desc().dtype, DataType::kFloat);
  EXPECT_EQ(w->desc().shape.ToString(), "[2]");
  const ir::Node* sub = algo.FindValue("W_new")->producer();
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->op_type(), "Sub");
  EXPECT_EQ(sub->input(0), w);
  ASSERT_EQ(algo.outputs().size(), 1u);
  EXPECT_EQ(algo.outputs()[0]->name(), "W_new");

  ASSERT_NE(ti.initialization, nullptr);
  EXPECT_EQ(ti.initialization->name(), "init");
  EXPECT_TRUE(ti.initialization->inputs().empty());
  ASSERT_EQ(ti.initialization->outputs().size(), 1u);
  EXPECT_EQ(ti.initialization->outputs()[0]->producer()->op_type(), "Constant");

  using Bindings = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(ti.update_binding, (Bindings{{"W", "W_new"}}));
  EXPECT_EQ(ti.initialization_binding, (Bindings{{"W", "W_init"}}));
  ASSERT_EQ(model.training_initializers.size(), 1u);
  ASSERT_EQ(model.training_initializers.count("W"), 1u);
  EXPECT_EQ(Floats(model.training_initializers.at("W")), (std::vector<float>{1.0f, 2.0f}));

  // The inference graph is untouched: W stays its constant, with no training value in it.
  EXPECT_TRUE(model.graph->FindValue("W")->is_constant());
  EXPECT_EQ(model.graph->FindValue("G"), nullptr);
}

TEST(TrainingInfo, UnnamedAndEmptyGraphs) {
  auto m = SgdModel();
  m.mutable_training_info(0)->mutable_algorithm()->clear_name();
  m.mutable_training_info(0)->clear_initialization();
  m.mutable_training_info(0)->clear_initialization_binding();
  auto parsed = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::TrainingInfo& ti = (*parsed)->training_info[0];
  EXPECT_EQ(ti.initialization, nullptr);
  EXPECT_TRUE(ti.initialization_binding.empty());
  EXPECT_EQ(ti.algorithm->name(), "algorithm");

  onnx::ModelProto without = SgdModel();
  without.clear_training_info();
  auto plain = ParseModelProto(without, ParseOptions());
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_TRUE((*plain)->training_info.empty());
  EXPECT_TRUE((*plain)->training_initializers.empty());
}

// lr and step are main-graph initializers the inference graph never reads; W2 is only a binding key.
TEST(TrainingInfo, InitializersUnusedByInferenceAreKept) {
  auto m = SgdModel();
  auto* g = m.mutable_graph();
  AddFloatInitializer(g, "lr", {0.25f});
  AddFloatInitializer(g, "step", {7.0f});
  AddFloatInitializer(g, "W2", {3.0f, 4.0f});
  auto* ti = m.mutable_training_info(0);
  auto* algo = ti->mutable_algorithm();
  algo->mutable_node(0)->set_input(1, "scaled");
  AddNode(algo, "Mul", {"lr", "G"}, {"scaled"});
  AddFloatInitializer(algo, "one", {1.0f});
  AddNode(algo, "Add", {"step", "one"}, {"step_next"});
  AddFloatOutput(algo, "step_next", {1});
  Bind(ti->mutable_update_binding(), "step", "step_next");
  Bind(ti->mutable_initialization_binding(), "W2", "W_init");

  auto parsed = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::Model& model = **parsed;
  const auto& inits = model.training_initializers;
  EXPECT_EQ(inits.size(), 4u);  // W, lr, step, W2; not the algorithm's own "one"
  EXPECT_EQ(Floats(inits.at("lr")), std::vector<float>{0.25f});
  EXPECT_EQ(Floats(inits.at("step")), std::vector<float>{7.0f});
  EXPECT_EQ(Floats(inits.at("W2")), (std::vector<float>{3.0f, 4.0f}));
  EXPECT_EQ(inits.count("one"), 0u);
  const ir::Graph& algo_g = *model.training_info[0].algorithm;
  EXPECT_TRUE(algo_g.FindValue("lr")->is_capture());
  EXPECT_TRUE(algo_g.FindValue("step")->is_capture());
  EXPECT_TRUE(algo_g.FindValue("one")->is_constant());
  EXPECT_EQ(algo_g.FindValue("W2"), nullptr);  // a binding key only: no capture
}

// Per onnx.proto a training step runs the inference graph, then the algorithm: the algorithm reads the inference
// graph's inputs and node outputs by name, as captures that are not part of the training state.
TEST(TrainingInfo, AlgorithmReadsInferenceValues) {
  auto m = SgdModel();
  auto* algo = m.mutable_training_info(0)->mutable_algorithm();
  AddNode(algo, "Mul", {"x", "y"}, {"xy"});
  AddFloatOutput(algo, "xy", {2});
  auto parsed = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::Model& model = **parsed;
  const ir::Graph& algo_g = *model.training_info[0].algorithm;
  for (const char* name : {"x", "y"}) {
    const ir::Value* v = algo_g.FindValue(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->is_capture()) << name;
    EXPECT_EQ(v->desc().dtype, DataType::kFloat) << name;
    EXPECT_EQ(v->desc().shape.ToString(), "[2]") << name;
    EXPECT_EQ(model.training_initializers.count(name), 0u) << name;
  }
  EXPECT_EQ(model.training_initializers.size(), 1u);  // W
}

TEST(TrainingInfo, ExternalDataOfUnusedInitializerIsRead) {
  std::string dir = ::testing::TempDir();
  const std::string file = dir + "/ge_training_ext.bin";
  {
    std::ofstream f(file, std::ios::binary);
    float vals[2] = {5.0f, 6.0f};
    f.write(reinterpret_cast<const char*>(vals), sizeof vals);
  }
  auto m = SgdModel();
  auto* momentum = AddFloatInitializer(m.mutable_graph(), "W_momentum", {0.0f, 0.0f});
  momentum->clear_float_data();
  momentum->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = momentum->add_external_data();
  kv->set_key("location");
  kv->set_value("ge_training_ext.bin");
  auto* algo = m.mutable_training_info(0)->mutable_algorithm();
  AddNode(algo, "Add", {"W_momentum", "G"}, {"momentum_next"});
  AddFloatOutput(algo, "momentum_next", {2});
  Bind(m.mutable_training_info(0)->mutable_update_binding(), "W_momentum", "momentum_next");
  ParseOptions opts;
  opts.base_dir = dir;
  auto parsed = ParseModelProto(m, opts);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(Floats((*parsed)->training_initializers.at("W_momentum")), (std::vector<float>{5.0f, 6.0f}));
  std::remove(file.c_str());
}

// A subgraph of a training graph reads W: both the If branch and the algorithm graph capture it.
TEST(TrainingInfo, NestedSubgraphCapturesReachTheTrainingGraph) {
  auto m = SgdModel();
  auto* algo = m.mutable_training_info(0)->mutable_algorithm();
  auto* cond = algo->add_input();
  cond->set_name("apply");
  cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  algo->mutable_node(0)->set_output(0, "stepped");
  auto* if_node = AddNode(algo, "If", {"apply"}, {"W_new"});
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = if_node->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name(branch);
    const std::string out = std::string(branch) + "_out";
    AddNode(body, "Identity", {std::string(branch) == "then_branch" ? "stepped" : "W"}, {out});
    AddFloatOutput(body, out, {2});
  }
  auto parsed = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::Graph& algo_g = *(*parsed)->training_info[0].algorithm;
  ASSERT_NE(algo_g.FindValue("W"), nullptr);
  EXPECT_TRUE(algo_g.FindValue("W")->is_capture());
  const ir::Graph* else_g = algo_g.FindValue("W_new")->producer()->subgraph("else_branch");
  ASSERT_NE(else_g, nullptr);
  ASSERT_NE(else_g->FindValue("W"), nullptr);
  EXPECT_TRUE(else_g->FindValue("W")->is_capture());
  EXPECT_EQ(else_g->FindValue("W")->desc().shape.ToString(), "[2]");
  EXPECT_EQ((*parsed)->training_initializers.count("W"), 1u);
}

TEST(TrainingInfo, AcceptsPreviewTrainingOps) {
  auto m = SgdModel();
  auto* opset = m.add_opset_import();
  opset->set_domain("ai.onnx.preview.training");
  opset->set_version(1);
  AddFloatInitializer(m.mutable_graph(), "R", {0.1f});
  AddFloatInitializer(m.mutable_graph(), "V", {0.0f, 0.0f});
  auto* t = m.mutable_graph()->add_initializer();
  t->set_name("T");
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_int64_data(0);
  auto* ti = m.mutable_training_info(0);
  ti->clear_update_binding();
  auto* algo = ti->mutable_algorithm();
  algo->clear_node();
  algo->clear_output();
  auto* momentum = AddNode(algo, "Momentum", {"R", "T", "W", "G", "V"}, {"W_new", "V_new"});
  momentum->set_domain("ai.onnx.preview.training");
  for (const char* name : {"alpha", "beta", "norm_coefficient"}) {
    auto* a = momentum->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(0.5f);
  }
  auto* mode = momentum->add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("standard");
  AddFloatOutput(algo, "W_new", {2});
  AddFloatOutput(algo, "V_new", {2});
  Bind(ti->mutable_update_binding(), "W", "W_new");
  Bind(ti->mutable_update_binding(), "V", "V_new");

  auto parsed = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const ir::Model& model = **parsed;
  EXPECT_EQ(model.OpsetFor("ai.onnx.preview.training"), 1);
  const ir::Node* node = model.training_info[0].algorithm->FindValue("V_new")->producer();
  EXPECT_EQ(node->domain(), "ai.onnx.preview.training");
  EXPECT_EQ(node->op_type(), "Momentum");
  EXPECT_EQ(model.training_initializers.size(), 4u);  // R, T, W, V
  EXPECT_EQ(model.training_initializers.at("T").dtype(), DataType::kInt64);
  EXPECT_EQ(model.training_info[0].algorithm->FindValue("T")->desc().dtype, DataType::kInt64);
}

TEST(TrainingInfo, RejectsBindingToNonInitializer) {
  auto m = SgdModel();
  m.mutable_training_info(0)->mutable_update_binding(0)->set_key("x");  // a graph input, not an initializer
  ExpectError(m, {"training_info[0] update_binding 'x' -> 'W_new'", "'x' is not an initializer of the main graph"});

  auto m2 = SgdModel();
  m2.mutable_training_info(0)->mutable_initialization_binding(0)->set_key("nowhere");
  ExpectError(m2, {"training_info[0] initialization_binding 'nowhere' -> 'W_init'", "'nowhere' is not an initializer"});
}

TEST(TrainingInfo, RejectsBindingValueThatIsNoOutput) {
  auto m = SgdModel();
  m.mutable_training_info(0)->mutable_update_binding(0)->set_value("G");  // an input of the algorithm
  ExpectError(m, {"update_binding 'W' -> 'G'", "'G' is not an output of the algorithm graph 'sgd'"});

  auto m2 = SgdModel();
  m2.mutable_training_info(0)->mutable_initialization_binding(0)->set_value("W_new");
  ExpectError(m2, {"initialization_binding 'W' -> 'W_new'", "not an output of the initialization graph 'init'"});

  auto m3 = SgdModel();
  m3.mutable_training_info(0)->clear_initialization();
  ExpectError(m3, {"initialization_binding 'W' -> 'W_init'", "there is none"});
}

TEST(TrainingInfo, RejectsUnresolvedName) {
  auto m = SgdModel();
  m.mutable_training_info(0)->mutable_algorithm()->mutable_node(0)->set_input(1, "grad_of_nothing");
  ExpectError(m, {"training_info[0] algorithm graph 'sgd'", "'grad_of_nothing'", "Sub_W_new"});

  // The initialization graph runs before any inference: it cannot read what the inference graph computes.
  auto m2 = SgdModel();
  AddNode(m2.mutable_training_info(0)->mutable_initialization(), "Neg", {"y"}, {"minus_y"});
  ExpectError(m2, {"training_info[0] initialization graph 'init': node 'Neg_minus_y' (Neg): input 0 'y'",
                   "(of this graph or the main graph)"});

  auto m3 = SgdModel();
  m3.mutable_training_info(0)->mutable_initialization()->add_output()->set_name("ghost");
  ExpectError(m3, {"training_info[0] initialization graph 'init': output 'ghost' is not produced by any node"});

  auto m4 = SgdModel();
  m4.mutable_training_info(0)->mutable_algorithm()->clear_name();
  m4.mutable_training_info(0)->mutable_algorithm()->add_output()->set_name("ghost");
  ExpectError(m4, {"training_info[0] algorithm: output 'ghost' is not produced by any node"});
}

TEST(TrainingInfo, RejectsDuplicateBindingKeys) {
  auto m = SgdModel();
  Bind(m.mutable_training_info(0)->mutable_update_binding(), "W", "W_new");
  ExpectError(m, {"training_info[0] update_binding 'W' -> 'W_new'", "'W' is bound more than once"});

  auto m2 = SgdModel();
  Bind(m2.mutable_training_info(0)->mutable_initialization_binding(), "W", "W_init");
  ExpectError(m2, {"initialization_binding 'W' -> 'W_init'", "'W' is bound more than once"});

  // update_binding keys are unique across all TrainingInfoProtos: a variable is assigned by one step only.
  auto m3 = SgdModel();
  *m3.add_training_info() = m3.training_info(0);
  m3.mutable_training_info(1)->clear_initialization_binding();
  ExpectError(m3, {"training_info[1] update_binding 'W' -> 'W_new'", "'W' is bound more than once"});
}

TEST(TrainingInfo, RejectsInitializationWithInputs) {
  auto m = SgdModel();
  AddFloatInput(m.mutable_training_info(0)->mutable_initialization(), "seed", {1});
  ExpectError(m, {"training_info[0] initialization graph 'init'", "'seed'", "takes no inputs"});
}

}  // namespace
}  // namespace ge::onnx_parser
