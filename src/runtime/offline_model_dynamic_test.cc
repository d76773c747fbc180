// The public OfflineModel API over a dynamic model (symbolic dims, compiled to a lowered .om for runtime v2): the
// descs show -1, the tensor form of Execute runs every accepted size against the reference interpreter on fresh
// random inputs and reuses the caller's output storage, the buffer form is refused with a clear error, and the
// tensor form serves static models too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <random>

#include "base/compare.h"
#include "compiler/model_compiler.h"
#include "ge/model.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"
#include "runtime/v2/lowering/execute_plan.h"

namespace ge::runtime {
namespace {

constexpr const char* kModel = R"(opset "" 17
graph g(%x: float32[?,8], %s: float32[1,8]) {
  m: %m = Mul(%x, %s)
  r: %r = Relu(%m)
  rs: %sum = ReduceSum(%r) {keepdims = 1}
  d: %y = Div(%r, %sum)
  return %y, %sum
})";

Tensor RandomFloats(const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, dims)).value();
  std::uniform_real_distribution<float> u(0.1f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

// Compiles |text| to a .om under a per-process temp path (lowered for runtime v2 when the dims are symbolic).
std::string CompileToTemp(const char* text, const std::string& tag) {
  auto model = ir::ParseModelText(text);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  compiler::CompileOptions o;
  o.lower_for_runtime_v2 = v2::PlanExecuteGraphsForOm;
  const std::string path = ::testing::TempDir() + "offline_dynamic_" + tag + "_" + std::to_string(::getpid()) + ".om";
  Status s = compiler::CompileToOmFile(**model, o, path);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return path;
}

TEST(OfflineModelDynamic, TensorFormRunsEverySize) {
  const std::string path = CompileToTemp(kModel, "run");
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  auto m = OfflineModel::LoadFromFile(path, options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  OfflineModel& model = **m;
  EXPECT_TRUE(model.dynamic());
  ASSERT_EQ(model.inputs().size(), 2u);
  EXPECT_EQ(model.inputs()[0].dims, (std::vector<int64_t>{-1, 8}));
  EXPECT_EQ(model.inputs()[0].bytes, 0u);
  EXPECT_EQ(model.inputs()[1].dims, (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(model.inputs()[1].bytes, 32u);
  EXPECT_EQ(model.runtime(), "v2");

  auto oracle_model = ir::ParseModelText(kModel);
  ASSERT_TRUE(oracle_model.ok());
  auto oracle = Interpreter::Create(oracle_model->get());
  ASSERT_TRUE(oracle.ok());
  std::mt19937_64 rng(41);
  const Tensor scale = RandomFloats({1, 8}, rng);
  std::vector<Tensor> outputs;
  const void* largest_storage = nullptr;
  for (int64_t n : {3, 1, 17, 17, 2, 9}) {
    const Tensor x = RandomFloats({n, 8}, rng);
    Status s = model.Execute({x, scale}, &outputs);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::vector<Value> want;
    ASSERT_TRUE((*oracle)->Run({Value(x), Value(scale)}, &want).ok());
    ASSERT_EQ(outputs.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      Status c = CompareTensors(outputs[i], want[i].tensor, Tolerance{1e-5, 1e-5}, "output " + std::to_string(i));
      EXPECT_TRUE(c.ok()) << "n=" << n << ": " << c.ToString();
    }
    // Once 17 rows were seen, smaller outputs are written into the same storage.
    if (n == 17) largest_storage = outputs[0].storage().get();
    if (largest_storage != nullptr) {
      EXPECT_EQ(outputs[0].storage().get(), largest_storage) << "n=" << n;
    }
  }

  // The buffer form cannot express -1: refused, naming the input and the way out.
  std::vector<float> x(16), y(16), sum(1);
  Status buffers = model.Execute({{x.data(), 64}, {x.data(), 32}}, {{y.data(), 64}, {sum.data(), 4}});
  EXPECT_EQ(buffers.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(buffers.message().find("input 'x'"), std::string::npos) << buffers.message();
  EXPECT_NE(buffers.message().find("tensors"), std::string::npos) << buffers.message();

  // Bad tensors: a wrong dtype, rank, known dim, count.
  std::vector<Tensor> out;
  const Tensor ints = std::move(Tensor::Create(DataType::kInt64, {2, 8})).value();
  EXPECT_EQ(model.Execute({ints, scale}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(model.Execute({RandomFloats({2, 8, 1}, rng), scale}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(model.Execute({RandomFloats({2, 7}, rng), scale}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(model.Execute({RandomFloats({2, 8}, rng)}, &out).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(model.Unload().ok());
  EXPECT_EQ(model.Execute({RandomFloats({2, 8}, rng), scale}, &out).code(), StatusCode::kFailedPrecondition);
  std::remove(path.c_str());
}

TEST(OfflineModelDynamic, TensorFormServesStaticModels) {
  constexpr const char* kStatic = R"(opset "" 17
graph g(%x: float32[2,8], %s: float32[1,8]) {
  m: %m = Mul(%x, %s)
  r: %y = Relu(%m)
  return %y
})";
  const std::string path = CompileToTemp(kStatic, "static");
  OfflineModelOptions options;
  options.intra_op_threads = 1;
  auto m = OfflineModel::LoadFromFile(path, options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_FALSE((*m)->dynamic());
  EXPECT_EQ((*m)->runtime(), "sink");
  std::mt19937_64 rng(2);
  const Tensor x = RandomFloats({2, 8}, rng), s = RandomFloats({1, 8}, rng);
  std::vector<Tensor> outputs;
  ASSERT_TRUE((*m)->Execute({x, s}, &outputs).ok());
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_EQ(outputs[0].dims(), (Dims{2, 8}));
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_FLOAT_EQ(outputs[0].data<float>()[i], std::max(0.f, x.data<float>()[i] * s.data<float>()[i % 8]));
  }
  const void* storage = outputs[0].storage().get();
  ASSERT_TRUE((*m)->Execute({x, s}, &outputs).ok());
  EXPECT_EQ(outputs[0].storage().get(), storage);  // reused
  Status bad = (*m)->Execute({RandomFloats({3, 8}, rng), s}, &outputs);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("input 'x'"), std::string::npos) << bad.message();
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge::runtime
