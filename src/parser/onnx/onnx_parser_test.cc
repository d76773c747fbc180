#include "parser/onnx/onnx_parser.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>

namespace ge::onnx_parser {
namespace {

void AddTensorInput(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims) {
  auto* in = g->add_input();
  in->set_name(name);
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) {
    auto* dim = tt->mutable_shape()->add_dim();
    if (d < 0) {
      dim->set_dim_param("batch");
    } else {
      dim->set_dim_value(d);
    }
  }
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> ins,
                         std::vector<std::string> outs, const std::string& name = "") {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name.empty() ? op + "_" + outs[0] : name);
  for (auto& i : ins) n->add_input(i);
  for (auto& o : outs) n->add_output(o);
  return n;
}

// x[batch,2] + w (initializer) -> Relu -> y
onnx::ModelProto SmallModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("small");
  AddTensorInput(g, "x", {-1, 2});
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->add_float_data(1.5f);
  w->add_float_data(-2.0f);
  AddNode(g, "Add", {"x", "w"}, {"s"});
  AddNode(g, "Relu", {"s"}, {"y"});
  g->add_output()->set_name("y");
  return m;
}

Status Parse(const onnx::ModelProto& m) { return ParseModelProto(m, ParseOptions()).status(); }

TEST(OnnxParser, ImportsGraph) {
  auto model = ParseModelProto(SmallModel(), ParseOptions());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const ir::Graph& g = *(*model)->graph;
  EXPECT_EQ((*model)->OpsetFor(""), 13);
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.inputs()[0]->desc().shape.ToString(), "[batch,2]");
  const ir::Value* w = g.FindValue("w");
  ASSERT_TRUE(w && w->is_constant());
  EXPECT_EQ(w->const_value()->data<float>()[1], -2.0f);
  EXPECT_EQ(g.num_nodes(), 2);
  EXPECT_EQ(g.outputs()[0]->producer()->op_type(), "Relu");
}

TEST(OnnxParser, RejectsUnknownOp) {
  auto m = SmallModel();
  m.mutable_graph()->mutable_node(1)->set_op_type("FrobnicateV9");
  Status s = Parse(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("FrobnicateV9"), std::string::npos) << s.message();
}

TEST(OnnxParser, RejectsMissingValue) {
  auto m = SmallModel();
  m.mutable_graph()->mutable_node(0)->set_input(1, "nowhere");
  Status s = Parse(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'nowhere'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Add_s"), std::string::npos) << s.message();
}

TEST(OnnxParser, RejectsCycle) {
  auto m = SmallModel();
  m.mutable_graph()->mutable_node(0)->set_input(0, "y");
  Status s = Parse(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cycle"), std::string::npos) << s.message();
}

TEST(OnnxParser, RejectsBadInitializer) {
  auto m = SmallModel();
  m.mutable_graph()->mutable_initializer(0)->add_dims(1000000);
  Status s = Parse(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("initializer 'w'"), std::string::npos) << s.message();
  auto m2 = SmallModel();
  auto* w = m2.mutable_graph()->mutable_initializer(0);
  w->clear_float_data();
  w->set_raw_data(std::string(5, '\0'));
  EXPECT_FALSE(Parse(m2).ok());
  auto m3 = SmallModel();
  m3.mutable_graph()->mutable_initializer(0)->set_dims(0, int64_t{1} << 40);
  Status s3 = Parse(m3);
  ASSERT_FALSE(s3.ok());
}

TEST(OnnxParser, RejectsTruncatedBytes) {
  std::string bytes = SmallModel().SerializeAsString();
  int rejected = 0;
  for (size_t cut = 1; cut < bytes.size(); cut += 3) {
    auto r = ParseModelBytes(bytes.data(), cut, ParseOptions());
    if (!r.ok()) ++rejected;
  }
  EXPECT_GT(rejected, 0);
  auto full = ParseModelBytes(bytes.data(), bytes.size(), ParseOptions());
  EXPECT_TRUE(full.ok()) << full.status().ToString();
}

TEST(OnnxParser, ExternalDataIsReadAndChecked) {
  std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/ge_ext.bin", std::ios::binary);
    float vals[2] = {3.0f, 4.0f};
    f.write("padpadpa", 8);
    f.write(reinterpret_cast<const char*>(vals), sizeof vals);
  }
  auto m = SmallModel();
  auto* w = m.mutable_graph()->mutable_initializer(0);
  w->clear_float_data();
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = w->add_external_data();
  kv->set_key("location");
  kv->set_value("ge_ext.bin");
  kv = w->add_external_data();
  kv->set_key("offset");
  kv->set_value("8");
  ParseOptions opts;
  opts.base_dir = dir;
  auto model = ParseModelProto(m, opts);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const ir::Value* wv = (*model)->graph->FindValue("w");
  EXPECT_EQ(wv->const_value()->data<float>()[1], 4.0f);
  // Where the bytes lie, for the compiler to reference them in place; gone once the tensor is replaced.
  ASSERT_NE(wv->const_source(), nullptr);
  EXPECT_EQ(wv->const_source()->path.front(), '/');
  EXPECT_EQ(wv->const_source()->path.substr(wv->const_source()->path.size() - 10), "ge_ext.bin");
  EXPECT_EQ(wv->const_source()->offset, 8u);
  EXPECT_EQ(wv->const_source()->length, wv->const_value()->nbytes());
  ir::Value* mutable_w = (*model)->graph->FindValue("w");
  mutable_w->set_const_value(Tensor::FromVector<float>({1.0f, 2.0f}, {2}));
  EXPECT_EQ(mutable_w->const_source(), nullptr);

  kv->set_value("100");  // past the end of the file
  EXPECT_EQ(ParseModelProto(m, opts).status().code(), StatusCode::kDataLoss);
  w->mutable_external_data(0)->set_value("../../etc/passwd");
  EXPECT_FALSE(ParseModelProto(m, opts).ok());
  std::remove((dir + "/ge_ext.bin").c_str());
}

TEST(OnnxParser, SubgraphCapturesOuterValues) {
  onnx::ModelProto m = SmallModel();
  auto* g = m.mutable_graph();
  AddTensorInput(g, "cond_in", {});
  g->mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  auto* ifn = AddNode(g, "If", {"cond_in"}, {"z"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = ifn->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name(branch);
    AddNode(body, "Neg", {"y"}, {std::string(branch) + "_out"});
    body->add_output()->set_name(std::string(branch) + "_out");
  }
  g->add_output()->set_name("z");
  auto model = ParseModelProto(m, ParseOptions());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const ir::Node* if_node = (*model)->graph->FindValue("z")->producer();
  const ir::Graph* then_g = if_node->subgraph("then_branch");
  ASSERT_NE(then_g, nullptr);
  const ir::Value* cap = then_g->FindValue("y");
  ASSERT_NE(cap, nullptr);
  EXPECT_TRUE(cap->is_capture());
}

}  // namespace
}  // namespace ge::onnx_parser
