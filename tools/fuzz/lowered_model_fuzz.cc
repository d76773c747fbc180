// Fuzzes loading and running lowered .om files (model type kLowered: the IR plus runtime v2's EXECUTE_PLAN, and
// IR .om files) through ModelV2: the verifier runs without the checksum so mutations reach MODEL_DEF, WEIGHTS_DATA
// EXECUTE_PLAN, VAR_INFO and STATIC_ISLANDS parsing (each island a compiled .om of its own), the plan's checks against the IR (orders, converters, graph sizes), lowering and Init;
// a model that loads runs once on small inputs (unknown dims 3). Every input must either fail with a Status or
// run; never crash. GE_LOWERED_FUZZ_WRITE_SEEDS=DIR compiles a few dynamic models there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/static_island.h"
#include "runtime/v2/model_v2.h"

namespace {

const char* const kSeedModels[] = {
    // Symbolic batch: static constants, dynamic compute nodes, a value-dependent Reshape.
    R"(opset "" 17
       graph dyn(%x: float32[?,4]) {
         const %w: float32[4,2] = [1, 2, 3, 4, 5, 6, 7, 8]
         m: %m = MatMul(%x, %w)
         t: %t = Tanh(%m)
         sh: %sh = Shape(%x)
         const %zero: int64[1] = [0]
         g0: %b = Gather(%sh, %zero) {axis = 0}
         const %two: int64[1] = [2]
         c: %newshape = Concat(%two, %b) {axis = 0}
         tr: %tt = Transpose(%t) {perm = [1, 0]}
         rs: %r = Reshape(%tt, %newshape)
         s: %y = Softmax(%r) {axis = 1}
         return %y, %m
       })",
    // Data-dependent shapes.
    R"(opset "" 17
       graph nz(%x: float32[?]) {
         const %zero: float32[] = [0]
         gt: %m = Greater(%x, %zero)
         nz: %i = NonZero(%m)
         sq: %s = Squeeze(%i)
         ga: %v = Gather(%x, %s) {axis = 0}
         n: %neg = Neg(%v)
         return %neg
       })",
    // Control flow with captures (subgraphs get plans of their own).
    R"(opset "" 17
       graph cf(%c: bool[], %x: float32[?,2]) {
         const %w: float32[2] = [1, 2]
         e: %e = Exp(%x)
         if: %z = If(%c)
           then_branch = graph t() {
             a: %r = Add(%e, %w)
             return %r
           }
           else_branch = graph f() {
             const %n: int64[] = [3]
             const %t: bool[] = [true]
             loop: %acc = Loop(%n, %t, %x)
               body = graph body(%i: int64[], %cond: bool[], %a: float32[?,2]) {
                 m: %s = Mul(%a, %w)
                 return %cond, %s
               }
             return %acc
           }
         n: %o = Neg(%z)
         return %o
       })",
    // Session variables (VAR_INFO): read before the run's write, then accumulated into.
    R"(opset "" 17
       graph var(%x: float32[?,4]) {
         acc: %acc = ge::Variable() {dtype = 1, shape = [4]}
         const %axes: int64[1] = [0]
         y: %y = Add(%x, %acc)
         sum: %sum = ReduceSum(%x, %axes) {keepdims = 0}
         upd: %after = ge::AssignAdd(%acc, %sum)
         return %y, %after
       })",
    // A static tail compiled as a static island (STATIC_ISLANDS partition, islands of at least 3 nodes).
    R"(opset "" 17
       graph island(%x: float32[?,4]) {
         const %w: float32[4,4] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
         const %b: float32[4] = [0.5, -0.5, 0.25, -0.25]
         rm: %p = ReduceMean(%x) {axes = [0], keepdims = 1}
         t: %t = Tanh(%p)
         a: %a = Add(%t, %b)
         m: %m = MatMul(%a, %w)
         s: %s = Sigmoid(%m)
         r: %r = Relu(%x)
         return %s, %r
       })",
};

void WriteSeeds(const std::string& dir) {
  int i = 0;
  for (const char* text : kSeedModels) {
    auto m = ge::ir::ParseModelText(text);
    if (!m.ok()) continue;
    ge::compiler::CompileOptions options;
    options.lower_for_runtime_v2 = ge::runtime::v2::PlanExecuteGraphsForOm;
    options.form_static_islands = ge::runtime::v2::FormStaticIslandsForOm;
    options.ge_options["ge.exec.v2StaticIslandMinNodes"] = "3";
    auto bytes = ge::compiler::CompileToOm(**m, options);
    if (!bytes.ok()) {
      std::fprintf(stderr, "seed %d: %s\n", i, bytes.status().ToString().c_str());
      std::exit(1);
    }
    std::string path = dir + "/lowered" + std::to_string(i++) + ".om";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      std::fwrite(bytes->data(), 1, bytes->size(), f);
      std::fclose(f);
    }
  }
  std::exit(0);
}

// An input for |d|: unknown dims 3, at most 4096 elements, numeric values that keep every op finite; false when
// the declaration is not a plain float/int64/bool tensor of known rank.
bool MakeInput(const ge::TensorDesc& d, ge::Value* out) {
  if (d.kind != ge::ValueKind::kTensor || d.shape.unknown_rank() || d.shape.rank() > 6) return false;
  ge::Dims dims;
  int64_t n = 1;
  for (int i = 0; i < d.shape.rank(); ++i) {
    const int64_t v = d.shape.dim(i) < 0 ? 3 : d.shape.dim(i);
    if (v > 4096) return false;
    dims.push_back(v);
    n *= v;
    if (n > 4096) return false;
  }
  auto t = ge::Tensor::Create(d.dtype, dims);
  if (!t.ok()) return false;
  for (int64_t i = 0; i < n; ++i) {
    switch (d.dtype) {
      case ge::DataType::kFloat: t->data<float>()[i] = 0.25f * static_cast<float>(i % 7) - 0.5f; break;
      case ge::DataType::kInt64: t->data<int64_t>()[i] = 1; break;
      case ge::DataType::kBool: t->data<bool>()[i] = (i % 2) == 0; break;
      default: return false;
    }
  }
  *out = ge::Value(std::move(*t));
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_LOWERED_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::om::VerifyOptions lax;
  lax.check_checksum = false;
  auto reader = ge::om::OmReader::FromMemory(data, size, nullptr, lax);
  if (!reader.ok() || !ge::om::IsIrModelType((*reader)->header().model_type)) return 0;
  std::shared_ptr<const ge::om::OmReader> om(std::move(*reader));
  // One device for every input (the fuzzer's process lives long): variables and run-time memory come from it,
  // capped so that a mutated model asking for absurd sizes fails to allocate instead of exhausting the host.
  static const std::unique_ptr<ge::rt::CpuDevice> device = [] {
    ge::rt::DeviceOptions o;
    o.device_memory_limit = size_t{256} << 20;
    o.intra_op_threads = 1;
    return std::move(ge::rt::CpuDevice::Create(o)).value();
  }();
  ge::runtime::v2::ModelV2Options options;
  options.device = device.get();
  auto model = ge::runtime::v2::ModelV2::Load(om, options);
  if (!model.ok()) return 0;
  // Run small graphs only: a mutated graph may legally describe a long computation.
  if ((*model)->stats().main_nodes > 256) return 0;
  std::vector<ge::Value> in, out;
  for (const ge::ir::Value* v : (*model)->graph_inputs()) {
    ge::Value value;
    if (!MakeInput(v->desc(), &value)) return 0;
    in.push_back(std::move(value));
  }
  (*model)->Execute(in, &out).IgnoreError();
  return 0;
}
