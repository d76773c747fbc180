// ge.InferenceSession with ONNX Runtime's Python calling convention (onnxruntime.InferenceSession, SessionOptions,
// RunOptions, GraphOptimizationLevel, ExecutionMode, get_available_providers), so that an ORT script runs on ge by
// changing its import. An ONNX model (or IR text) is compiled in memory through the public compile API; an .om is
// loaded as it is.
#include <pybind11/stl.h>

#include <ctime>

#include <fstream>
#include <map>

#include "bindings.h"
#include "errors.h"
#include "loaded_model.h"
#include "model_source.h"
#include "node_arg.h"

namespace ge::python {

namespace py = pybind11;

namespace {

constexpr const char* kCpuProvider = "CPUExecutionProvider";

enum class GraphOptimizationLevel { kDisableAll = 0, kEnableBasic = 1, kEnableExtended = 2, kEnableAll = 99 };
enum class ExecutionMode { kSequential = 0, kParallel = 1 };

// ONNX Runtime's session options. What ge has an equivalent for takes effect (threads, optimization level, the
// optimized model's path, ge.* config entries); the rest is accepted and kept for scripts that read it back.
struct SessionOptions {
  int intra_op_num_threads = 0;
  int inter_op_num_threads = 0;
  GraphOptimizationLevel graph_optimization_level = GraphOptimizationLevel::kEnableAll;
  ExecutionMode execution_mode = ExecutionMode::kSequential;
  std::string optimized_model_filepath;
  int log_severity_level = 2;
  int log_verbosity_level = 0;
  std::string logid;
  bool enable_profiling = false;
  std::string profile_file_prefix = "onnxruntime_profile_";
  bool enable_cpu_mem_arena = true;
  bool enable_mem_pattern = true;
  bool enable_mem_reuse = true;
  bool use_deterministic_compute = false;
  std::map<std::string, std::string> config_entries;
  // add_free_dimension_override_by_name: symbolic dim name → the size to compile for.
  std::map<std::string, int64_t> free_dimension_overrides;
};

struct RunOptions {
  int log_severity_level = 2;
  int log_verbosity_level = 0;
  std::string logid;
  bool terminate = false;
  bool only_execute_path_to_fetches = false;
  std::map<std::string, std::string> config_entries;
};

struct ModelMetadata {
  std::string producer_name, graph_name, domain, description, graph_description;
  int64_t version = 0;
  std::map<std::string, std::string> custom_metadata_map;
};

// Providers as ORT takes them: names, or (name, options) pairs. Only the CPU provider exists here.
std::vector<std::string> CheckProviders(const py::object& providers) {
  std::vector<std::string> names;
  if (providers.is_none()) return {kCpuProvider};
  for (py::handle p : providers) {
    const bool pair = (py::isinstance<py::tuple>(p) || py::isinstance<py::list>(p)) && py::len(p) == 2 &&
                      py::isinstance<py::str>(p[py::int_(0)]);
    if (!py::isinstance<py::str>(p) && !pair) {
      throw py::type_error("a provider is a name or a (name, options) pair, got " + py::repr(p).cast<std::string>());
    }
    const std::string name = pair ? p[py::int_(0)].cast<std::string>() : p.cast<std::string>();
    if (name != kCpuProvider) {
      ThrowInvalidArgument("ge runs models on the CPU only: provider '" + name +
                           "' is not available (available: " + kCpuProvider + ")");
    }
    names.push_back(name);
  }
  if (names.empty()) names.push_back(kCpuProvider);
  return names;
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) ThrowIfError(NotFound("cannot write the optimized model to '" + path + "'"));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    ThrowIfError(NotFound("cannot write the optimized model to '" + path + "'"));
  }
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) ThrowIfError(NotFound("cannot open model file '" + path + "'"));
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class InferenceSession {
 public:
  InferenceSession(const py::object& path_or_bytes, const py::object& sess_options, const py::object& providers,
                   const py::object& provider_options, const py::kwargs& kwargs) {
    for (auto [key, value] : kwargs) {
      const std::string k = py::str(key).cast<std::string>();
      if (k != "disabled_optimizers" && k != "read_config_from_model") {
        throw py::type_error("InferenceSession() got an unexpected keyword argument '" + k + "'");
      }
    }
    if (!sess_options.is_none()) options_ = sess_options.cast<SessionOptions>();
    providers_ = CheckProviders(providers);
    ModelArgument model = ReadModelArgument(path_or_bytes);
    if (model.is_path()) model_path_ = model.path;
    OfflineModelOptions load;
    load.intra_op_threads = options_.intra_op_num_threads;
    load.trace = options_.enable_profiling;  // ONNX Runtime's profile is a Chrome trace too (end_profiling)
    if (model.format == ModelFormat::kOm) {
      if (!options_.optimized_model_filepath.empty()) {
        WriteFile(options_.optimized_model_filepath, model.is_path() ? ReadFileBytes(model.path) : model.bytes);
      }
      model_ = model.is_path() ? LoadedModel::FromFile(model.path, load)
                               : LoadedModel::FromBytes(std::move(model.bytes), load);
    } else {
      CompileOptions compile = CompileOptionsFor(options_);
      CompiledModel om = CompileWithoutGil(model, compile);
      if (!options_.free_dimension_overrides.empty()) {
        // The symbols are known once the model is compiled: compile again with the overridden dims fixed.
        std::shared_ptr<LoadedModel> symbolic = Loaded(om, load);
        compile.input_shapes = OverriddenShapes(symbolic->inputs(), options_.free_dimension_overrides);
        if (!compile.input_shapes.empty()) om = CompileWithoutGil(model, compile);
      }
      if (!options_.optimized_model_filepath.empty()) {
        WriteFile(options_.optimized_model_filepath, om.om.empty() ? ReadFileBytes(om.cache_path) : om.om);
      }
      model_ = Loaded(std::move(om), load);
    }
  }

  std::string EndProfiling() {
    if (!options_.enable_profiling) return std::string();
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d_%H-%M-%S", &local);
    const std::string path = options_.profile_file_prefix + stamp + ".json";
    Status st;
    {
      py::gil_scoped_release release;
      st = model_->model().WriteTrace(path);
    }
    ThrowIfError(st);
    return path;
  }

  std::vector<py::array> Run(const py::object& output_names, const py::object& input_feed,
                             const py::object& run_options) {
    if (!run_options.is_none() && run_options.cast<RunOptions>().terminate) {
      ThrowIfError(Aborted("run_options.terminate is set"));
    }
    if (!py::isinstance<py::dict>(input_feed)) {
      throw py::type_error("input_feed is a dict {input name: numpy array}");
    }
    std::vector<py::handle> inputs = model_->OrderFeed(py::reinterpret_borrow<py::dict>(input_feed));
    std::vector<int> wanted;
    if (!output_names.is_none()) {
      for (py::handle n : output_names) {
        const std::string name = py::str(n).cast<std::string>();
        const int index = model_->OutputIndex(name);
        if (index < 0) {
          ThrowInvalidArgument("invalid output name '" + name + "' (the model's outputs: " + model_->OutputNames() +
                               ")");
        }
        wanted.push_back(index);
      }
    }
    std::vector<py::array> outputs = model_->Run(inputs);
    if (wanted.empty()) return outputs;
    std::vector<py::array> selected;
    selected.reserve(wanted.size());
    for (int i : wanted) selected.push_back(outputs[i]);
    return selected;
  }

  std::vector<NodeArg> inputs() const { return NodeArgs(model_->inputs()); }
  std::vector<NodeArg> outputs() const { return NodeArgs(model_->outputs()); }
  const std::vector<std::string>& providers() const { return providers_; }
  const SessionOptions& options() const { return options_; }
  const std::string& model_path() const { return model_path_; }
  void set_providers(const py::object& providers) { providers_ = CheckProviders(providers); }

  ModelMetadata metadata() const {
    ModelMetadata m;
    m.graph_name = model_->model().name();
    m.producer_name = "ge";
    m.custom_metadata_map["ge.runtime"] = model_->model().runtime();
    m.custom_metadata_map["ge.target"] = model_->model().target();
    return m;
  }

  const std::shared_ptr<LoadedModel>& shared_model() const { return model_; }

 private:
  // ONNX compiles for the session's thread count; ORT_DISABLE_ALL turns ge's fusions off; config entries with GE
  // keys (ge.*) are compile options, checked like any (ORT's own keys have no meaning here and are ignored).
  static CompiledModel CompileWithoutGil(const ModelArgument& model, const CompileOptions& options) {
    StatusOr<CompiledModel> compiled = [&] {
      py::gil_scoped_release release;
      return Compile(model.source(), options);
    }();
    return ValueOrThrow(std::move(compiled));
  }

  // A model from the cache (ge.graph_compiler_cache_dir) is mapped from its file, not copied.
  static std::shared_ptr<LoadedModel> Loaded(CompiledModel om, const OfflineModelOptions& load) {
    if (om.om.empty() && !om.cache_path.empty()) return LoadedModel::FromFile(om.cache_path, load);
    return LoadedModel::FromBytes(std::move(om.om), load);
  }

  // Each input's dims with the dims whose symbol has an override set to it (others as they are).
  static std::map<std::string, std::vector<int64_t>> OverriddenShapes(const std::vector<ModelTensorDesc>& inputs,
                                                                      const std::map<std::string, int64_t>& sizes) {
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const ModelTensorDesc& d : inputs) {
      std::vector<int64_t> dims = d.dims;
      bool changed = false;
      for (size_t i = 0; i < dims.size() && i < d.dim_names.size(); ++i) {
        auto it = sizes.find(d.dim_names[i]);
        if (dims[i] < 0 && it != sizes.end()) {
          dims[i] = it->second;
          changed = true;
        }
      }
      if (changed) shapes[d.name] = std::move(dims);
    }
    return shapes;
  }

  static CompileOptions CompileOptionsFor(const SessionOptions& s) {
    CompileOptions o;
    o.threads = s.intra_op_num_threads;
    o.cached_model_as_path = true;
    if (s.graph_optimization_level == GraphOptimizationLevel::kDisableAll) o.options["ge.fusion"] = "0";
    for (const auto& [key, value] : s.config_entries) {
      if (key.rfind("ge.", 0) == 0) o.options[key] = value;
    }
    return o;
  }

  SessionOptions options_;
  std::vector<std::string> providers_;
  std::string model_path_;
  std::shared_ptr<LoadedModel> model_;
};

void RegisterOptions(py::module_& m) {
  py::enum_<GraphOptimizationLevel>(m, "GraphOptimizationLevel",
                                    "ONNX Runtime's levels; ORT_DISABLE_ALL turns ge's fusions off (ge.fusion=0).")
      .value("ORT_DISABLE_ALL", GraphOptimizationLevel::kDisableAll)
      .value("ORT_ENABLE_BASIC", GraphOptimizationLevel::kEnableBasic)
      .value("ORT_ENABLE_EXTENDED", GraphOptimizationLevel::kEnableExtended)
      .value("ORT_ENABLE_ALL", GraphOptimizationLevel::kEnableAll);
  py::enum_<ExecutionMode>(m, "ExecutionMode", "Accepted for ONNX Runtime scripts; ge chooses its own streams.")
      .value("ORT_SEQUENTIAL", ExecutionMode::kSequential)
      .value("ORT_PARALLEL", ExecutionMode::kParallel);

  py::class_<SessionOptions>(m, "SessionOptions",
                             "ONNX Runtime's SessionOptions. Effective: intra_op_num_threads (0: the CPUs this "
                             "process may use), graph_optimization_level, optimized_model_filepath (the .om is "
                             "written there) and config entries with GE option keys (ge.*); the rest is accepted.")
      .def(py::init<>())
      .def_readwrite("intra_op_num_threads", &SessionOptions::intra_op_num_threads)
      .def_readwrite("inter_op_num_threads", &SessionOptions::inter_op_num_threads)
      .def_readwrite("graph_optimization_level", &SessionOptions::graph_optimization_level)
      .def_readwrite("execution_mode", &SessionOptions::execution_mode)
      .def_readwrite("optimized_model_filepath", &SessionOptions::optimized_model_filepath)
      .def_readwrite("log_severity_level", &SessionOptions::log_severity_level)
      .def_readwrite("log_verbosity_level", &SessionOptions::log_verbosity_level)
      .def_readwrite("logid", &SessionOptions::logid)
      .def_readwrite("enable_profiling", &SessionOptions::enable_profiling)
      .def_readwrite("profile_file_prefix", &SessionOptions::profile_file_prefix)
      .def_readwrite("enable_cpu_mem_arena", &SessionOptions::enable_cpu_mem_arena)
      .def_readwrite("enable_mem_pattern", &SessionOptions::enable_mem_pattern)
      .def_readwrite("enable_mem_reuse", &SessionOptions::enable_mem_reuse)
      .def_readwrite("use_deterministic_compute", &SessionOptions::use_deterministic_compute)
      .def(
          "add_session_config_entry",
          [](SessionOptions& s, const std::string& key, const std::string& value) { s.config_entries[key] = value; },
          py::arg("config_key"), py::arg("config_value"),
          "A config entry; GE option keys (ge.*) are compile options, checked when the session is created.")
      .def(
          "add_free_dimension_override_by_name",
          [](SessionOptions& s, const std::string& dim_name, int64_t size) {
            if (size < 0) ThrowInvalidArgument("free dimension '" + dim_name + "': size " + std::to_string(size));
            s.free_dimension_overrides[dim_name] = size;
          },
          py::arg("dim_name"), py::arg("dim_value"),
          "Compiles the model with every input dim named dim_name fixed to dim_value (an ONNX model only).")
      .def(
          "get_session_config_entry",
          [](const SessionOptions& s, const std::string& key) {
            auto it = s.config_entries.find(key);
            if (it == s.config_entries.end()) ThrowIfError(NotFound("no session config entry '" + key + "'"));
            return it->second;
          },
          py::arg("config_key"));

  py::class_<RunOptions>(m, "RunOptions", "ONNX Runtime's RunOptions: accepted; terminate=True aborts the run.")
      .def(py::init<>())
      .def_readwrite("log_severity_level", &RunOptions::log_severity_level)
      .def_readwrite("log_verbosity_level", &RunOptions::log_verbosity_level)
      .def_readwrite("logid", &RunOptions::logid)
      .def_readwrite("terminate", &RunOptions::terminate)
      .def_readwrite("only_execute_path_to_fetches", &RunOptions::only_execute_path_to_fetches)
      .def(
          "add_run_config_entry",
          [](RunOptions& r, const std::string& key, const std::string& value) { r.config_entries[key] = value; },
          py::arg("config_key"), py::arg("config_value"));

  py::class_<ModelMetadata>(m, "ModelMetadata",
                            "ONNX Runtime's ModelMetadata; custom_metadata_map has ge.runtime "
                            "and ge.target.")
      .def_readonly("producer_name", &ModelMetadata::producer_name)
      .def_readonly("graph_name", &ModelMetadata::graph_name)
      .def_readonly("domain", &ModelMetadata::domain)
      .def_readonly("description", &ModelMetadata::description)
      .def_readonly("graph_description", &ModelMetadata::graph_description)
      .def_readonly("version", &ModelMetadata::version)
      .def_readonly("custom_metadata_map", &ModelMetadata::custom_metadata_map);
}

}  // namespace

void RegisterInferenceSession(py::module_& m) {
  RegisterOptions(m);
  py::class_<InferenceSession>(
      m, "InferenceSession",
      "ONNX Runtime's InferenceSession on ge: InferenceSession(path_or_bytes, sess_options=None, providers=None). "
      "An ONNX model (or ge IR text) is compiled in memory; an .om is loaded as it is. Thread-safe: threads may "
      "share one session, and run() releases the GIL while ge runs.")
      .def(py::init<const py::object&, const py::object&, const py::object&, const py::object&, const py::kwargs&>(),
           py::arg("path_or_bytes"), py::arg("sess_options") = py::none(), py::arg("providers") = py::none(),
           py::arg("provider_options") = py::none())
      .def("run", &InferenceSession::Run, py::arg("output_names"), py::arg("input_feed"),
           py::arg("run_options") = py::none(),
           "Runs the model: output_names (None: every output, in the model's order), input_feed {name: array}. "
           "Returns a list of numpy arrays. Raises ge.InvalidArgument naming a bad input name, dtype or shape.")
      .def("get_inputs", &InferenceSession::inputs)
      .def("get_outputs", &InferenceSession::outputs)
      .def("get_overridable_initializers", [](const InferenceSession&) { return py::list(); })
      .def("get_modelmeta", &InferenceSession::metadata)
      .def("get_providers", &InferenceSession::providers)
      .def("get_provider_options",
           [](const InferenceSession& s) {
             py::dict d;
             for (const std::string& p : s.providers()) d[py::str(p)] = py::dict();
             return d;
           })
      .def(
          "set_providers",
          [](InferenceSession& s, const py::object& providers, const py::object&) { s.set_providers(providers); },
          py::arg("providers") = py::none(), py::arg("provider_options") = py::none())
      .def("get_session_options", &InferenceSession::options)
      .def("disable_fallback", [](InferenceSession&) {})
      .def("enable_fallback", [](InferenceSession&) {})
      .def("end_profiling", &InferenceSession::EndProfiling,
           "With SessionOptions.enable_profiling: writes the timeline since the session was created (load phases, one "
           "slice per kernel run) as Chrome trace-event JSON to PROFILE_FILE_PREFIX<date>_<time>.json and returns "
           "that name, as ONNX Runtime does; '' without profiling.")
      .def_property_readonly("_model_path", &InferenceSession::model_path)
      .def_property_readonly("offline_model", &InferenceSession::shared_model, "The ge.OfflineModel the session runs.");

  m.def("get_available_providers", [] { return std::vector<std::string>{kCpuProvider}; });
  m.def("get_all_providers", [] { return std::vector<std::string>{kCpuProvider}; });
  m.def("get_device", [] { return std::string("CPU"); });
  m.def(
      "set_default_logger_severity", [](int) {}, py::arg("severity"));
}

}  // namespace ge::python
