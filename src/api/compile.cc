// The public compile API (include/ge/compile.h) over the importer (ONNX, IR text) and compiler::CompileToOm, with
// runtime v2's lowering so that a dynamic model's .om carries its execute plan.
#include <cstdio>
#include <utility>

#include "api/compile_cache.h"
#include "base/option_table.h"
#include "base/status.h"
#include "compiler/input_shape_spec.h"
#include "compiler/model_compiler.h"
#include "api/source_parser.h"
#include "ge/compile.h"
#include "rt/cpu/cpu_quota.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/static_island.h"

namespace ge {
namespace {

constexpr int kMaxThreads = 1024;

StatusOr<compiler::CompileOptions> ToCompilerOptions(const CompileOptions& options) {
  // The keys the compiler reads, checked as `ge compile --option` checks them (base/option_table.def).
  GE_RETURN_IF_ERROR(CheckOptionsAgainstTable(options.options, kReaderCompiler, "compile"));
  if (options.threads < 0 || options.threads > kMaxThreads) {
    return InvalidArgument("compile threads must be 0 (every usable CPU) to " + std::to_string(kMaxThreads) + ", got " +
                           std::to_string(options.threads));
  }
  if (options.runtime != "auto" && options.runtime != "v1" && options.runtime != "v2") {
    return InvalidArgument("compile runtime must be auto, v1 or v2, got '" + options.runtime + "'");
  }
  compiler::CompileOptions out;
  out.lower_for_runtime_v2 = runtime::v2::PlanExecuteGraphsForOm;
  out.form_static_islands = runtime::v2::FormStaticIslandsForOm;
  out.threads = options.threads == 0 ? rt::UsableCpuCount() : options.threads;
  out.target = options.target;
  out.tune = options.tune;
  out.progress = options.progress;
  out.force_dynamic = options.runtime == "v2";
  out.embed_external_data = options.embed_external_data;
  out.model_name = options.model_name;
  out.ge_options = options.options;
  if (!options.input_shape_spec.empty()) {
    GE_ASSIGN_OR_RETURN(compiler::InputShapeSpec spec, compiler::ParseInputShapeSpec(options.input_shape_spec));
    out.input_shapes = std::move(spec.shapes);
    out.input_ranges = std::move(spec.ranges);
  }
  for (const auto& [name, dims] : options.input_shapes) {
    if (out.input_shapes.count(name) != 0) {
      return InvalidArgument("input '" + name + "' has a shape both in input_shapes and in input_shape_spec");
    }
    for (int64_t d : dims) {
      if (d < kUnknownDim) {
        return InvalidArgument("input '" + name + "': dim " + std::to_string(d) + " is neither a size nor -1");
      }
    }
    out.input_shapes[name] = dims;
  }
  return out;
}

CompileReport ToPublic(const compiler::CompileReport& r) {
  CompileReport out;
  out.static_model = r.static_model;
  out.dynamic_reason = r.dynamic_reason;
  out.runtime = r.static_model ? "sink" : "v2";
  out.target = r.target;
  out.notes = r.notes;
  out.nodes_before = r.nodes_before;
  out.nodes_after = r.nodes_after;
  out.feature_map_bytes = r.feature_map_bytes;
  out.feature_map_lower_bound_bytes = r.feature_map_lower_bound_bytes;
  out.weights_bytes = r.weights_bytes;
  out.memory_strategy = r.memory_strategy;
  out.streams = r.num_streams;
  out.events = r.num_events;
  out.tasks = r.num_tasks;
  out.elided_concats = r.elided_concats;
  out.impls = r.impls;
  out.external_weight_tensors = r.external_weight_tensors;
  out.external_weights_bytes = r.external_weights_bytes;
  out.external_weight_files = r.external_weight_files;
  out.external_data_tensors = r.external_data_tensors;
  out.external_data_bytes = r.external_data_bytes;
  out.static_islands = r.static_islands;
  out.static_island_nodes = r.static_island_nodes;
  return out;
}

Status CheckRuntime(const CompileOptions& options, const compiler::CompileReport& report) {
  if (options.runtime == "v1" && !report.static_model) {
    return FailedPrecondition("runtime v1: the model runs only on runtime v2 (" + report.dynamic_reason +
                              "); fix its shapes with input_shapes");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CompiledModel> Compile(const CompileSource& source, const CompileOptions& options) {
  GE_ASSIGN_OR_RETURN(compiler::CompileOptions compile_options, ToCompilerOptions(options));
  // ge.graph_compiler_cache_dir (api/compile_cache.h): a cached model stands in for the compile. Only models that
  // passed CheckRuntime are stored.
  const api::CompileCache cache(source, options, compile_options.threads);
  if (std::optional<CompiledModel> hit = cache.Find(options.cached_model_as_path)) return std::move(*hit);
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, ParseSource(source));
  compiler::CompileReport report;
  GE_ASSIGN_OR_RETURN(std::vector<uint8_t> om, compiler::CompileToOm(*model, compile_options, &report));
  GE_RETURN_IF_ERROR(CheckRuntime(options, report));
  CompiledModel out;
  out.om = std::move(om);
  out.report = ToPublic(report);
  cache.Store(out);
  return out;
}

StatusOr<CompileReport> CompileToFile(const CompileSource& source, const std::string& om_path,
                                      const CompileOptions& options) {
  if (om_path.empty()) return InvalidArgument("compile: no output path");
  if (options.options.count("ge.graph_compiler_cache_dir") != 0) {
    return InvalidArgument(
        "ge.graph_compiler_cache_dir is read by sessions and in-memory compiles (ge::Compile, Python's "
        "InferenceSession); a compile into a file (ge compile) writes the .om where it is told");
  }
  GE_ASSIGN_OR_RETURN(compiler::CompileOptions compile_options, ToCompilerOptions(options));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, ParseSource(source));
  compiler::CompileReport report;
  GE_RETURN_IF_ERROR(compiler::CompileToOmFile(*model, compile_options, om_path, &report));
  Status runtime_ok = CheckRuntime(options, report);
  if (!runtime_ok.ok()) {
    std::remove(om_path.c_str());
    return runtime_ok;
  }
  return ToPublic(report);
}

}  // namespace ge
