// The runtime on the test device (rt/testing/recording_device.h): a compiled model with parallel branches (several
// streams and events) is loaded and run by SinkModel, synchronously, on a caller's stream, and through
// RuntimeContext + ModelManager, on a device that is not the CPU device. Its outputs must be bit-identical to the
// CPU device's (same kernels, one intra-op thread), and what the device recorded must add up: the model's tasks
// were launched through rt::Model, memory came from and went back to the device. With device memory declared not
// host-accessible (as a discrete GPU's), constants are uploaded and IO is staged through Device::Memcpy. And no
// runtime source includes a device implementation's header.
#include <gtest/gtest.h>

#include <cstring>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "rt/testing/recording_device.h"
#include "runtime/runtime_context.h"
#include "runtime/v1/sink_model.h"

namespace ge::runtime {
namespace {

std::string Values(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::ostringstream os;
  os << "[";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << u(rng);
  os << "]";
  return os.str();
}

// Two convolution branches (the compiler puts them on separate streams joined by events), a concat, a MatMul.
std::string BranchyModel() {
  return R"(
opset "" 17
graph branchy(%x: float32[1,4,8,8]) {
  const %w0: float32[8,4,3,3] = )" + Values(288, 1) + R"(
  const %w1: float32[8,4,1,1] = )" + Values(32, 2) + R"(
  const %w2: float32[16,5] = )" + Values(80, 3) + R"(
  a: %a = Conv(%x, %w0) {pads=[1,1,1,1]}
  ar: %ar = Relu(%a)
  b: %b = Conv(%x, %w1)
  bs: %bs = Sigmoid(%b)
  cat: %c = Concat(%ar, %bs) {axis=1}
  gap: %g = GlobalAveragePool(%c)
  flat: %f = Flatten(%g)
  fc: %y = MatMul(%f, %w2)
  return %y, %ar
})";
}

std::vector<uint8_t> Compile() {
  auto m = ir::ParseModelText(BranchyModel());
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  compiler::CompileOptions options;
  options.ge_options["ge.streamMaxParallelNum"] = "2";
  auto bytes = compiler::CompileToOm(**m, options);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

std::shared_ptr<const om::OmReader> Open(const std::vector<uint8_t>& bytes) {
  auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
  auto r = om::OmReader::FromMemory(copy->data(), copy->size(), copy);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::shared_ptr<const om::OmReader>(std::move(*r)) : nullptr;
}

struct Io {
  std::vector<std::vector<float>> in, out;
  std::vector<DataBuffer> ib, ob;
  explicit Io(const ExecutableModel& m, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> n(0.f, 1.f);
    for (const IoDesc& d : m.inputs()) {
      in.emplace_back(d.size_bytes / sizeof(float));
      for (float& v : in.back()) v = n(rng);
    }
    for (const IoDesc& d : m.outputs()) out.emplace_back(d.size_bytes / sizeof(float), -1.f);
    for (auto& v : in) ib.push_back(DataBuffer{v.data(), v.size() * sizeof(float)});
    for (auto& v : out) ob.push_back(DataBuffer{v.data(), v.size() * sizeof(float)});
  }
};

// Outputs of the CPU device with one intra-op thread: what the recording device must reproduce bit for bit.
std::vector<std::vector<float>> CpuOutputs(const std::vector<uint8_t>& om, uint32_t seed) {
  rt::DeviceOptions o;
  o.intra_op_threads = 1;
  auto device = rt::CreateDefaultDevice(o).value();
  auto model = SinkModel::Load(Open(om), device.get()).value();
  Io io(*model, seed);
  EXPECT_TRUE(model->Execute(io.ib, io.ob).ok());
  return io.out;
}

class RecordingDeviceTest : public ::testing::TestWithParam<bool> {};

TEST_P(RecordingDeviceTest, SinkModelRunsOnlyThroughTheDeviceInterface) {
  const bool host_accessible = GetParam();
  const std::vector<uint8_t> om = Compile();
  ASSERT_FALSE(om.empty());
  rt::testing::RecordingDeviceOptions options;
  options.device_memory_host_accessible = host_accessible;
  rt::testing::RecordingDevice device(options);
  {
    auto loaded = SinkModel::Load(Open(om), &device);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    SinkModel& model = **loaded;
    ASSERT_GE(model.stats().num_streams, 2) << "the test wants a multi-stream model (events between lists)";
    const rt::testing::DeviceRecord at_load = device.record();
    EXPECT_EQ(at_load.models, 1u);
    EXPECT_GE(at_load.mallocs[static_cast<int>(rt::MemType::kDevice)], 1u);  // the feature map
    if (!host_accessible) {
      // Constants went to device memory by Memcpy.
      EXPECT_GE(at_load.memcpys[static_cast<int>(rt::MemcpyKind::kHostToDevice)], 1u);
      EXPECT_GE(at_load.memcpy_bytes, (288 + 32 + 80) * sizeof(float));
    }

    constexpr int kRuns = 3;
    for (int run = 0; run < kRuns; ++run) {
      Io io(model, 100 + run);
      ASSERT_TRUE(model.Execute(io.ib, io.ob).ok());
      EXPECT_EQ(io.out, CpuOutputs(om, 100 + run)) << "run " << run;
    }
    rt::testing::DeviceRecord r = device.record();
    EXPECT_EQ(r.model_executions, static_cast<uint64_t>(kRuns));
    EXPECT_EQ(r.kernel_tasks % kRuns, 0u);
    EXPECT_GE(r.kernel_tasks, static_cast<uint64_t>(kRuns) * 5);
    if (!host_accessible) {
      const auto h2d = r.memcpys[static_cast<int>(rt::MemcpyKind::kHostToDevice)] -
                       at_load.memcpys[static_cast<int>(rt::MemcpyKind::kHostToDevice)];
      EXPECT_EQ(h2d, static_cast<uint64_t>(kRuns) * model.inputs().size());
      EXPECT_EQ(r.memcpys[static_cast<int>(rt::MemcpyKind::kDeviceToHost)],
                static_cast<uint64_t>(kRuns) * model.outputs().size());
    }

    // On a caller's stream of this device: bind, launch, release in stream order.
    auto stream = device.CreateStream().value();
    Io io(model, 7);
    ASSERT_TRUE(model.ExecuteAsync(io.ib, io.ob, *stream).ok());
    ASSERT_TRUE(stream->Synchronize().ok());
    EXPECT_EQ(io.out, CpuOutputs(om, 7));
    EXPECT_EQ(device.record().model_executions, static_cast<uint64_t>(kRuns) + 1);

    model.Abort();
    EXPECT_EQ(model.Execute(io.ib, io.ob).code(), StatusCode::kAborted);
    model.ResetAbort();
    EXPECT_TRUE(model.Execute(io.ib, io.ob).ok());
  }
  // Everything the model took from the device went back to it.
  const rt::testing::DeviceRecord end = device.record();
  EXPECT_EQ(end.bad_frees, 0u);
  for (int t = 0; t < rt::kNumMemTypes; ++t) {
    EXPECT_EQ(end.live_bytes[t], 0u) << rt::MemTypeName(static_cast<rt::MemType>(t));
    EXPECT_EQ(end.mallocs[t], end.frees[t]) << rt::MemTypeName(static_cast<rt::MemType>(t));
  }
}

INSTANTIATE_TEST_SUITE_P(HostAccessibleOrNot, RecordingDeviceTest, ::testing::Bool());

// The model manager, the loader and the executors above SinkModel on the test device (RuntimeContext's
// create_device): load from memory, run, run on a stream, unload; nothing left allocated.
TEST(RecordingDevice, RuntimeContextAndModelManager) {
  const std::vector<uint8_t> om = Compile();
  rt::testing::RecordingDevice* device = nullptr;
  RuntimeContextOptions options;
  options.loader = OmModelLoader();
  options.create_device = [&device](const rt::DeviceOptions&) -> StatusOr<std::unique_ptr<rt::Device>> {
    auto d = std::make_unique<rt::testing::RecordingDevice>();
    device = d.get();
    return std::unique_ptr<rt::Device>(std::move(d));
  };
  auto ctx = RuntimeContext::Create(std::move(options));
  ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
  ASSERT_NE(device, nullptr);
  EXPECT_STREQ((*ctx)->device().name(), "recording");
  auto data = std::make_shared<std::vector<uint8_t>>(om);
  auto id = (*ctx)->models().Load(ModelSource::Memory(data->data(), data->size(), data), {});
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  {
    auto lease = (*ctx)->models().Acquire(*id);
    ASSERT_TRUE(lease.ok());
    Io io(lease->model(), 3);
    ASSERT_TRUE(lease->model().Execute(io.ib, io.ob).ok());
    EXPECT_EQ(io.out, CpuOutputs(om, 3));
  }
  auto stream = (*ctx)->device().CreateStream().value();
  {
    auto lease = (*ctx)->models().Acquire(*id);
    ASSERT_TRUE(lease.ok());
    Io io(lease->model(), 4);
    ASSERT_TRUE((*ctx)->models().ExecuteWithStream(*id, io.ib, io.ob, *stream).ok());
    ASSERT_TRUE(stream->Synchronize().ok());
    EXPECT_EQ(io.out, CpuOutputs(om, 4));
  }
  EXPECT_GE(device->record().events, 1u);  // ExecuteWithStream's end-of-run event came from the device
  // The sessions' variables live in the context and take device memory from its device.
  std::shared_ptr<var::VarManager> vars = (*ctx)->variables().Instance(11);
  ASSERT_TRUE(vars->Init({}).ok());
  var::VarRequest w;
  w.name = "w";
  w.desc = TensorDesc(DataType::kFloat, Shape({4}));
  const uint64_t mallocs = device->record().mallocs[static_cast<int>(rt::MemType::kDevice)];
  ASSERT_TRUE(vars->GetVarMemoryAddr(vars->AssignVarMem(w).value(), rt::MemType::kDevice).ok());
  EXPECT_EQ(device->record().mallocs[static_cast<int>(rt::MemType::kDevice)], mallocs + 1);
  ASSERT_TRUE(vars->FreeVarMemory().ok());
  ASSERT_TRUE((*ctx)->models().Unload(*id, rt::kWaitForever).ok());
  const rt::testing::DeviceRecord end = device->record();
  EXPECT_EQ(end.model_executions, 2u);
  for (int t = 0; t < rt::kNumMemTypes; ++t) EXPECT_EQ(end.live_bytes[t], 0u);
}

// The runtime includes only the device interface: no device implementation, no engine (tests and benchmarks, which
// build the devices they run on, excepted).
TEST(RecordingDevice, RuntimeSourcesIncludeNoDeviceImplementation) {
  const std::string root = std::string(GE_SOURCE_DIR) + "/src/runtime";
  std::vector<std::string> dirs = {root}, files;
  while (!dirs.empty()) {
    const std::string dir = dirs.back();
    dirs.pop_back();
    DIR* d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr) << dir;
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string path = dir + "/" + name;
      if (e->d_type == DT_DIR) {
        dirs.push_back(path);
      } else if (name.size() > 3 && (name.rfind(".cc") == name.size() - 3 || name.rfind(".h") == name.size() - 2) &&
                 name.find("_test.cc") == std::string::npos && name.find("_benchmark.cc") == std::string::npos) {
        files.push_back(path);
      }
    }
    closedir(d);
  }
  ASSERT_GT(files.size(), 10u);
  for (const std::string& f : files) {
    std::ifstream in(f);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.rfind("#include", 0) != 0) continue;
      EXPECT_EQ(line.find("\"rt/cpu/"), std::string::npos) << f << ":" << n << ": " << line;
      EXPECT_EQ(line.find("\"rt/testing/"), std::string::npos) << f << ":" << n << ": " << line;
      EXPECT_EQ(line.find("dnnl"), std::string::npos) << f << ":" << n << ": " << line;
    }
  }
}

}  // namespace
}  // namespace ge::runtime
