// ge's RNN kernels (kernels/exec/lstm_kernel.h, gru_kernel.h) through the compiler and the loader: the weights they
// pack are stored in the .om (a FRACTAL_Z constant in place of R with the packed_* node attributes), the loaded
// model maps them and matches the interpreter, for the native target and for x86-64-v3 (AVX2 + FMA) run on whatever
// CPU this is (an AVX-512 one runs the same bytes).
#include <gtest/gtest.h>

#include <random>

#include "base/testing/expect_match.h"
#include "compiler/model_compiler.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/packed_weights.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"
#include "runtime/v1/sink_model.h"
#include "runtime/v1/sink_test_util.h"

namespace ge::runtime {
namespace {

using testing::Open;

// A GRU (linear_before_reset 1, bidirectional, initial_h from a graph input) into an LSTM (forward, batch 2).
constexpr char kRnns[] = R"(
opset "" 17
graph rnns(%x: float32[6,2,5], %h0: float32[2,2,7]) {
  const %gw: float32[2,21,5] = <elided 210 elements>
  const %gr: float32[2,21,7] = <elided 294 elements>
  const %gb: float32[2,42] = <elided 84 elements>
  const %lw: float32[1,36,14] = <elided 504 elements>
  const %lr: float32[1,36,9] = <elided 324 elements>
  const %lb: float32[1,72] = <elided 72 elements>
  const %shape: int64[3] = [6, 2, 14]
  gru: %gy, %gyh = GRU(%x, %gw, %gr, %gb, _, %h0) {direction="bidirectional", hidden_size=7, linear_before_reset=1}
  perm: %gt = Transpose(%gy) {perm=[0, 2, 1, 3]}
  flat: %gf = Reshape(%gt, %shape)
  lstm: %ly, %lyh, %lyc = LSTM(%gf, %lw, %lr, %lb) {hidden_size=9}
  return %ly, %gyh, %lyc
})";

// The text's model with random weights in place of the elided zeros.
std::unique_ptr<ir::Model> RandomRnns(std::mt19937& rng) {
  auto m = ir::ParseModelText(kRnns);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (!m.ok()) return nullptr;
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  for (ir::Value* v : (*m)->graph->values()) {
    if (v->const_value() == nullptr || v->const_value()->dtype() != DataType::kFloat) continue;
    Tensor t = *v->const_value();  // shares the constant's storage
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(rng);
  }
  return std::move(*m);
}

std::vector<Tensor> RandomInputs(const std::vector<IoDesc>& descs, std::mt19937& rng) {
  std::vector<Tensor> out;
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (const IoDesc& d : descs) {
    Tensor t = Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value();
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(rng);
    out.push_back(std::move(t));
  }
  return out;
}

// The nodes of the compiled image whose R input the compiler replaced by packed bytes, by name -> layout.
std::map<std::string, std::string> PackedNodes(const om::OmReader& reader) {
  proto::ModelDefProto def;
  om::ByteSpan d = reader.partition(om::PartitionType::kModelDef);
  EXPECT_TRUE(def.ParseFromArray(d.data, static_cast<int>(d.size)));
  std::map<std::string, std::string> out;
  for (const proto::NodeProto& n : def.ir().graph().nodes()) {
    int64_t input = -1;
    std::string layout;
    for (const proto::AttrProto& a : n.attrs()) {
      if (a.name() == exec::kPackedInputAttr) input = a.i();
      if (a.name() == exec::kPackedLayoutAttr) layout = a.s();
    }
    if (input == 2) out[n.name()] = layout;
  }
  return out;
}

void ExpectPackedAndMatching(const std::string& target) {
  SCOPED_TRACE("target " + target);
  // The compiler rewrites its model: the interpreter gets a copy with the same weights.
  std::mt19937 weights_rng(81), reference_rng(81), rng(82);
  auto m = RandomRnns(weights_rng);
  auto reference = RandomRnns(reference_rng);
  ASSERT_NE(m, nullptr);
  ASSERT_NE(reference, nullptr);
  compiler::CompileOptions co;
  co.target = target;
  co.threads = 2;
  compiler::CompileReport report;
  auto bytes = compiler::CompileToOm(*m, co, &report);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(report.impls["exec.gru"], 1);
  EXPECT_EQ(report.impls["exec.lstm"], 1);
  auto reader = Open(*bytes);
  ASSERT_NE(reader, nullptr);
  const std::map<std::string, std::string> packed = PackedNodes(*reader);
  ASSERT_EQ(packed.count("gru"), 1u);
  ASSERT_EQ(packed.count("lstm"), 1u);
  EXPECT_EQ(packed.at("gru").rfind("exec.gru/", 0), 0u) << packed.at("gru");
  EXPECT_EQ(packed.at("lstm").rfind("exec.lstm/", 0), 0u) << packed.at("lstm");

  rt::DeviceOptions o;
  o.intra_op_threads = 2;
  auto device = rt::CreateDefaultDevice(o).value();
  auto model = SinkModel::Load(reader, device.get());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto interp = Interpreter::Create(reference.get()).value();
  for (int run = 0; run < 2; ++run) {
    std::vector<Tensor> in = RandomInputs((*model)->inputs(), rng);
    std::vector<Tensor> out;
    std::vector<DataBuffer> ib, ob;
    for (Tensor& t : in) ib.push_back(DataBuffer{t.raw_data(), t.nbytes()});
    for (const IoDesc& d : (*model)->outputs()) {
      out.push_back(Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value());
      ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
    }
    ASSERT_TRUE((*model)->Execute(ib, ob).ok());
    std::vector<Value> vin, vout;
    for (const Tensor& t : in) vin.emplace_back(t);
    const Status ran = interp->Run(vin, &vout);
    ASSERT_TRUE(ran.ok()) << ran.ToString();
    ASSERT_EQ(vout.size(), out.size());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_TRUE(TensorsMatch(out[i], vout[i].tensor, Tolerance{1e-5, 1e-5})) << "output " << i << " run " << run;
    }
  }
}

TEST(RnnPrepack, NativeTargetStoresPackedWeightsAndMatchesInterpreter) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  ExpectPackedAndMatching("native");
}

TEST(RnnPrepack, X86_64V3ModelRunsHere) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  ExpectPackedAndMatching("x86-64-v3");
}

}  // namespace
}  // namespace ge::runtime
