// ge compile: ONNX model or ge IR text (.geir) → .om (DESIGN.md §9), on the public compile API (include/ge/compile.h)
// alone. A static graph becomes a compiled model (memory plan, streams, tasks) for the sink runtime; a graph the sink
// cannot run becomes an .om for runtime v2. --dump_graph and --trace need the compiler's internals: they are handed
// to CompileDevCommand (the developer binary ge-dev).
#include <cstdio>
#include <string>

#include "commands.h"
#include "flags.h"
#include "ge/compile.h"
#include "json_text.h"
#include "progress_line.h"

namespace ge::cli {

namespace {

int Fail(const Status& s) {
  std::fprintf(stderr, "ge compile: %s\n", s.ToString().c_str());
  return 1;
}

// The directory of the external weight files (they share one).
std::string ExternalWeightDir(const CompileReport& report) {
  if (report.external_weight_files.empty()) return "";
  const std::string& f = report.external_weight_files.front();
  return f.substr(0, f.rfind('/'));
}

void PrintReport(const std::string& model_path, const std::string& out_path, const CompileReport& report, bool json) {
  if (json) {
    std::printf(
        "{\"output\":\"%s\",\"static\":%s,\"nodes_before\":%zu,\"nodes_after\":%zu,\"feature_map_bytes\":%llu,"
        "\"feature_map_lower_bound_bytes\":%llu,\"weights_bytes\":%llu,\"streams\":%d,\"events\":%d,"
        "\"tasks\":%zu,\"target\":\"%s\",\"impls\":%s,\"external_weights_bytes\":%llu,"
        "\"external_weight_files\":%zu,\"external_data_tensors\":%d,\"external_data_bytes\":%llu,"
        "\"static_islands\":%d,\"static_island_nodes\":%zu,\"elided_concats\":%llu}\n",
        out_path.c_str(), report.static_model ? "true" : "false", report.nodes_before, report.nodes_after,
        static_cast<unsigned long long>(report.feature_map_bytes),
        static_cast<unsigned long long>(report.feature_map_lower_bound_bytes),
        static_cast<unsigned long long>(report.weights_bytes), report.streams, report.events, report.tasks,
        report.target.c_str(), CountsJson(report.impls).c_str(),
        static_cast<unsigned long long>(report.external_weights_bytes), report.external_weight_files.size(),
        report.external_data_tensors, static_cast<unsigned long long>(report.external_data_bytes),
        report.static_islands, report.static_island_nodes, static_cast<unsigned long long>(report.elided_concats));
  } else if (report.static_model) {
    std::printf(
        "compiled %s -> %s: %zu nodes (from %zu), feature map %llu bytes (lower bound %llu, %s), weights "
        "%llu bytes, %d streams, %d events, %zu tasks (%llu Concats elided), target %s\n",
        model_path.c_str(), out_path.c_str(), report.nodes_after, report.nodes_before,
        static_cast<unsigned long long>(report.feature_map_bytes),
        static_cast<unsigned long long>(report.feature_map_lower_bound_bytes), report.memory_strategy.c_str(),
        static_cast<unsigned long long>(report.weights_bytes), report.streams, report.events, report.tasks,
        static_cast<unsigned long long>(report.elided_concats), report.target.c_str());
    if (report.external_data_tensors > 0) {
      std::printf("external data: %d tensors, %llu bytes read in place from the model's data file(s)\n",
                  report.external_data_tensors, static_cast<unsigned long long>(report.external_data_bytes));
    }
    if (report.external_weight_tensors > report.external_data_tensors) {
      std::printf("external weights: %d tensors, %llu bytes in %zu file(s) under %s\n",
                  report.external_weight_tensors - report.external_data_tensors,
                  static_cast<unsigned long long>(report.external_weights_bytes - report.external_data_bytes),
                  report.external_weight_files.size(), ExternalWeightDir(report).c_str());
    }
  } else {
    std::printf("compiled %s -> %s as a dynamic model (runs on runtime v2): %s\n", model_path.c_str(), out_path.c_str(),
                report.dynamic_reason.c_str());
  }
}

}  // namespace

const CommandSpec& CompileCommandSpec() {
  static const CommandSpec spec = {
      "compile",
      "--model=M.onnx|M.geir --output=M.om",
      "compile a model into an offline model (.om) that ge run and the public API load",
      {{"model", "M.onnx|M.geir", "the model: ONNX, or ge's IR text form (what --dump_graph writes)"},
       {"output", "M.om", "the offline model to write"},
       {"input_shape", "\"NAME:1,3,224,224;...\"", "fix input dims; a dim LO~HI stays symbolic within that range"},
       {"precision_mode", "fp32|allow_bf16", "allow_bf16: kernels may compute in bfloat16 (ge.exec.precision_mode)"},
       {"external_weight", "0|1|2", "weights in the .om (0), a file per weight (1) or one combined file (2)"},
       {"embed_external_data", "", "copy ONNX external data into the .om instead of reading it in place"},
       {"threads", "N", "threads kernels are chosen and weights packed for (default: the CPUs this process may use)"},
       {"target", "native|x86-64-v2|x86-64-v3|x86-64-v4", "the CPU level the model is for (default native)"},
       {"tune", "", "time each oneDNN node's kernel variants on this machine and keep the fastest"},
       {"runtime", "auto|v1|v2", "v2: a lowered .om for runtime v2 even when every shape is known; v1: sink or fail"},
       {"option", "KEY=VALUE", "a ge.* option the compiler reads (repeatable; `ge options` lists them)"},
       {"dump_graph", "FILE",
        "write the optimized graph: FILE.svg|.png|.pdf|.dot a Graphviz picture of the compiled "
        "model, any other name ge's IR text form (even when the build fails)"},
       {"trace", "FILE.json", "write a Chrome / Perfetto trace of the compile phases and passes"},
       {"json", "", "print the compile report as one line of JSON"}}};
  return spec;
}

int CompileCommand(int argc, char** argv) {
  auto flags_or = ParseFlags(argc, argv, 2, CompileCommandSpec());
  if (!flags_or.ok()) return Fail(flags_or.status());
  const Flags& flags = *flags_or;
  if (flags.Has("dump_graph") || flags.Has("trace")) return CompileDevCommand(argc, argv);
  const std::string model_path = flags.Get("model");
  const std::string out_path = flags.Get("output");
  if (model_path.empty() || out_path.empty())
    return Fail(InvalidArgument("--model=M.onnx and --output=M.om are required"));
  const std::string precision = flags.Get("precision_mode", "fp32");
  if (precision != "fp32" && precision != "allow_bf16") {
    return Fail(InvalidArgument("--precision_mode must be fp32 or allow_bf16, got '" + precision + "'"));
  }
  auto external = flags.GetInt("external_weight", 0, 0, 2);
  if (!external.ok()) return Fail(external.status());
  // 0 (the default): the CPUs this process may use, as `ge run` defaults to, so that a model compiled and run on
  // one machine needs no weight reorder at load.
  auto threads = flags.GetInt("threads", 0, 0, 1024);
  if (!threads.ok()) return Fail(threads.status());

  CompileOptions options;
  options.threads = static_cast<int>(*threads);
  options.target = flags.Get("target", "native");
  options.tune = flags.GetBool("tune");
  // --tune takes minutes: a progress line on a terminal (not with --json).
  ProgressLine progress(!flags.GetBool("json"));
  options.progress = [&progress](const std::string& what, int64_t done, int64_t total) {
    progress.Update(what, done, total, "nodes");
  };
  options.runtime = flags.Get("runtime", "auto");
  if (options.runtime != "auto" && options.runtime != "v1" && options.runtime != "v2") {
    return Fail(InvalidArgument("--runtime must be auto, v1 or v2, got '" + options.runtime + "'"));
  }
  // ONNX external data stays in its file (FileConstant nodes read it there) unless asked to copy it.
  options.embed_external_data = flags.GetBool("embed_external_data");
  options.input_shape_spec = flags.Get("input_shape");
  auto ge_options = OptionPairsFromFlags(flags);  // Compile checks the keys against ge's option table
  if (!ge_options.ok()) return Fail(ge_options.status());
  options.options = *ge_options;
  if (flags.Has("precision_mode")) options.options["ge.exec.precision_mode"] = precision;
  // 1: a file per weight, 2: one combined file; next to the .om (M.om -> M.weights/) unless
  // --option=ge.externalWeightDir=DIR names another directory.
  if (flags.Has("external_weight")) options.options["ge.externalWeight"] = std::to_string(*external);

  auto report = CompileToFile(CompileSource::FromFile(model_path), out_path, options);
  progress.Clear();
  if (!report.ok()) {
    const int rc = Fail(report.status());
    if (options.runtime == "v1" && report.status().code() == StatusCode::kFailedPrecondition) {
      std::fprintf(stderr, "ge compile: fix its shapes with --input_shape, or compile with --runtime=auto\n");
    }
    return rc;
  }
  for (const std::string& note : report->notes) std::fprintf(stderr, "ge compile: note: %s\n", note.c_str());
  PrintReport(model_path, out_path, *report, flags.GetBool("json"));
  return 0;
}

}  // namespace ge::cli
