// End to end through the public API: an IR-text model compiled by compiler::CompileToOm, loaded with
// ge::OfflineModel from memory and from a file (OmModelLoader), run synchronously and asynchronously 10,000
// times from 4 threads each, every output compared with the Interpreter. Also the loader with ModelManager and
// ModelExecutor on real models.
#include <unistd.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include "base/tensor.h"
#include "base/testing/expect_match.h"
#include "compiler/model_compiler.h"
#include "ge/model.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "runtime/model_executor.h"
#include "runtime/runtime_context.h"

namespace ge::runtime {
namespace {

const char* kModel = R"(
opset "" 17
graph addrelu(%x: float32[4,16], %y: float32[4,16]) {
  const %b: float32[16] = [0.5, -0.5, 1, -1, 0.25, -0.25, 2, -2, 0, 0.1, -0.1, 3, -3, 0.75, -0.75, 1.5]
  n0: %s = Add(%x, %y)
  n1: %r = Relu(%s)
  n2: %t = Add(%r, %b)
  n3: %u = Relu(%t)
  n4: %v = Mul(%u, %x)
  return %v, %t
})";

constexpr int kThreads = 4;
constexpr int kRuns = 10000;
constexpr int kDistinctInputs = 16;
constexpr size_t kElems = 64, kBytes = kElems * sizeof(float);

std::vector<uint8_t> CompileModel(compiler::CompileReport* report) {
  auto m = ir::ParseModelText(kModel);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  compiler::CompileOptions options;
  auto bytes = compiler::CompileToOm(**m, options, report);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

// kDistinctInputs input pairs and their interpreter outputs.
struct Cases {
  std::vector<std::vector<float>> x, y, out0, out1;
};

Cases MakeCases() {
  Cases c;
  auto model = ir::ParseModelText(kModel).value();
  auto interp = Interpreter::Create(model.get()).value();
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  for (int i = 0; i < kDistinctInputs; ++i) {
    std::vector<float> x(kElems), y(kElems);
    for (auto& v : x) v = dist(rng);
    for (auto& v : y) v = dist(rng);
    std::vector<Value> in = {Value(Tensor::FromVector(x, {4, 16})), Value(Tensor::FromVector(y, {4, 16}))}, out;
    Status st = interp->Run(in, &out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(out.size(), 2u);
    const float* o0 = out[0].tensor.data<float>();
    const float* o1 = out[1].tensor.data<float>();
    c.x.push_back(x);
    c.y.push_back(y);
    c.out0.emplace_back(o0, o0 + kElems);
    c.out1.emplace_back(o1, o1 + kElems);
  }
  return c;
}


// Output buffers for one run.
struct Outs {
  std::vector<float> o0 = std::vector<float>(kElems), o1 = std::vector<float>(kElems);
};

class SinkIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bytes_ = new std::vector<uint8_t>(CompileModel(&report_));
    cases_ = new Cases(MakeCases());
    // Per process: ctest runs this suite's tests in parallel processes, each with its own SetUpTestSuite.
    path_ = new std::string(::testing::TempDir() + "ge_rt1_addrelu_" + std::to_string(getpid()) + ".om");
    std::ofstream f(*path_, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes_->data()), static_cast<std::streamsize>(bytes_->size()));
  }
  static void TearDownTestSuite() {
    std::remove(path_->c_str());
    delete bytes_;
    delete cases_;
    delete path_;
  }

  static std::vector<InputBuffer> Inputs(int c) {
    return {{cases_->x[c].data(), kBytes}, {cases_->y[c].data(), kBytes}};
  }
  static std::vector<OutputBuffer> Outputs(Outs& o) { return {{o.o0.data(), kBytes}, {o.o1.data(), kBytes}}; }
  static ::testing::AssertionResult Matches(const Outs& o, int c) {
    const Tolerance tol{1e-6, 1e-6};
    ::testing::AssertionResult r = FloatsMatch(o.o0, cases_->out0[c], tol);
    return r ? FloatsMatch(o.o1, cases_->out1[c], tol) : r;
  }

  static std::vector<uint8_t>* bytes_;
  static Cases* cases_;
  static std::string* path_;
  static compiler::CompileReport report_;
};
std::vector<uint8_t>* SinkIntegration::bytes_ = nullptr;
Cases* SinkIntegration::cases_ = nullptr;
std::string* SinkIntegration::path_ = nullptr;
compiler::CompileReport SinkIntegration::report_;

TEST_F(SinkIntegration, LoadsFromMemoryAndFileWithTheSameDescriptions) {
  ASSERT_TRUE(report_.static_model) << report_.dynamic_reason;
  auto mem = OfflineModel::LoadFromMemory(bytes_->data(), bytes_->size());
  ASSERT_TRUE(mem.ok()) << mem.status().ToString();
  auto file = OfflineModel::LoadFromFile(*path_);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  for (OfflineModel* m : {mem->get(), file->get()}) {
    EXPECT_EQ(m->name(), "addrelu");
    ASSERT_EQ(m->inputs().size(), 2u);
    ASSERT_EQ(m->outputs().size(), 2u);
    EXPECT_EQ(m->inputs()[0].name, "x");
    EXPECT_EQ(m->inputs()[1].name, "y");
    EXPECT_EQ(m->inputs()[0].dtype, DataType::kFloat);
    EXPECT_EQ(m->inputs()[0].dims, (std::vector<int64_t>{4, 16}));
    EXPECT_EQ(m->inputs()[0].bytes, kBytes);
    EXPECT_EQ(m->outputs()[1].bytes, kBytes);
    EXPECT_EQ(m->feature_map_bytes(), report_.feature_map_bytes);
  }
  auto missing = OfflineModel::LoadFromFile(*path_ + ".missing");
  EXPECT_FALSE(missing.ok());
  std::vector<uint8_t> junk(300, 7);
  EXPECT_FALSE(OfflineModel::LoadFromMemory(junk.data(), junk.size()).ok());
}

// The loader checks the checksum beside the load: an image with a flipped byte anywhere past the header (model
// definition, tasks or weights) never yields a model, from memory or from a file, and is reported as damaged.
TEST_F(SinkIntegration, DamagedImageIsRefusedAsAChecksumMismatch) {
  std::mt19937 rng(5);
  const std::string damaged_path = *path_ + ".damaged";
  for (int trial = 0; trial < 24; ++trial) {
    std::vector<uint8_t> bytes = *bytes_;
    const size_t at = 256 + rng() % (bytes.size() - 256);
    bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    auto mem = OfflineModel::LoadFromMemory(bytes.data(), bytes.size());
    ASSERT_FALSE(mem.ok()) << "byte " << at;
    EXPECT_NE(mem.status().message().find("checksum mismatch"), std::string::npos) << mem.status().ToString();
    FILE* f = std::fopen(damaged_path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
    auto file = OfflineModel::LoadFromFile(damaged_path);
    ASSERT_FALSE(file.ok()) << "byte " << at;
    EXPECT_NE(file.status().message().find("checksum mismatch"), std::string::npos) << file.status().ToString();
    EXPECT_NE(file.status().message().find(damaged_path), std::string::npos) << file.status().ToString();
  }
  std::remove(damaged_path.c_str());
}

TEST_F(SinkIntegration, SyncRunsFromFourThreadsMatchTheInterpreter) {
  OfflineModelOptions one_thread;
  one_thread.intra_op_threads = 1;
  auto m = OfflineModel::LoadFromFile(*path_, one_thread);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Outs o;
      for (int i = t; i < kRuns; i += kThreads) {
        const int c = i % kDistinctInputs;
        Status st = (*m)->Execute(Inputs(c), Outputs(o));
        ASSERT_TRUE(st.ok()) << st.ToString();
        ASSERT_TRUE(Matches(o, c)) << "run " << i;
        good++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), kRuns);
}

TEST_F(SinkIntegration, AsyncRunsFromFourThreadsCompleteOnceAndMatch) {
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  options.async_queue_capacity = 32;
  auto m = OfflineModel::LoadFromMemory(bytes_->data(), bytes_->size(), options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::vector<Outs> outs(kRuns);
  std::vector<std::atomic<int>> calls(kRuns);
  std::atomic<int> ok{0}, done{0};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < kRuns; i += kThreads) {
        Status st = (*m)->ExecuteAsync(Inputs(i % kDistinctInputs), Outputs(outs[i]), [&, i](const Status& s) {
          calls[i]++;
          if (s.ok()) ok++;
          std::lock_guard<std::mutex> lk(mu);
          done++;
          cv.notify_all();
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
      }
    });
  }
  for (auto& t : threads) t.join();
  {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait(lk, [&] { return done.load() == kRuns; });
  }
  EXPECT_EQ(ok.load(), kRuns);
  for (int i = 0; i < kRuns; ++i) {
    ASSERT_EQ(calls[i].load(), 1) << i;
    ASSERT_TRUE(Matches(outs[i], i % kDistinctInputs)) << "run " << i;
  }
  EXPECT_TRUE((*m)->Unload().ok());
}

TEST_F(SinkIntegration, BorrowedImageAndCallerFeatureMap) {
  ASSERT_GT(report_.feature_map_bytes, 0u);
  auto fm = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(report_.feature_map_bytes)}).value();
  OfflineModelOptions options;
  options.borrow_model_data = true;
  options.feature_map = fm.raw_data();
  options.feature_map_size = fm.nbytes();
  auto m = OfflineModel::LoadFromMemory(bytes_->data(), bytes_->size(), options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->feature_map_bytes(), 0u);  // the caller's memory, not the model's
  Outs o;
  ASSERT_TRUE((*m)->Execute(Inputs(3), Outputs(o)).ok());
  EXPECT_TRUE(Matches(o, 3));
}

TEST_F(SinkIntegration, ModelExecutorEvictsRealModels) {
  RuntimeContextOptions co;
  co.device.intra_op_threads = 1;
  co.loader = OmModelLoader();
  auto ctx = RuntimeContext::Create(std::move(co)).value();
  const size_t fm = report_.feature_map_bytes;
  ModelExecutor ex(&ctx->models(), ModelExecutorOptions{2 * fm});
  for (GraphId g = 1; g <= 3; ++g) ASSERT_TRUE(ex.AddGraph(g, ModelSource::File(*path_)).ok());
  for (GraphId g = 1; g <= 3; ++g) {
    Outs o;
    std::vector<DataBuffer> in = {{cases_->x[g].data(), kBytes}, {cases_->y[g].data(), kBytes}};
    ASSERT_TRUE(ex.RunGraph(g, in, {{o.o0.data(), kBytes}, {o.o1.data(), kBytes}}).ok());
    EXPECT_TRUE(Matches(o, g));
  }
  EXPECT_FALSE(ex.state(1)->loaded);  // the least recently used made room for graph 3
  EXPECT_TRUE(ex.state(2)->loaded && ex.state(3)->loaded);
  EXPECT_EQ(ex.loaded_bytes(), 2 * fm);
  EXPECT_EQ(ctx->models().usage().feature_map_bytes, 2 * fm);
}

}  // namespace
}  // namespace ge::runtime

namespace ge::runtime {
namespace {

// A compiled model that takes long enough to time out (~0.1 s): 160 chained 256x256 MatMuls on the reference GEMM.
TEST(SinkTimeout, RealModelPastItsTimeoutIsAbortedThenRunsAgain) {
  std::string text = "opset \"\" 17\ngraph slow(%x: float32[256,256]) {\n  const %w: float32[256,256] = <elided 65536 elements>\n";
  std::string prev = "%x";
  for (int i = 0; i < 160; ++i) {
    const std::string out = "%m" + std::to_string(i);
    text += "  n" + std::to_string(i) + ": " + out + " = MatMul(" + prev + ", " + (i % 2 ? "%w" : prev) + ")\n";
    prev = out;
  }
  text += "  return " + prev + "\n}\n";
  auto m = ir::ParseModelText(text);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  auto bytes = compiler::CompileToOm(**m, compiler::CompileOptions());
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  auto model = OfflineModel::LoadFromMemory(bytes->data(), bytes->size(), options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::vector<float> x(256 * 256, 0.f), y(256 * 256, 1.f);

  std::mutex mu;
  std::condition_variable cv;
  std::vector<Status> results;
  auto done = [&](const Status& s) {
    std::lock_guard<std::mutex> lk(mu);
    results.push_back(s);
    cv.notify_all();
  };
  AsyncRunOptions quick;
  quick.timeout = std::chrono::microseconds(200);
  ASSERT_TRUE((*model)->ExecuteAsync({{x.data(), x.size() * 4}}, {{y.data(), y.size() * 4}}, done, quick).ok());
  ASSERT_TRUE((*model)->ExecuteAsync({{x.data(), x.size() * 4}}, {{y.data(), y.size() * 4}}, done).ok());
  std::unique_lock<std::mutex> lk(mu);
  ASSERT_TRUE(cv.wait_for(lk, std::chrono::minutes(5), [&] { return results.size() == 2; }));
  EXPECT_EQ(results[0].code(), StatusCode::kTimeout) << results[0].ToString();
  EXPECT_NE(results[0].message().find("timeout"), std::string::npos) << results[0].message();
  EXPECT_TRUE(results[1].ok()) << results[1].ToString();
  // x is zero, so every product is zero: the second run completed and wrote the whole output.
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 0.f; }));
}

}  // namespace
}  // namespace ge::runtime
