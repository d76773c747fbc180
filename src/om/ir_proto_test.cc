#include "om/ir_proto.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "ir/dump.h"
#include "ir/text_parser.h"
#include "om/weights.h"

namespace ge::om {
namespace {

constexpr const char* kModelText = R"(
ir_version 9
producer "om-test"
opset "" 17
opset "com.ge" 1
graph main(%x: float32[batch,3]@NCHW, %n: int64[?], %u: float16[*]) {
  const %w: float32[2,3] = [1, 2.5, -3, 4, 5, 6]
  const %h: float16[3] = [1, 0.5, -2]
  const %names: string[2] = ["alpha", "\xff\x00beta"]
  const %big: float32[32] = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
  const %big2: float32[32] = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
  const %flag: bool[] = [true]
  mm: %y: float32[batch,2] = com.ge::MatMulX(%x, %w, _) {alpha=0.5, axes=[0,1], beta=3, fl=[1.5,2.0], mode="fast", names=["a","b"], t=float32[2] [1, 2], ts=[int64[1] [7], float16[2] [0.25, 8]], undef=<undefined>, gs=<graphs>, e=ints[]} @dnnl
  seq: %s: seq(float32[*]), _ = SequenceConstruct(%y) ^mm
  opt: %o: optional(seq(int32[2])) = Optional(%s)
  unk: %k: ? = Custom(%o, %big, %big2, %names)
  if: %z: float32[batch,2] = If(%flag) ^unk ^seq
    then_branch = graph then_g() {
      id: %r = Identity(%y)
      loop: %lo = Loop(%n) @ref
        body = graph body_g(%i: int64[]) {
          add: %q = Add(%i, %n)
          return %q
        }
      return %r
    }
    else_branch = graph else_g() {
      neg: %r2 = Neg(%y)
      return %r2
    }
  return %z, %k, %h, %u
}
)";

std::unique_ptr<ir::Model> ParseOrDie(const char* text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : std::make_unique<ir::Model>();
}

TEST(IrProto, RoundTripInline) {
  auto m = ParseOrDie(kModelText);
  auto p = ModelToProto(*m);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto back = ModelFromProto(*p);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(ir::DumpModelText(**back), ir::DumpModelText(*m));
  EXPECT_TRUE((*back)->graph->Validate().ok());
}

TEST(IrProto, RoundTripThroughBytesAndWeights) {
  auto m = ParseOrDie(kModelText);
  WeightsWriter weights(/*inline_below=*/16);
  auto bytes = SerializeModel(*m, &weights);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  // %w (24 bytes) and %big (128 bytes) go to weights; %big2 is a duplicate of %big; %h, %flag stay inline.
  EXPECT_EQ(weights.tensors_added(), 3u);
  EXPECT_EQ(weights.bytes_saved_by_dedup(), 128u);
  EXPECT_EQ(weights.bytes().size(), 512u + 128u);
  auto buf = std::make_shared<std::vector<uint8_t>>(weights.bytes());
  SpanWeightSource source(buf->data(), buf->size(), buf);
  auto back = ParseModel(bytes->data(), bytes->size(), &source);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(ir::DumpModelText(**back), ir::DumpModelText(*m));
  // Without a weight source the external references cannot be resolved.
  auto no_source = ParseModel(bytes->data(), bytes->size(), nullptr);
  ASSERT_FALSE(no_source.ok());
  EXPECT_NE(no_source.status().message().find("external weights"), std::string::npos);
}

TEST(IrProto, ThingsTheTextFormCannotSay) {
  ir::Model m;
  m.graph = std::make_unique<ir::Graph>(std::string("g\xfe", 2));
  ir::Graph& g = *m.graph;
  ir::Value* in = g.AddInput("in", TensorDesc(DataType::kBFloat16, Shape({2})));
  // A constant that is also a graph input, and whose desc differs from its tensor.
  in->set_const_value(Tensor::FromVector<bfloat16>({bfloat16(1.5f), bfloat16(-2.f)}, {2}));
  ir::Value* nan = g.AddConstant("nan", Tensor::FromVector<float>({std::nanf(""), -0.f,
                                                                    std::numeric_limits<float>::infinity()}, {3}));
  ir::Value* c = g.AddConstant("c", Tensor::FromVector<std::complex<double>>({{1, -2}}, {1}));
  ir::Value* out = g.AddValue("out");
  ir::Value* orphan = g.AddValue("orphan", TensorDesc(DataType::kInt8, Shape()));
  (void)orphan;
  ir::Node* n = g.AddNode("Op", "", {in, nullptr, nan, c}, {nullptr, out});
  ir::AttrValue null_tensor;
  null_tensor.type = ir::AttrValue::Type::kTensor;
  n->attrs().Set("null", null_tensor);
  n->attrs().Set("f", ir::AttrValue::Float(std::nanf("")));
  n->attrs().Set("i", ir::AttrValue::Int(std::numeric_limits<int64_t>::min()));
  n->AddControlInput(n);  // a cycle: still serializable
  g.AddOutput(out);
  g.AddOutput(nullptr);
  auto p = ModelToProto(m);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto back = ModelFromProto(*p);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(ir::DumpModelText(**back), ir::DumpModelText(m));
  const ir::Graph& bg = *(*back)->graph;
  ASSERT_EQ(bg.values().size(), g.values().size());
  EXPECT_TRUE(bg.inputs()[0]->is_constant());
  EXPECT_EQ(bg.values()[4]->name(), "orphan");
  EXPECT_EQ(bg.nodes()[0]->control_inputs()[0], bg.nodes()[0]);
  uint32_t bits = 0;
  float f = bg.nodes()[0]->attrs().GetFloat("f", 0);
  std::memcpy(&bits, &f, 4);
  uint32_t want = 0;
  float nf = std::nanf("");
  std::memcpy(&want, &nf, 4);
  EXPECT_EQ(bits, want);
}

TEST(IrProto, RejectsValueFromAnotherGraph) {
  ir::Model m;
  m.graph = std::make_unique<ir::Graph>("g");
  ir::Graph other("other");
  ir::Value* foreign = other.AddInput("f", TensorDesc());
  m.graph->AddNode("Identity", "id", {foreign}, {m.graph->AddValue("y")});
  auto p = ModelToProto(m);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("not in graph"), std::string::npos);
}

proto::IrModelProto ValidProto() {
  auto m = ParseOrDie(kModelText);
  return ModelToProto(*m).value();
}

void ExpectRejected(const proto::IrModelProto& p, const std::string& needle) {
  auto m = ModelFromProto(p);
  ASSERT_FALSE(m.ok()) << "accepted a proto that should fail with: " << needle;
  EXPECT_NE(m.status().message().find(needle), std::string::npos) << m.status().message();
}

TEST(IrProto, RejectsMalformedProtos) {
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_nodes(0)->set_inputs(0, 1000);
    ExpectRejected(p, "out of range");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_nodes(0)->add_control_inputs(-3);
    ExpectRejected(p, "control input");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_values(3)->mutable_const_value()->mutable_raw()->resize(5);
    ExpectRejected(p, "data bytes");
  }
  {
    auto p = ValidProto();
    auto* t = p.mutable_graph()->mutable_values(3)->mutable_const_value();
    t->clear_dims();
    t->add_dims(int64_t{1} << 40);
    t->add_dims(int64_t{1} << 40);
    ExpectRejected(p, "too many elements");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_values(3)->mutable_const_value()->set_dtype(99);
    ExpectRejected(p, "invalid data type");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_values(0)->mutable_desc()->set_format(-1);
    ExpectRejected(p, "invalid format");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_values(0)->mutable_desc()->mutable_shape()->add_dims(-7);
    ExpectRejected(p, "symbols do not match");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->add_inputs(0);
    ExpectRejected(p, "invalid input list");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_nodes(0)->mutable_attrs(0)->set_type(static_cast<proto::AttrProto::Type>(42));
    ExpectRejected(p, "invalid attribute type");
  }
  {
    auto p = ValidProto();
    p.mutable_graph()->mutable_values(5)->mutable_const_value()->clear_strings();
    ExpectRejected(p, "strings");
  }
  EXPECT_FALSE(ParseModel("\x0a\xff\xff\xff", 4).ok());
}

TEST(IrProto, BoolBytesAreNormalized) {
  proto::IrModelProto p;
  proto::ValueProto* v = p.mutable_graph()->add_values();
  v->mutable_const_value()->set_dtype(static_cast<int32_t>(DataType::kBool));
  v->mutable_const_value()->add_dims(2);
  v->mutable_const_value()->set_raw(std::string("\x00\x07", 2));
  auto m = ModelFromProto(p);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const Tensor* t = (*m)->graph->values()[0]->const_value();
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(t->raw_data())[1], 1);
}

}  // namespace
}  // namespace ge::om
