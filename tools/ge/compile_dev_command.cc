// ge compile with what needs the compiler's internals (ge-dev): --dump_graph (the optimized graph as IR text or a
// Graphviz picture) and --trace (the compile phases). compile_command.cc, on the public API, hands these here.
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "base/option_table.h"
#include "commands.h"
#include "base/trace_json.h"
#include "compiler/input_shape_spec.h"
#include "compiler/model_compiler.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/static_island.h"
#include "rt/cpu/cpu_quota.h"
#include "flags.h"
#include "ge_option_flags.h"
#include "progress_line.h"
#include "graph_picture.h"
#include "json_text.h"
#include "tensor_text.h"
#include "ir/dump.h"
#include "ir/text_parser.h"
#include "parser/onnx/onnx_parser.h"

namespace ge::cli {

namespace {

int Fail(const Status& s) {
  std::fprintf(stderr, "ge compile: %s\n", s.ToString().c_str());
  return 1;
}

// The directory of the external weight files (they share one).
std::string ExternalWeightDir(const compiler::CompileReport& report) {
  if (report.external_weight_files.empty()) return "";
  const std::string& f = report.external_weight_files.front();
  return f.substr(0, f.rfind('/'));
}

// An ONNX file, or a graph in ge's IR text form (M.geir: what --dump_graph writes; it can hold ge's own ops, e.g.
// ge::Variable).
StatusOr<std::unique_ptr<ir::Model>> LoadModel(const std::string& path) {
  const std::string ext = ".geir";
  if (path.size() <= ext.size() || path.compare(path.size() - ext.size(), ext.size(), ext) != 0) {
    return onnx_parser::ParseModelFile(path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  auto model = ir::ParseModelText(text.str());
  if (!model.ok()) return model.status().WithContext(path);
  return model;
}

}  // namespace

int CompileDevCommand(int argc, char** argv) {
  auto flags_or = ParseFlags(argc, argv, 2, CompileCommandSpec());
  if (!flags_or.ok()) return Fail(flags_or.status());
  const Flags& flags = *flags_or;
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
  // The threads kernels are chosen and weights prepacked for; 0 (the default): the CPUs this process may use, as
  // `ge run` defaults to, so that a model compiled and run on one machine needs no weight reorder at load.
  auto threads = flags.GetInt("threads", 0, 0, 1024);
  if (!threads.ok()) return Fail(threads.status());
  if (*threads == 0) *threads = rt::UsableCpuCount();

  compiler::CompileOptions options;
  options.lower_for_runtime_v2 = runtime::v2::PlanExecuteGraphsForOm;
  options.form_static_islands = runtime::v2::FormStaticIslandsForOm;
  options.threads = static_cast<int>(*threads);
  options.target = flags.Get("target", "native");
  options.tune = flags.GetBool("tune");
  // --tune takes minutes: a progress line on a terminal (not with --json).
  ProgressLine progress(!flags.GetBool("json"));
  options.progress = [&progress](const std::string& what, int64_t done, int64_t total) {
    progress.Update(what, done, total, "nodes");
  };
  // --runtime=v2: a lowered .om for runtime v2 even when every shape is known (default: v1 when it can).
  const std::string runtime = flags.Get("runtime", "auto");
  if (runtime != "auto" && runtime != "v1" && runtime != "v2") {
    return Fail(InvalidArgument("--runtime must be auto, v1 or v2, got '" + runtime + "'"));
  }
  options.force_dynamic = runtime == "v2";
  // ONNX external data stays in its file (FileConstant nodes read it there) unless asked to copy it.
  options.embed_external_data = flags.GetBool("embed_external_data");
  if (flags.Has("input_shape")) {
    auto spec = compiler::ParseInputShapeSpec(flags.Get("input_shape"));
    if (!spec.ok()) return Fail(spec.status());
    options.input_shapes = spec->shapes;
    options.input_ranges = spec->ranges;
  }
  auto ge_options = GeOptionsFromFlags(flags, kReaderCompiler);
  if (!ge_options.ok()) return Fail(ge_options.status());
  options.ge_options = *ge_options;
  if (flags.Has("precision_mode")) options.ge_options["ge.exec.precision_mode"] = precision;
  // 1: a file per weight, 2: one combined file; next to the .om (M.om -> M.weights/) unless
  // --option=ge.externalWeightDir=DIR names another directory.
  if (flags.Has("external_weight")) options.ge_options["ge.externalWeight"] = std::to_string(*external);
  // --trace=FILE.json: parsing and the compile phases as a Chrome / Perfetto timeline.
  std::unique_ptr<trace::TraceRecorder> recorder;
  if (flags.Has("trace")) recorder = std::make_unique<trace::TraceRecorder>(1 << 16, "ge compile " + model_path);
  if (recorder != nullptr) recorder->NameTrack(trace::kHostTrack, "compile");
  options.trace = recorder.get();
  std::optional<trace::TraceScope> parse(std::in_place, recorder.get(), "parse " + model_path, "compile");
  auto model = LoadModel(model_path);
  parse.reset();
  if (!model.ok()) return Fail(model.status());
  compiler::CompileReport report;
  Status s = compiler::CompileToOmFile(**model, options, out_path, &report);
  progress.Clear();
  if (s.ok() && runtime == "v1" && !report.dynamic_reason.empty()) {
    std::remove(out_path.c_str());
    s = FailedPrecondition("--runtime=v1: the model runs only on runtime v2 (" + report.dynamic_reason +
                           "); fix its shapes with --input_shape");
  }
  if (flags.Has("dump_graph") && IsGraphPicturePath(flags.Get("dump_graph"))) {
    // A picture (graph_picture.h): of the .om written (memory plan, streams), else of the graph as far as it got.
    Status drawn = DrawGraph(s.ok() ? out_path : "", model->get()->graph.get(), flags.Get("dump_graph"), "ge compile");
    if (!drawn.ok() && s.ok()) return Fail(drawn.WithContext("--dump_graph"));
  } else if (flags.Has("dump_graph")) {  // the optimized graph in the IR text form, written even when the build failed
    FILE* f = std::fopen(flags.Get("dump_graph").c_str(), "w");
    if (f != nullptr) {
      std::string text = ir::DumpModelText(**model);
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
  }
  if (recorder != nullptr) {
    Status written = trace::WriteTraceFile(*recorder, flags.Get("trace"));
    if (!written.ok()) return Fail(written);
  }
  if (!s.ok()) return Fail(s);
  for (const std::string& note : report.notes) std::fprintf(stderr, "ge compile: note: %s\n", note.c_str());
  if (flags.GetBool("json")) {
    std::printf(
        "{\"output\":\"%s\",\"static\":%s,\"nodes_before\":%zu,\"nodes_after\":%zu,\"feature_map_bytes\":%llu,"
        "\"feature_map_lower_bound_bytes\":%llu,\"weights_bytes\":%llu,\"streams\":%d,\"events\":%d,"
        "\"tasks\":%zu,\"target\":\"%s\",\"impls\":%s,\"external_weights_bytes\":%llu,"
        "\"external_weight_files\":%zu,\"external_data_tensors\":%d,\"external_data_bytes\":%llu,"
        "\"static_islands\":%d,\"static_island_nodes\":%zu,\"elided_concats\":%llu}\n",
        out_path.c_str(), report.static_model ? "true" : "false", report.nodes_before, report.nodes_after,
        static_cast<unsigned long long>(report.feature_map_bytes),
        static_cast<unsigned long long>(report.feature_map_lower_bound_bytes),
        static_cast<unsigned long long>(report.weights_bytes), report.num_streams, report.num_events, report.num_tasks,
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
        static_cast<unsigned long long>(report.weights_bytes), report.num_streams, report.num_events, report.num_tasks,
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
  return 0;
}

}  // namespace ge::cli
