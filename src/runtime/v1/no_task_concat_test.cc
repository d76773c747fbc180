// No-task Concats end to end: conv branches -> Concat -> conv graphs compiled with each activation layout,
// loaded by SinkModel and compared with the interpreter; which Concats run nothing, and the loader's check of one.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "base/testing/expect_match.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "om/model_def.pb.h"
#include "runtime/v1/sink_model.h"
#include "runtime/v1/sink_test_util.h"

namespace ge::runtime {
namespace {

using testing::Compile;
using testing::Compiled;
using testing::EditOm;
using testing::Open;
using testing::ParseOm;

std::string RandomList(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(dist(rng));
  return s + "]";
}

struct Inception {
  int n = 1;
  int c1 = 16, c2 = 32, c3 = 16;  // branch channel counts: 1x1 conv, 3x3 conv + Relu, max pool + 1x1 conv
  int h = 5, w = 7;
  bool pool_branch = false;    // a fourth branch: a max pool of the input (4 channels) straight into the Concat
  bool late_reader = false;    // branch 1 is also read after the tail convolution
  bool branch_output = false;  // branch 1 is also a graph output
  bool relu_after = false;     // the Concat's output goes through a Relu (in place over it) before the tail
  // The Concat lists the branches last-produced first: a producer writing past its slice's end would clobber a
  // slice written before it.
  bool reversed = false;

  int joined() const { return c1 + c2 + c3 + (pool_branch ? 4 : 0); }

  std::string Text() const {
    auto dims = [](std::initializer_list<int> d) {
      std::string s = "[";
      for (int v : d) s += (s.size() > 1 ? "," : "") + std::to_string(v);
      return s + "]";
    };
    std::string t = "opset \"\" 17\ngraph g(%x: float32" + dims({n, 4, h, w}) + ") {\n";
    t += "  const %w1: float32" + dims({c1, 4, 1, 1}) + " = " + RandomList(c1 * 4, 1) + "\n";
    t += "  const %w2: float32" + dims({c2, 4, 3, 3}) + " = " + RandomList(c2 * 36, 2) + "\n";
    t += "  const %w3: float32" + dims({c3, 4, 1, 1}) + " = " + RandomList(c3 * 4, 3) + "\n";
    t += "  const %wt: float32" + dims({8, joined(), 3, 3}) + " = " + RandomList(8 * 9 * joined(), 4) + "\n";
    t += "  b1: %c1 = Conv(%x, %w1)\n";
    t += "  b2: %c2 = Conv(%x, %w2) {pads=[1,1,1,1]}\n";
    t += "  b2r: %r2 = Relu(%c2)\n";
    t += "  b3p: %p3 = MaxPool(%x) {kernel_shape=[3,3], pads=[1,1,1,1], strides=[1,1]}\n";
    t += "  b3: %c3 = Conv(%p3, %w3)\n";
    if (pool_branch) t += "  b4: %p4 = MaxPool(%x) {kernel_shape=[3,3], pads=[1,1,1,1], strides=[1,1]}\n";
    const std::string joined_inputs = reversed ? std::string(pool_branch ? "%p4, " : "") + "%c3, %r2, %c1"
                                               : std::string("%c1, %r2, %c3") + (pool_branch ? ", %p4" : "");
    t += "  cat: %y = Concat(" + joined_inputs + ") {axis=1}\n";
    std::string tail_in = "%y";
    if (relu_after) {
      t += "  act: %ya = Relu(%y)\n";
      tail_in = "%ya";
    }
    // 3x3: a 1x1 convolution would be split over the branches (ConcatConvSplit) and the Concat removed.
    t += "  tail: %z = Conv(" + tail_in + ", %wt) {pads=[1,1,1,1]}\n";
    std::string outs = "%z";
    if (late_reader) {
      t += "  late: %l = Sigmoid(%c1)\n";
      outs += ", %l";
    }
    if (branch_output) outs += ", %c1";
    return t + "  return " + outs + "\n}\n";
  }
};

class NoTaskConcatTest : public ::testing::Test {
 protected:
  void SetUp() override { device_ = rt::CreateDefaultDevice().value(); }

  // Compiles |text| with activation layout |layout|, checks the number of Concats that run nothing (in the compile
  // report and at load) and compares three runs with the interpreter. Returns the streams the model runs on.
  int Check(const std::string& text, const std::string& layout, uint64_t want_elided,
            std::map<std::string, std::string> options = {}) {
    SCOPED_TRACE(layout);
    options["ge.format.activation"] = layout;
    Compiled c = Compile(text, options);
    if (!c.report.static_model) {
      ADD_FAILURE() << c.report.dynamic_reason;
      return 0;
    }
    EXPECT_EQ(c.report.elided_concats, want_elided);
    SinkModelOptions o;
    o.profile = true;
    auto model = SinkModel::Load(Open(c.bytes), device_.get(), o);
    if (!model.ok()) {
      ADD_FAILURE() << model.status().ToString();
      return 0;
    }
    EXPECT_EQ((*model)->stats().no_task_concats, want_elided);
    auto parsed = ir::ParseModelText(text).value();
    auto interp = Interpreter::Create(parsed.get()).value();
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-2.f, 2.f);
    for (int run = 0; run < 3; ++run) {
      const IoDesc& d = (*model)->inputs()[0];
      Tensor x = Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value();
      for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = dist(rng);
      std::vector<Tensor> out;
      std::vector<DataBuffer> ib = {DataBuffer{x.raw_data(), x.nbytes()}}, ob;
      for (const IoDesc& od : (*model)->outputs()) {
        out.push_back(Tensor::Create(od.desc.dtype, od.desc.shape.dims()).value());
        std::memset(out.back().raw_data(), 0xff, out.back().nbytes());  // NaN until written
        ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
      }
      Status s = (*model)->Execute(ib, ob);
      EXPECT_TRUE(s.ok()) << s.ToString();
      std::vector<Value> ref;
      EXPECT_TRUE(interp->Run({Value(x)}, &ref).ok());
      EXPECT_EQ(ref.size(), out.size());
      for (size_t i = 0; i < out.size() && i < ref.size(); ++i) {
        EXPECT_TRUE(TensorsMatch(out[i], ref[i].tensor, Tolerance{1e-4, 1e-4})) << "output " << i << " run " << run;
      }
    }
    size_t concat_tasks = 0;
    for (const NodeProfile& p : (*model)->profile()) concat_tasks += p.op_type == "Concat" ? 1 : 0;
    EXPECT_EQ(concat_tasks, 1 - want_elided);
    return (*model)->stats().num_streams;
  }

  std::unique_ptr<rt::Device> device_;
};

TEST_F(NoTaskConcatTest, PlainLayoutBatchOneRunsNoConcat) {
  Inception m;
  m.pool_branch = true;  // ge's own max pool writes its slice at a 4-byte aligned address
  Check(m.Text(), "NCHW", 1);
  m.c1 = 3;  // channel counts that are no multiple of anything
  m.c2 = 5;
  m.c3 = 7;
  Check(m.Text(), "NCHW", 1);
}

TEST_F(NoTaskConcatTest, ProducersWriteExactlyTheirSlices) {
  Inception m;
  m.pool_branch = true;
  m.reversed = true;
  for (int c : {1, 3, 5, 17}) {
    m.c1 = c;
    m.c2 = c + 2;
    m.c3 = c + 1;
    Check(m.Text(), "NCHW", 1);
  }
  m.c1 = 16;
  m.c2 = 32;
  m.c3 = 48;
  m.pool_branch = false;
  Check(m.Text(), "NC1HWC0", 1);
}

TEST_F(NoTaskConcatTest, BlockedLayoutRunsNoConcat) {
  Inception m;  // 16 + 32 + 16 channels: whole blocks of 16 and of 8
  Check(m.Text(), "NC1HWC0", 1);
  // A partial block: format selection leaves the Concat and its inputs plain, and it runs nothing as such
  // (blocked inputs of partial blocks are refused by ops::ConcatJoinsBytes, tested beside it).
  m.c2 = 24;
  Check(m.Text(), "NC1HWC0", 1);
}

TEST_F(NoTaskConcatTest, NhwcAndBatchTwoKeepTheirConcat) {
  Inception m;
  Check(m.Text(), "NHWC", 0);
  m.n = 2;
  Check(m.Text(), "NCHW", 0);
  Check(m.Text(), "NC1HWC0", 0);
}

TEST_F(NoTaskConcatTest, BranchReadAfterTheConcatStaysValid) {
  Inception m;
  m.late_reader = true;
  Check(m.Text(), "NCHW", 1);
  Check(m.Text(), "NC1HWC0", 1);
}

TEST_F(NoTaskConcatTest, BranchThatIsAGraphOutputKeepsItsConcat) {
  Inception m;
  m.branch_output = true;
  Check(m.Text(), "NCHW", 0);
  // Blocked, the graph output is a TransData copy back to NCHW: the Concat reads the blocked branch, a slice.
  Check(m.Text(), "NC1HWC0", 1);
}

TEST_F(NoTaskConcatTest, ReluOverTheJoinedTensorAndOtherMemoryOptions) {
  Inception m;
  m.relu_after = true;
  m.late_reader = true;
  Check(m.Text(), "NCHW", 1);
  Check(m.Text(), "NCHW", 1, {{"ge.exec.disableReuseMemory", "1"}});
  m.pool_branch = true;
  EXPECT_GT(Check(m.Text(), "NCHW", 1, {{"ge.streamMaxParallelNum", "4"}}), 1);  // branches on several streams
}

TEST_F(NoTaskConcatTest, LoaderRefusesAConcatWithoutTaskWhoseInputsAreNotItsSlices) {
  Inception m;
  Compiled c = Compile(m.Text(), {{"ge.format.activation", "NCHW"}});
  ASSERT_EQ(c.report.elided_concats, 1u);
  ASSERT_TRUE(SinkModel::Load(Open(c.bytes), device_.get()).ok());
  std::vector<uint8_t> bytes = EditOm(c.bytes, [&](proto::ModelDefProto* def, proto::TaskListProto*) {
    const auto& values = def->ir().graph().values();
    for (proto::PlacementProto& p : *def->mutable_placements()) {
      if (values[p.value()].name() == "r2") p.set_offset(p.offset() + 4);
    }
  });
  auto model = SinkModel::Load(Open(bytes), device_.get());
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), StatusCode::kDataLoss) << model.status().ToString();
  EXPECT_NE(model.status().message().find("'cat' has no kernel task"), std::string::npos) << model.status().ToString();
}

}  // namespace
}  // namespace ge::runtime
