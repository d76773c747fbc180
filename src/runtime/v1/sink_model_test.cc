// SinkModel against the interpreter: models written in the IR text form, compiled by compiler::CompileToOm,
// loaded from memory and run with fresh random inputs.
#include "runtime/v1/sink_model.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "base/testing/expect_match.h"
#include "compiler/model_compiler.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "kernels/engine.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"
#include "om/om_writer.h"
#include "ops/op_id.h"
#include "runtime/v1/sink_test_util.h"

namespace ge::runtime {
namespace {

using testing::Compile;
using testing::Compiled;
using testing::EditOm;
using testing::ParseOm;
using testing::Open;

std::vector<Tensor> RandomInputs(const std::vector<IoDesc>& descs, std::mt19937& rng) {
  std::vector<Tensor> out;
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  for (const IoDesc& d : descs) {
    Tensor t = Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value();
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = dist(rng);
    out.push_back(std::move(t));
  }
  return out;
}

// Runs the text model on the interpreter.
std::vector<Tensor> Reference(const std::string& text, const std::vector<Tensor>& inputs) {
  auto m = ir::ParseModelText(text).value();
  auto interp = Interpreter::Create(m.get()).value();
  std::vector<Value> in, out;
  for (const Tensor& t : inputs) in.emplace_back(t);
  Status s = interp->Run(in, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<Tensor> r;
  for (Value& v : out) r.push_back(v.tensor);
  return r;
}

// Within tol absolutely for small values and relatively for large ones; NaN and inf strictly.
::testing::AssertionResult Near(const Tensor& got, const Tensor& want, double tol) {
  return TensorsMatch(got, want, Tolerance{tol, tol});
}

// One synchronous execution into fresh output tensors.
std::vector<Tensor> Execute(SinkModel& model, std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  std::vector<DataBuffer> ib, ob;
  for (Tensor& t : in) ib.push_back(DataBuffer{t.raw_data(), t.nbytes()});
  for (const IoDesc& d : model.outputs()) {
    out.push_back(Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value());
    ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
  }
  Status s = model.Execute(ib, ob);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

class SinkModelTest : public ::testing::Test {
 protected:
  void SetUp() override { device_ = rt::CreateDefaultDevice().value(); }

  // Compiles, loads, runs |runs| times with fresh inputs and compares every output with the interpreter.
  std::unique_ptr<SinkModel> CheckAgainstInterpreter(const std::string& text, int runs = 3,
                                                     std::map<std::string, std::string> options = {},
                                                     double tolerance = 1e-6) {
    Compiled c = Compile(text, std::move(options));
    EXPECT_TRUE(c.report.static_model) << c.report.dynamic_reason;
    auto model = SinkModel::Load(Open(c.bytes), device_.get());
    EXPECT_TRUE(model.ok()) << model.status().ToString();
    if (!model.ok()) return nullptr;
    std::mt19937 rng(7);
    for (int run = 0; run < runs; ++run) {
      std::vector<Tensor> in = RandomInputs((*model)->inputs(), rng);
      std::vector<Tensor> out = Execute(**model, in);
      std::vector<Tensor> ref = Reference(text, in);
      EXPECT_EQ(ref.size(), out.size());
      for (size_t i = 0; i < ref.size() && i < out.size(); ++i) {
        EXPECT_TRUE(Near(out[i], ref[i], tolerance)) << "output " << i << " run " << run;
      }
    }
    return std::move(*model);
  }

  std::unique_ptr<rt::Device> device_;
};

const char* kChain = R"(
opset "" 17
graph chain(%x: float32[4,16]) {
  const %b: float32[16] = <elided 16 elements>
  const %s: float32[] = [0.5]
  n0: %a = Relu(%x)
  n1: %c = Add(%a, %b)
  n2: %d = Neg(%c)
  n3: %e = Mul(%d, %s)
  n4: %f = Abs(%e)
  n5: %g = Sigmoid(%f)
  n6: %h = Softmax(%g) {axis=1}
  return %h
})";

TEST_F(SinkModelTest, ChainMatchesInterpreter) {
  auto model = CheckAgainstInterpreter(kChain, 5);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->stats().num_streams, 1);
  EXPECT_EQ(model->stats().num_zero_copy_slots, 2u);  // the first kernel's input, the last kernel's output
}

TEST_F(SinkModelTest, OutputCopiesForPassthroughDuplicateAndConstantOutputs) {
  const char* text = R"(
opset "" 17
graph g(%x: float32[3,5], %y: float32[3,5]) {
  const %k: float32[2] = [1.5, -2]
  add: %s = Add(%x, %y)
  return %s, %x, %s, %k, %y
})";
  auto model = CheckAgainstInterpreter(text, 3);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->outputs().size(), 5u);
}

// "[v0, v1, ...]": n pseudo-random weights in [-0.5, 0.5).
std::string RandomList(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(dist(rng));
  return s + "]";
}

TEST_F(SinkModelTest, ParallelBranchesGetSeveralStreamsAndSameResults) {
  const std::string text = R"(
opset "" 17
graph inception(%x: float32[1,8,6,6]) {
  const %w1: float32[4,8,1,1] = )" + RandomList(32, 1) + R"(
  const %w3: float32[4,8,3,3] = )" + RandomList(288, 2) + R"(
  stem: %s = Relu(%x)
  b1: %c1 = Conv(%s, %w1)
  b2a: %c2 = Conv(%s, %w3) {pads=[1,1,1,1]}
  b2b: %r2 = Relu(%c2)
  b3: %p3 = MaxPool(%s) {kernel_shape=[3,3], pads=[1,1,1,1], strides=[1,1]}
  b4a: %t4 = Sigmoid(%s)
  b4b: %u4 = Mul(%t4, %s)
  cat: %y = Concat(%c1, %r2, %p3, %u4) {axis=1}
  return %y
})";
  auto multi = CheckAgainstInterpreter(text, 3, {{"ge.streamMaxParallelNum", "4"}});
  ASSERT_NE(multi, nullptr);
  EXPECT_GT(multi->stats().num_streams, 1);
  EXPECT_GT(multi->stats().num_events, 0);
  auto single = CheckAgainstInterpreter(text, 1, {{"ge.streamMaxParallelNum", "1"}});
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->stats().num_streams, 1);
}

// "[0.5, 0.55, ...]": n positive values (variances).
std::string PositiveList(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(0.5 + 0.05 * (i % 7));
  return s + "]";
}

// A small CNN: channel counts that are not multiples of 16 (NC1HWC0 padding), a residual sum, pooling, a channel
// concat, a BatchNormalization + Relu no convolution absorbs (densenet's pre-activation), a squeeze-and-excitation scale (broadcast Mul), a layout boundary before Flatten and a graph output that
// is a convolution chain's value.
std::string SmallCnn() {
  return R"(
opset "" 17
graph cnn(%x: float32[1,3,12,12]) {
  const %w0: float32[20,3,3,3] = )" + RandomList(540, 3) + R"(
  const %b0: float32[20] = )" + RandomList(20, 4) + R"(
  const %w1: float32[20,20,3,3] = )" + RandomList(3600, 5) + R"(
  const %w2: float32[16,20,1,1] = )" + RandomList(320, 6) + R"(
  const %w3: float32[16,20,3,3] = )" + RandomList(2880, 7) + R"(
  const %w4: float32[8,32,1,1] = )" + RandomList(256, 8) + R"(
  const %wf: float32[8,5] = )" + RandomList(40, 9) + R"(
  const %wse: float32[8,8,1,1] = )" + RandomList(64, 10) + R"(
  const %bn_s: float32[32] = )" + RandomList(32, 11) + R"(
  const %bn_b: float32[32] = )" + RandomList(32, 12) + R"(
  const %bn_m: float32[32] = )" + RandomList(32, 13) + R"(
  const %bn_v: float32[32] = )" + PositiveList(32) + R"(
  c0: %a0 = Conv(%x, %w0, %b0) {pads=[1,1,1,1]}
  r0: %r0 = Relu(%a0)
  c1: %a1 = Conv(%r0, %w1) {pads=[1,1,1,1]}
  add: %s1 = Add(%a1, %r0)
  r1: %r1 = Relu(%s1)
  pool: %p = MaxPool(%r1) {kernel_shape=[2,2], strides=[2,2]}
  c2: %a2 = Conv(%p, %w2)
  c3: %a3 = Conv(%p, %w3) {pads=[1,1,1,1]}
  cat: %k = Concat(%a2, %a3) {axis=1}
  bn: %kn = BatchNormalization(%k, %bn_s, %bn_b, %bn_m, %bn_v)
  bn_relu: %kb = Relu(%kn)
  c4: %a4 = Conv(%kb, %w4)
  se_pool: %sp = GlobalAveragePool(%a4)
  se_conv: %sc = Conv(%sp, %wse)
  se_gate: %sg = Sigmoid(%sc)
  se_scale: %sm = Mul(%a4, %sg)
  gap: %g = GlobalAveragePool(%sm)
  flat: %f = Flatten(%g)
  fc: %y = MatMul(%f, %wf)
  return %y, %a4
})";
}

// The CNN through every activation layout, with and without prepacked weights.
TEST_F(SinkModelTest, ActivationLayoutsAndPrepackedWeightsMatchInterpreter) {
  const std::string text = SmallCnn();
  for (const char* layout : {"NHWC", "NC1HWC0", "NCHW"}) {
    for (const char* prepack : {"1", "0"}) {
      SCOPED_TRACE(std::string(layout) + " prepack " + prepack);
      auto m = CheckAgainstInterpreter(text, 2, {{"ge.format.activation", layout}, {"ge.weights.prepack", prepack}},
                                       1e-4);
      ASSERT_NE(m, nullptr);
      ASSERT_EQ(m->outputs().size(), 2u);
      EXPECT_EQ(m->outputs()[1].name, "a4");
      EXPECT_FALSE(IsNonPlainLayout(m->outputs()[1].desc.format));
    }
  }
}

// At a given thread count, every run gives the same bits (oneDNN fixes its work split at prepare).
TEST_F(SinkModelTest, RepeatedRunsAreBitIdentical) {
  rt::DeviceOptions o;
  o.intra_op_threads = 2;
  auto device = rt::CreateDefaultDevice(o).value();
  Compiled c = Compile(SmallCnn());
  auto model = SinkModel::Load(Open(c.bytes), device.get());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::mt19937 rng(11);
  std::vector<Tensor> in = RandomInputs((*model)->inputs(), rng);
  std::vector<std::vector<uint8_t>> first;
  for (int run = 0; run < 5; ++run) {
    std::vector<Tensor> out = Execute(**model, in);
    for (size_t i = 0; i < out.size(); ++i) {
      const auto* p = static_cast<const uint8_t*>(out[i].raw_data());
      std::vector<uint8_t> bytes(p, p + out[i].nbytes());
      if (run == 0) {
        first.push_back(std::move(bytes));
      } else {
        EXPECT_EQ(bytes, first[i]) << "output " << i << " run " << run;
      }
    }
  }
}

TEST_F(SinkModelTest, CallerProvidedFeatureMapMemory) {
  Compiled c = Compile(kChain);
  ASSERT_GT(c.report.feature_map_bytes, 0u);
  std::vector<uint8_t> small(64);
  SinkModelOptions too_small;
  too_small.feature_map = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(small.data()) + 63) / 64 * 64);
  too_small.feature_map_size = 0;
  auto bad = SinkModel::Load(Open(c.bytes), device_.get(), too_small);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  auto mem = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(c.report.feature_map_bytes)}).value();
  SinkModelOptions opts;
  opts.feature_map = mem.raw_data();
  opts.feature_map_size = mem.nbytes();
  auto model = SinkModel::Load(Open(c.bytes), device_.get(), opts);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  Tensor x = Tensor::Create(DataType::kFloat, {4, 16}).value();
  for (int i = 0; i < 64; ++i) x.data<float>()[i] = static_cast<float>(i % 7) - 3.f;
  Tensor y = Tensor::Create(DataType::kFloat, {4, 16}).value();
  ASSERT_TRUE((*model)->Execute({{x.raw_data(), x.nbytes()}}, {{y.raw_data(), y.nbytes()}}).ok());
  std::vector<Tensor> ref = Reference(kChain, {x});
  EXPECT_TRUE(Near(y, ref[0], 1e-6));
}

// Memory a caller lent to one ExecuteWithFeatureMap call is the caller's again when it returns: later plain Execute
// and ExecuteAsync calls run on the context's own feature map and never write into it.
TEST_F(SinkModelTest, PlainExecuteNeverTouchesAnEarlierCallersFeatureMap) {
  Compiled c = Compile(kChain);
  auto model = SinkModel::Load(Open(c.bytes), device_.get()).value();
  const size_t fm_bytes = model->stats().feature_map_bytes;
  ASSERT_GT(fm_bytes, 0u);
  auto lent = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(fm_bytes + 64)}).value();
  auto* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(lent.raw_data()) + 63) / 64 * 64);
  std::mt19937 rng(13);
  std::vector<Tensor> in = RandomInputs(model->inputs(), rng);
  Tensor y = Tensor::Create(DataType::kFloat, {4, 16}).value();
  const std::vector<DataBuffer> ob{{y.raw_data(), y.nbytes()}};
  ASSERT_TRUE(model->ExecuteWithFeatureMap({{in[0].raw_data(), in[0].nbytes()}}, ob, aligned, fm_bytes).ok());
  EXPECT_TRUE(Near(y, Reference(kChain, in)[0], 1e-6));

  std::memset(aligned, 0xA5, fm_bytes);
  const std::vector<uint8_t> sentinel(fm_bytes, 0xA5);
  auto stream = device_->CreateStream().value();
  for (int run = 0; run < 2; ++run) {
    in = RandomInputs(model->inputs(), rng);
    const std::vector<DataBuffer> ib{{in[0].raw_data(), in[0].nbytes()}};
    if (run == 0) {
      ASSERT_TRUE(model->Execute(ib, ob).ok());
    } else {
      ASSERT_TRUE(model->ExecuteAsync(ib, ob, *stream).ok());
      ASSERT_TRUE(stream->Synchronize().ok());
    }
    EXPECT_TRUE(Near(y, Reference(kChain, in)[0], 1e-6)) << "run " << run;
    EXPECT_EQ(std::memcmp(aligned, sentinel.data(), fm_bytes), 0) << "run " << run << " wrote into the lent memory";
  }
}

// Reentrancy: one loaded model, several threads executing at once, each request's outputs bit-identical to the
// single-threaded run of the same input. The CNN's kernels cover oneDNN primitives with intermediates between steps
// (layout reorders), scratchpads, ge's own kernels and the reference adapter. Also: contexts come on demand up to
// the limit, and a call may bring its own feature map.
TEST_F(SinkModelTest, ConcurrentExecutionsAreBitIdenticalToSingleThreaded) {
  rt::DeviceOptions o;
  o.intra_op_threads = 1;
  auto device = rt::CreateDefaultDevice(o).value();
  for (const char* layout : {"NHWC", "NC1HWC0"}) {
    SCOPED_TRACE(layout);
    Compiled c = Compile(SmallCnn(), {{"ge.format.activation", layout}});
    SinkModelOptions opts;
    opts.max_concurrent_executions = 3;
    auto model = SinkModel::Load(Open(c.bytes), device.get(), opts);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    SinkModel& m = **model;
    EXPECT_EQ(m.num_execution_contexts(), 1);
    EXPECT_EQ(m.stats().max_concurrent_executions, 3);
    std::mt19937 rng(21);
    std::vector<std::vector<Tensor>> ins;
    std::vector<std::vector<Tensor>> want;
    for (int i = 0; i < 6; ++i) {
      ins.push_back(RandomInputs(m.inputs(), rng));
      want.push_back(Execute(m, ins.back()));
    }
    std::atomic<int> mismatches{0}, failures{0};
    auto serve = [&](int t) {
      for (int r = t; r < 120; r += 3) {
        std::vector<Tensor>& in = ins[static_cast<size_t>(r) % ins.size()];
        std::vector<DataBuffer> ib, ob;
        std::vector<Tensor> out;
        for (Tensor& x : in) ib.push_back(DataBuffer{x.raw_data(), x.nbytes()});
        for (const IoDesc& d : m.outputs()) {
          out.push_back(Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value());
          ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
        }
        if (!m.Execute(ib, ob).ok()) {
          ++failures;
          continue;
        }
        const std::vector<Tensor>& w = want[static_cast<size_t>(r) % ins.size()];
        for (size_t i = 0; i < out.size(); ++i) {
          if (std::memcmp(out[i].raw_data(), w[i].raw_data(), w[i].nbytes()) != 0) ++mismatches;
        }
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t) threads.emplace_back(serve, t);
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_GE(m.num_execution_contexts(), 1);
    EXPECT_LE(m.num_execution_contexts(), 3);

    // The caller's feature map for one call: same bits; too small or misaligned memory is refused by name.
    auto fm = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(m.stats().feature_map_bytes + 64)}).value();
    void* aligned = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(fm.raw_data()) + 63) / 64 * 64);
    std::vector<DataBuffer> ib{{ins[0][0].raw_data(), ins[0][0].nbytes()}}, ob;
    std::vector<Tensor> out;
    for (const IoDesc& d : m.outputs()) {
      out.push_back(Tensor::Create(d.desc.dtype, d.desc.shape.dims()).value());
      ob.push_back(DataBuffer{out.back().raw_data(), out.back().nbytes()});
    }
    ASSERT_TRUE(m.ExecuteWithFeatureMap(ib, ob, aligned, m.stats().feature_map_bytes).ok());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(std::memcmp(out[i].raw_data(), want[0][i].raw_data(), out[i].nbytes()), 0) << "output " << i;
    }
    Status small = m.ExecuteWithFeatureMap(ib, ob, aligned, m.stats().feature_map_bytes - 1);
    EXPECT_EQ(small.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(small.message().find("feature-map"), std::string::npos) << small.message();
    EXPECT_EQ(m.ExecuteWithFeatureMap(ib, ob, static_cast<char*>(aligned) + 4, m.stats().feature_map_bytes).code(),
              StatusCode::kInvalidArgument);
    // And the context's own memory again afterwards.
    EXPECT_EQ(std::memcmp(Execute(m, ins[1])[0].raw_data(), want[1][0].raw_data(), want[1][0].nbytes()), 0);
  }
  SinkModelOptions zero;
  zero.max_concurrent_executions = 0;
  EXPECT_EQ(SinkModel::Load(Open(Compile(kChain).bytes), device.get(), zero).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(SinkModelTest, WrongBuffersGetClearErrors) {
  Compiled c = Compile(kChain);
  auto model = SinkModel::Load(Open(c.bytes), device_.get()).value();
  std::vector<float> x(64), y(64), small(10);
  EXPECT_EQ(model->Execute({}, {{y.data(), 256}}).code(), StatusCode::kInvalidArgument);
  Status s = model->Execute({{small.data(), 40}}, {{y.data(), 256}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("x"), std::string::npos) << s.message();
  EXPECT_EQ(model->Execute({{nullptr, 256}}, {{y.data(), 256}}).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(model->Execute({{x.data(), 256}}, {{y.data(), 256}}).ok());
}

TEST_F(SinkModelTest, ZeroCopyRebindsEveryExecution) {
  Compiled c = Compile(kChain);
  auto model = SinkModel::Load(Open(c.bytes), device_.get()).value();
  std::mt19937 rng(3);
  for (int i = 0; i < 50; ++i) {
    std::vector<Tensor> in = RandomInputs(model->inputs(), rng);  // fresh addresses every time
    Tensor y = Tensor::Create(DataType::kFloat, {4, 16}).value();
    ASSERT_TRUE(model->Execute({{in[0].raw_data(), in[0].nbytes()}}, {{y.raw_data(), y.nbytes()}}).ok());
    EXPECT_TRUE(Near(y, Reference(kChain, in)[0], 1e-6));
  }
}

TEST_F(SinkModelTest, AsyncOnCallerStreamAndAbort) {
  Compiled c = Compile(kChain);
  auto model = SinkModel::Load(Open(c.bytes), device_.get()).value();
  auto stream = device_->CreateStream().value();
  std::mt19937 rng(5);
  std::vector<std::vector<Tensor>> ins;
  std::vector<Tensor> outs;
  for (int i = 0; i < 20; ++i) {
    ins.push_back(RandomInputs(model->inputs(), rng));
    outs.push_back(Tensor::Create(DataType::kFloat, {4, 16}).value());
    ASSERT_TRUE(model->ExecuteAsync({{ins[i][0].raw_data(), 256}}, {{outs[i].raw_data(), 256}}, *stream).ok());
  }
  ASSERT_TRUE(stream->Synchronize().ok());
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(Near(outs[i], Reference(kChain, ins[i])[0], 1e-6));

  model->Abort();
  EXPECT_EQ(model->Execute({{ins[0][0].raw_data(), 256}}, {{outs[0].raw_data(), 256}}).code(), StatusCode::kAborted);
  model->ResetAbort();
  EXPECT_TRUE(model->Execute({{ins[0][0].raw_data(), 256}}, {{outs[0].raw_data(), 256}}).ok());
}

TEST_F(SinkModelTest, RejectsIrModelsAndCorruptImages) {
  // An IR .om (a data-dependent shape keeps the model dynamic) is refused with FailedPrecondition, not run.
  Compiled ir = Compile(R"(
opset "" 17
graph dyn(%x: float32[6]) {
  n0: %y = NonZero(%x)
  return %y
}
)");
  ASSERT_FALSE(ir.report.static_model);
  auto refused = SinkModel::Load(Open(ir.bytes), device_.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("not a compiled static model"), std::string::npos);

  Compiled c = Compile(kChain);
  std::mt19937 rng(11);
  // With the checksum checked every flip and truncation is caught by the verifier; without it the loader's own
  // checks run, and whatever still loads must execute without crashing and report a status.
  om::VerifyOptions no_checksum;
  no_checksum.check_checksum = false;
  int loaded = 0, rejected_by_verifier = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(c.bytes);
    if (trial % 3 == 0) {
      bytes->resize(rng() % bytes->size());
    } else {
      for (int k = 0; k < 1 + trial % 4; ++k) (*bytes)[256 + rng() % (bytes->size() - 256)] ^= 1u << (rng() % 8);
    }
    auto checked = om::OmReader::FromMemory(bytes->data(), bytes->size(), bytes);
    ASSERT_FALSE(checked.ok()) << "trial " << trial << ": a corrupt image passed the checksum";
    EXPECT_TRUE(checked.status().code() == StatusCode::kDataLoss ||
                checked.status().code() == StatusCode::kInvalidArgument)
        << checked.status().ToString();
    ++rejected_by_verifier;
    auto r = om::OmReader::FromMemory(bytes->data(), bytes->size(), bytes, no_checksum);
    if (!r.ok()) {
      EXPECT_FALSE(r.status().message().empty());
      continue;
    }
    auto m = SinkModel::Load(std::shared_ptr<const om::OmReader>(std::move(*r)), device_.get());
    if (!m.ok()) {
      EXPECT_NE(m.status().code(), StatusCode::kOk);
      EXPECT_FALSE(m.status().message().empty());
      continue;
    }
    ++loaded;  // a flip in weights or a harmless field; running it must still not crash
    std::vector<float> x(64, 1.f), y(64);
    Status run = (*m)->Execute({{x.data(), 256}}, {{y.data(), 256}});
    EXPECT_TRUE(run.ok() || !run.message().empty());
  }
  EXPECT_EQ(rejected_by_verifier, 300);
  // Truncations never load; most flips land in weights or padding and still load.
  EXPECT_LT(loaded, 300);
}

TEST_F(SinkModelTest, TaskOnAStreamOutsideTheModelIsDataLossAtLoad) {
  Compiled c = Compile(kChain);
  for (int stream : {1, -1}) {
    SCOPED_TRACE(stream);
    std::vector<uint8_t> bytes = EditOm(c.bytes, [&](proto::ModelDefProto* def, proto::TaskListProto* tasks) {
      ASSERT_EQ(def->num_streams(), 1);
      for (proto::TaskDefProto& t : *tasks->mutable_tasks()) {
        if (t.type() != proto::TaskDefProto::KERNEL) continue;
        t.set_stream(stream);
        break;
      }
    });
    auto model = SinkModel::Load(Open(bytes), device_.get());
    ASSERT_FALSE(model.ok());
    EXPECT_EQ(model.status().code(), StatusCode::kDataLoss) << model.status().ToString();
    EXPECT_NE(model.status().message().find("task stream out of range"), std::string::npos)
        << model.status().ToString();
  }
}

// Graph inputs and outputs name root-graph values by index: one equal to the value count names none.
TEST_F(SinkModelTest, IoValueIndexEqualToTheValueCountIsDataLossAtLoad) {
  Compiled c = Compile(kChain);
  for (bool output : {false, true}) {
    SCOPED_TRACE(output ? "output" : "input");
    std::vector<uint8_t> bytes = EditOm(c.bytes, [&](proto::ModelDefProto* def, proto::TaskListProto*) {
      proto::IoProto* io = output ? def->mutable_outputs(0) : def->mutable_inputs(0);
      for (proto::PlacementProto& p : *def->mutable_placements()) {
        if (p.value() == io->value()) p.set_segment(proto::SEG_NONE);  // so that InitIoNodes lets the index pass
      }
      io->set_value(def->ir().graph().values_size());
    });
    auto model = SinkModel::Load(Open(bytes), device_.get());
    ASSERT_FALSE(model.ok());
    EXPECT_EQ(model.status().code(), StatusCode::kDataLoss) << model.status().ToString();
    const char* want = output ? "output 'h' has a bad value index" : "input 'x' has a bad value index";
    EXPECT_NE(model.status().message().find(want), std::string::npos) << model.status().ToString();
  }
}

TEST_F(SinkModelTest, ProfiledExecutionsRunEveryKernelAndCountItsRuns) {
  Compiled c = Compile(kChain);
  SinkModelOptions o;
  o.profile = true;
  auto model = SinkModel::Load(Open(c.bytes), device_.get(), o).value();
  ASSERT_FALSE(model->profile().empty());
  std::mt19937 rng(17);
  for (uint64_t run = 1; run <= 2; ++run) {
    std::vector<Tensor> in = RandomInputs(model->inputs(), rng);
    std::vector<Tensor> out = Execute(*model, in);
    EXPECT_TRUE(Near(out[0], Reference(kChain, in)[0], 1e-6)) << "run " << run;
    double seconds = 0;
    for (const NodeProfile& p : model->profile()) {
      EXPECT_EQ(p.runs, run) << p.node;
      EXPECT_FALSE(p.impl.empty()) << p.node;
      seconds += p.seconds;
    }
    EXPECT_GT(seconds, 0.0);
  }
}

// What the probe engine's kernels were given: per node, the intra-op threads it was prepared for and, per binding,
// the shared scratch (null: the binding allocated its own).
struct ProbeLog {
  std::mutex mu;
  std::map<std::string, int> threads;
  std::map<std::string, std::vector<void*>> scratch;
};

// Neg on float32, with 256 bytes of scratch.
class ProbeNegKernel final : public exec::PreparedKernel {
 public:
  ProbeNegKernel(std::string node, int64_t numel, ProbeLog* log) : node_(std::move(node)), numel_(numel), log_(log) {
    fn_ = &ProbeNegKernel::Run;
    num_inputs_ = 1;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "probe.neg"; }
  size_t scratch_bytes() const override { return 256; }

 protected:
  StatusOr<std::unique_ptr<exec::KernelState>> CreateState() const override { return Record(nullptr); }
  StatusOr<std::unique_ptr<exec::KernelState>> CreateStateOnScratch(void* scratch) const override {
    return Record(scratch);
  }

 private:
  std::unique_ptr<exec::KernelState> Record(void* scratch) const {
    std::lock_guard<std::mutex> lk(log_->mu);
    log_->scratch[node_].push_back(scratch);
    return nullptr;
  }
  static Status Run(void* args, rt::TaskContext&) {
    const auto& b = *static_cast<const exec::KernelBinding*>(args);
    const auto& k = exec::BoundKernel<ProbeNegKernel>(b);
    const auto* x = static_cast<const float*>(b.io.inputs[0]);
    auto* y = static_cast<float*>(b.io.outputs[0]);
    for (int64_t i = 0; i < k.numel_; ++i) y[i] = -x[i];
    return Status::Ok();
  }
  std::string node_;
  int64_t numel_;
  ProbeLog* log_;
};

class ProbeEngine final : public kernels::Engine {
 public:
  explicit ProbeEngine(ProbeLog* log) : log_(log) {}
  const char* name() const override { return "probe"; }
  std::vector<ops::OpId> Ops() const override { return {ops::OpId::kNeg}; }
  bool Claims(const ir::Node& n) const override { return ops::IsOp(n, ops::OpId::kNeg); }
  bool Supports(const ir::Node& n) const override { return Claims(n); }
  StatusOr<std::unique_ptr<exec::PreparedKernel>> Prepare(const exec::PrepareRequest& r) const override {
    if (r.input_descs[0].dtype != DataType::kFloat) return std::unique_ptr<exec::PreparedKernel>();
    {
      std::lock_guard<std::mutex> lk(log_->mu);
      log_->threads[r.node->name()] = r.intra_op_threads;
    }
    return std::unique_ptr<exec::PreparedKernel>(
        std::make_unique<ProbeNegKernel>(r.node->name(), NumElements(r.output_descs[0].shape.dims()), log_));
  }
  StatusOr<kernels::KernelChoice> Choose(const exec::PrepareRequest&) const override {
    kernels::KernelChoice c;
    c.prepared = true;
    c.impl = "probe.neg";
    return c;
  }

 private:
  ProbeLog* log_;
};

// Three independent branches of Negs (distinct inputs, so nothing merges them) joined by Adds.
const char* kNegBranches = R"(
opset "" 17
graph branches(%x: float32[2,32], %y: float32[2,32], %z: float32[2,32]) {
  a0: %a0 = Neg(%x)
  a1: %a1 = Sigmoid(%a0)
  a2: %a2 = Neg(%a1)
  b0: %b0 = Neg(%y)
  b1: %b1 = Tanh(%b0)
  b2: %b2 = Neg(%b1)
  c0: %c0 = Neg(%z)
  c1: %c1 = Abs(%c0)
  c2: %c2 = Neg(%c1)
  s0: %s0 = Add(%a2, %b2)
  s1: %s1 = Add(%s0, %c2)
  return %s1
})";

Compiled CompileForProbe(ProbeLog* log, std::map<std::string, std::string> ge_options) {
  compiler::CompileOptions co;
  co.ge_options = std::move(ge_options);
  co.engines = {std::make_shared<ProbeEngine>(log)};
  return testing::CompileText(kNegBranches, std::move(co));
}

// Per stream, one scratch buffer that its kernels share (their tasks run one at a time); streams never share one.
TEST_F(SinkModelTest, KernelsOfAStreamShareItsScratchAndStreamsDoNot) {
  ProbeLog log;
  Compiled c = CompileForProbe(&log, {{"ge.streamMaxParallelNum", "3"}});
  SinkModelOptions o;
  o.engines = {std::make_shared<ProbeEngine>(&log)};
  auto model = SinkModel::Load(Open(c.bytes), device_.get(), o);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_GT((*model)->stats().num_streams, 1);
  // Which stream each node's kernel task is on, from TASK_INFO.
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  ParseOm(*Open(c.bytes), &def, &tasks);
  std::map<std::string, int> stream_of;
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    if (t.type() == proto::TaskDefProto::KERNEL) stream_of[def.ir().graph().nodes(t.node()).name()] = t.stream();
  }
  std::map<int, std::set<void*>> scratch_of_stream;
  for (const auto& [node, bindings] : log.scratch) {
    ASSERT_EQ(bindings.size(), 1u) << node;  // one execution context so far
    ASSERT_TRUE(stream_of.count(node)) << node;
    EXPECT_NE(bindings[0], nullptr) << node << " got no shared scratch";
    scratch_of_stream[stream_of[node]].insert(bindings[0]);
  }
  EXPECT_EQ(log.scratch.size(), 6u);
  ASSERT_GT(scratch_of_stream.size(), 1u);
  std::set<void*> all;
  for (const auto& [stream, buffers] : scratch_of_stream) {
    EXPECT_EQ(buffers.size(), 1u) << "stream " << stream << "'s kernels got different scratch buffers";
    all.insert(buffers.begin(), buffers.end());
  }
  EXPECT_EQ(all.size(), scratch_of_stream.size()) << "two streams share a scratch buffer";
  // And the outputs are right.
  std::mt19937 rng(23);
  std::vector<Tensor> in = RandomInputs((*model)->inputs(), rng);
  std::vector<Tensor> out = Execute(**model, in);
  EXPECT_TRUE(Near(out[0], Reference(kNegBranches, in)[0], 1e-6));
}

// A kernel gets its stream's shared scratch whatever node precedes it, here a Variable, which runs no task.
TEST_F(SinkModelTest, AKernelAfterANodeWithoutTaskStillGetsItsStreamsScratch) {
  const char* text = R"(
opset "" 17
opset "ge" 1
graph g(%x: float32[2,32]) {
  v: %v = ge::Variable() {dtype=1, shape=[2,32]}
  n0: %n0 = Neg(%v)
  a: %a = Add(%n0, %x)
  n1: %n1 = Neg(%a)
  return %n1
})";
  ProbeLog log;
  compiler::CompileOptions co;
  co.engines = {std::make_shared<ProbeEngine>(&log)};
  Compiled c = testing::CompileText(text, std::move(co));
  SinkModelOptions o;
  o.engines = {std::make_shared<ProbeEngine>(&log)};
  auto model = SinkModel::Load(Open(c.bytes), device_.get(), o);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ((*model)->stats().num_streams, 1);
  ASSERT_EQ(log.scratch.size(), 2u);
  for (const auto& [node, bindings] : log.scratch) {
    ASSERT_EQ(bindings.size(), 1u) << node;
    EXPECT_NE(bindings[0], nullptr) << node << " got no shared scratch";
  }
  EXPECT_EQ(log.scratch["n0"], log.scratch["n1"]);
  std::vector<float> x(64), y(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i) - 20.f;
  ASSERT_TRUE((*model)->Execute({{x.data(), 256}}, {{y.data(), 256}}).ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(y[i], -x[i]) << i;  // the variable starts as zeros
}

TEST_F(SinkModelTest, KernelsArePreparedForTheDevicesIntraOpThreads) {
  ProbeLog log;
  Compiled c = CompileForProbe(&log, {{"ge.streamMaxParallelNum", "1"}});
  rt::DeviceOptions d;
  d.intra_op_threads = 3;
  auto device = rt::CreateDefaultDevice(d).value();
  ASSERT_EQ(device->intra_op_threads(), 3);
  SinkModelOptions o;
  o.engines = {std::make_shared<ProbeEngine>(&log)};
  auto model = SinkModel::Load(Open(c.bytes), device.get(), o);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ(log.threads.size(), 6u);
  for (const auto& [node, threads] : log.threads) EXPECT_EQ(threads, 3) << node;
}

}  // namespace
}  // namespace ge::runtime
