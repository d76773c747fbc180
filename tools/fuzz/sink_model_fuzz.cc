// Fuzzes loading and running .om images through both runtimes the loader picks from (runtime v1's SinkModel for
// compiled models, the InterpreterModel for IR models): the verifier runs without the checksum so mutations reach
// MODEL_DEF / TASK_INFO / IR parsing, the load checks (placements, IO, op inference of every node, task lists)
// and, when a compiled model loads and is small, one execution. Every input must either fail with a
// Status or run; never crash. GE_SINK_FUZZ_WRITE_SEEDS=DIR compiles a few models there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "om/ir_om.h"
#include "runtime/interpreter_model.h"
#include "runtime/v1/sink_model.h"

namespace {

const char* const kSeedModels[] = {
    R"(opset "" 17
       graph chain(%x: float32[2,8]) {
         const %b: float32[8] = [1, 2, 3, 4, 5, 6, 7, 8]
         a: %a = Relu(%x)
         b: %c = Add(%a, %b)
         n: %d = Neg(%c)
         s: %e = Softmax(%d) {axis=1}
         return %e, %x
       })",
    R"(opset "" 17
       graph branches(%x: float32[1,2,4,4]) {
         const %w: float32[2,2,1,1] = [1, -1, 0.5, 2]
         s: %s = Relu(%x)
         c: %c = Conv(%s, %w)
         p: %p = MaxPool(%s) {kernel_shape=[2,2], strides=[2,2]}
         q: %q = Sigmoid(%s)
         t: %t = Mul(%q, %c)
         f: %f = Flatten(%p)
         return %t, %f
       })",
    // A convolution chain: activation layouts, TransData at the boundary, prepacked weights, a residual Sum.
    R"(opset "" 17
       graph cnn(%x: float32[1,3,6,6]) {
         const %w0: float32[4,3,3,3] = [-1.0, -0.625, -0.25, 0.125, 0.5, 0.875, -0.875, -0.5, -0.125, 0.25, 0.625, 1.0, -0.75,
            -0.375, 0.0, 0.375, 0.75, -1.0, -0.625, -0.25, 0.125, 0.5, 0.875, -0.875, -0.5, -0.125,
            0.25, 0.625, 1.0, -0.75, -0.375, 0.0, 0.375, 0.75, -1.0, -0.625, -0.25, 0.125, 0.5, 0.875,
            -0.875, -0.5, -0.125, 0.25, 0.625, 1.0, -0.75, -0.375, 0.0, 0.375, 0.75, -1.0, -0.625,
            -0.25, 0.125, 0.5, 0.875, -0.875, -0.5, -0.125, 0.25, 0.625, 1.0, -0.75, -0.375, 0.0,
            0.375, 0.75, -1.0, -0.625, -0.25, 0.125, 0.5, 0.875, -0.875, -0.5, -0.125, 0.25, 0.625,
            1.0, -0.75, -0.375, 0.0, 0.375, 0.75, -1.0, -0.625, -0.25, 0.125, 0.5, 0.875, -0.875, -0.5,
            -0.125, 0.25, 0.625, 1.0, -0.75, -0.375, 0.0, 0.375, 0.75, -1.0, -0.625, -0.25, 0.125, 0.5,
            0.875]
         const %w1: float32[4,4,1,1] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
         c0: %a = Conv(%x, %w0) {pads=[1,1,1,1]}
         r0: %r = Relu(%a)
         c1: %b = Conv(%r, %w1)
         add: %s = Add(%b, %r)
         p: %p = MaxPool(%s) {kernel_shape=[2,2], strides=[2,2]}
         k: %k = Concat(%p, %p) {axis=1}
         g: %g = GlobalAveragePool(%k)
         f: %y = Flatten(%g)
         return %y
       })",
};

// An IR model (what the compiler emits for graphs the sink cannot run) with fixed-shape IO.
const char kIrSeed[] = R"(opset "" 17
graph ir(%x: float32[2,3]) {
  a: %y: float32[2,3] = Add(%x, %x)
  s: %z: float32[2,3] = Softmax(%y) {axis=1}
  return %z
})";

void WriteSeeds(const std::string& dir) {
  int i = 0;
  if (auto ir = ge::ir::ParseModelText(kIrSeed); ir.ok()) {
    ge::om::OmWriteOptions wo;
    wo.dynamic = true;
    if (auto bytes = ge::om::WriteIrOm(**ir, wo); bytes.ok()) {
      if (FILE* f = std::fopen((dir + "/ir.om").c_str(), "wb")) {
        std::fwrite(bytes->data(), 1, bytes->size(), f);
        std::fclose(f);
      }
    }
  }
  for (const char* text : kSeedModels) {
    auto m = ge::ir::ParseModelText(text);
    if (!m.ok()) continue;
    ge::compiler::CompileOptions options;
    if (i == 1) options.ge_options["ge.streamMaxParallelNum"] = "4";
    auto bytes = ge::compiler::CompileToOm(**m, options);
    if (!bytes.ok()) continue;
    std::string path = dir + "/seed" + std::to_string(i++) + ".om";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      std::fwrite(bytes->data(), 1, bytes->size(), f);
      std::fclose(f);
    }
  }
  std::exit(0);
}

ge::rt::Device* FuzzDevice() {
  static ge::rt::Device* device = [] {
    ge::rt::DeviceOptions o;
    o.device_memory_limit = size_t{256} << 20;  // a mutated feature-map size fails cleanly
    o.intra_op_threads = 1;
    return ge::rt::CreateDefaultDevice(o).value().release();
  }();
  return device;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_SINK_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::om::VerifyOptions lax;
  lax.check_checksum = false;
  auto reader = ge::om::OmReader::FromMemory(data, size, nullptr, lax);
  if (!reader.ok()) return 0;
  std::shared_ptr<const ge::om::OmReader> om(std::move(*reader));
  std::unique_ptr<ge::runtime::ExecutableModel> model;
  if (ge::om::IsIrModelType(om->header().model_type)) {
    // Loaded, not run: a mutated IR graph may legally describe hours of reference-kernel work (onnx_import_fuzz
    // runs imported graphs with bounds of its own).
    ge::runtime::InterpreterModel::Load(om).status().IgnoreError();
    return 0;
  } else {
    auto m = ge::runtime::SinkModel::Load(om, FuzzDevice());
    if (!m.ok() || (*m)->stats().feature_map_bytes > (size_t{16} << 20)) return 0;
    model = std::move(*m);
  }
  size_t io_bytes = 0;
  for (const auto& d : model->inputs()) io_bytes += d.size_bytes;
  for (const auto& d : model->outputs()) io_bytes += d.size_bytes;
  if (io_bytes > (size_t{1} << 20)) return 0;
  std::vector<std::vector<uint8_t>> storage;
  std::vector<ge::runtime::DataBuffer> in, out;
  for (const auto& d : model->inputs()) {
    storage.emplace_back(d.size_bytes, 0x3c);  // float32 ~0.0115: finite for every numeric dtype
    in.push_back({storage.back().data(), d.size_bytes});
  }
  for (const auto& d : model->outputs()) {
    storage.emplace_back(d.size_bytes);
    out.push_back({storage.back().data(), d.size_bytes});
  }
  model->Execute(in, out).IgnoreError();
  return 0;
}
