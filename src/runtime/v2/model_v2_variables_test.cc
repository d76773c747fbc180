// Session variables on runtime v2 outside a session: a dynamic model with variables compiled to a lowered .om
// carries VAR_INFO; ModelV2 places its variables in a manager of its own (or the one given) and they persist
// across runs.
#include <gtest/gtest.h>

#include <random>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "om/om_writer.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {
namespace {

// y = x + acc (acc read before this run's write); acc += column sums of x. acc starts as zeros.
constexpr char kAccumulate[] = R"(opset "" 17
graph g(%x: float32[?,4]) {
  acc: %acc = ge::Variable() {dtype = 1, shape = [4]}
  const %axes: int64[1] = [0]
  y: %y = Add(%x, %acc)
  sum: %sum = ReduceSum(%x, %axes) {keepdims = 0}
  upd: %after = ge::AssignAdd(%acc, %sum)
  return %y, %after
})";

std::vector<uint8_t> CompileLowered(const std::string& text, compiler::CompileReport* report) {
  auto model = ir::ParseModelText(text);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  compiler::CompileOptions co;
  co.lower_for_runtime_v2 = PlanExecuteGraphsForOm;
  auto om = compiler::CompileToOm(**model, co, report);
  EXPECT_TRUE(om.ok()) << om.status().ToString();
  return om.ok() ? std::move(*om) : std::vector<uint8_t>();
}

std::shared_ptr<const om::OmReader> Reader(std::vector<uint8_t> bytes) {
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::shared_ptr<const om::OmReader>(std::move(*reader)) : nullptr;
}

std::unique_ptr<rt::CpuDevice> Device() {
  rt::DeviceOptions o;
  o.intra_op_threads = 1;
  return std::move(rt::CpuDevice::Create(o)).value();
}

Tensor Rows(int64_t rows, std::mt19937* rng) {
  Tensor t = std::move(Tensor::Create(DataType::kFloat, {rows, 4})).value();
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(*rng);
  return t;
}

TEST(ModelV2Variables, PersistAcrossRunsInTheModelsOwnManager) {
  compiler::CompileReport report;
  std::vector<uint8_t> bytes = CompileLowered(kAccumulate, &report);
  ASSERT_FALSE(report.static_model);
  EXPECT_EQ(report.variables, std::vector<std::string>{"acc"});
  auto reader = Reader(bytes);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(reader->has(om::PartitionType::kVarInfo));
  ASSERT_EQ(reader->header().model_type, om::OmModelType::kLowered);

  auto device = Device();
  ModelV2Options options;
  options.device = device.get();
  auto m = ModelV2::Load(reader, options);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_NE((*m)->variables(), nullptr);

  std::mt19937 rng(3);
  std::vector<double> acc(4, 0.0);
  for (int64_t rows : {2, 5, 1, 7}) {
    Tensor x = Rows(rows, &rng);
    std::vector<Value> out;
    Status s = (*m)->Execute({Value(x)}, &out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].tensor.dims(), x.dims());
    for (int64_t i = 0; i < x.numel(); ++i) {
      EXPECT_NEAR(out[0].tensor.data<float>()[i], x.data<float>()[i] + acc[static_cast<size_t>(i % 4)], 1e-5)
          << "rows " << rows << " element " << i;
    }
    for (int64_t i = 0; i < x.numel(); ++i) acc[static_cast<size_t>(i % 4)] += x.data<float>()[i];
    for (size_t j = 0; j < 4; ++j) EXPECT_NEAR(out[1].tensor.data<float>()[j], acc[j], 1e-5) << "rows " << rows;
  }
}

// Two models given one manager (two graphs of a session): the second reads what the first wrote.
TEST(ModelV2Variables, ModelsGivenOneManagerShareTheVariable) {
  compiler::CompileReport report;
  auto device = Device();
  auto manager = std::make_shared<var::VarManager>(/*session_id=*/1, device.get());
  ASSERT_TRUE(manager->Init(var::VarManagerOptions()).ok());
  ModelV2Options options;
  options.device = device.get();
  options.variables = manager;
  auto a = ModelV2::Load(Reader(CompileLowered(kAccumulate, &report)), options);
  auto b = ModelV2::Load(Reader(CompileLowered(kAccumulate, &report)), options);
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString() << b.status().ToString();
  Tensor ones = Tensor::FromVector<float>(std::vector<float>(12, 1.f), {3, 4});
  std::vector<Value> out;
  ASSERT_TRUE((*a)->Execute({Value(ones)}, &out).ok());  // acc = 3
  ASSERT_TRUE((*b)->Execute({Value(ones)}, &out).ok());  // y = 1 + 3, acc = 6
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(out[0].tensor.data<float>()[i], 4.f);
  for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(out[1].tensor.data<float>()[j], 6.f);
}

TEST(ModelV2Variables, WithoutADeviceOrVarInfoAClearError) {
  compiler::CompileReport report;
  auto reader = Reader(CompileLowered(kAccumulate, &report));
  auto m = ModelV2::Load(reader, ModelV2Options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kFailedPrecondition) << m.status().ToString();
  EXPECT_NE(m.status().message().find("device"), std::string::npos) << m.status().ToString();

  // An IR model never compiled (no VAR_INFO places its variable).
  auto device = Device();
  ModelV2Options options;
  options.device = device.get();
  auto model = ir::ParseModelText(kAccumulate);
  ASSERT_TRUE(model.ok());
  m = ModelV2::Load(std::move(*model), options);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kFailedPrecondition) << m.status().ToString();
  EXPECT_NE(m.status().message().find("VAR_INFO"), std::string::npos) << m.status().ToString();
}

}  // namespace
}  // namespace ge::runtime::v2
