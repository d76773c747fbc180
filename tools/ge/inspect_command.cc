// ge inspect M.om [--json]: header, partitions, memory plan (weights / feature map), streams, events, tasks; for an
// IR .om the sizes of runtime v2's lowered Init / Main / DeInit graphs.
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "commands.h"
#include "flags.h"
#include "graph_picture.h"
#include "json_text.h"
#include "tensor_text.h"
#include "lowered_summary.h"
#include "compiler/passes/passes.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/packed_weights.h"
#include "om/ir_om.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"
#include "om/weight_file.h"

namespace ge::cli {

namespace {

int Fail(const Status& s) {
  std::fprintf(stderr, "ge inspect: %s\n", s.ToString().c_str());
  return 1;
}

std::string Quote(const std::string& s) { return "\"" + JsonEscape(s) + "\""; }

// Ordered key/value pairs printed as JSON or as "key: value" lines.
struct Report {
  std::vector<std::pair<std::string, std::string>> fields;  // value already JSON-encoded
  void Add(const std::string& k, const std::string& json) { fields.emplace_back(k, json); }
  void Add(const std::string& k, uint64_t v) { fields.emplace_back(k, std::to_string(v)); }
  void AddStr(const std::string& k, const std::string& v) { fields.emplace_back(k, Quote(v)); }
  std::string Json() const {
    std::string o = "{";
    for (size_t i = 0; i < fields.size(); ++i) o += (i ? "," : "") + Quote(fields[i].first) + ":" + fields[i].second;
    return o + "}";
  }
};

std::string IoJson(const google::protobuf::RepeatedPtrField<proto::IoProto>& list,
                   const proto::ModelDefProto& def) {
  std::string o = "[";
  for (int i = 0; i < list.size(); ++i) {
    const proto::IoProto& io = list[i];
    const proto::TensorDescProto& d = io.desc();
    std::string dims = "[";
    for (int k = 0; k < d.shape().dims_size(); ++k) dims += (k ? "," : "") + std::to_string(d.shape().dims(k));
    dims += "]";
    o += (i ? "," : "") + std::string("{\"name\":") + Quote(io.name()) + ",\"dtype\":" +
         Quote(DataTypeName(static_cast<DataType>(d.dtype()))) + ",\"dims\":" + dims +
         ",\"bytes\":" + std::to_string(io.size()) + "}";
  }
  (void)def;
  return o + "]";
}

void AddCompiled(const om::OmReader& reader, Report* r, Status* status) {
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  om::ByteSpan d = reader.partition(om::PartitionType::kModelDef);
  om::ByteSpan t = reader.partition(om::PartitionType::kTaskInfo);
  if (!def.ParseFromArray(d.data, static_cast<int>(d.size)) || !tasks.ParseFromArray(t.data, static_cast<int>(t.size))) {
    *status = DataLoss("MODEL_DEF or TASK_INFO does not parse");
    return;
  }
  r->AddStr("precision_mode", def.precision_mode().empty() ? "fp32" : def.precision_mode());
  r->AddStr("target", def.target_isa().empty() ? "none (compiled before --target)" : def.target_isa());
  const proto::MemoryPlanProto& m = def.memory();
  r->Add("feature_map_bytes", m.feature_map_bytes());
  r->Add("feature_map_lower_bound_bytes", m.feature_map_lower_bound_bytes());
  r->Add("concurrent_lower_bound_bytes", m.concurrent_lower_bound_bytes());
  r->Add("weights_bytes", m.weights_bytes());
  r->Add("external_weights_bytes", m.external_weights_bytes());
  r->Add("graph_input_bytes", m.graph_input_bytes());
  r->Add("graph_output_bytes", m.graph_output_bytes());
  r->AddStr("memory_strategy", m.strategy());
  std::string tried = "{";
  for (int i = 0; i < m.tried_size(); ++i) {
    tried += (i ? "," : "") + Quote(m.tried(i).name()) + ":" + std::to_string(m.tried(i).feature_map_bytes());
  }
  r->Add("memory_strategies", tried + "}");
  r->Add("inplace_pairs", m.inplace_pairs());
  r->Add("elided_concats", m.elided_concats());
  r->Add("reuse_disabled", m.reuse_disabled() ? "true" : "false");
  r->Add("streams", static_cast<uint64_t>(def.num_streams()));
  r->Add("events", static_cast<uint64_t>(def.num_events()));
  r->Add("pruned_events", static_cast<uint64_t>(def.pruned_events()));
  std::map<int, uint64_t> by_type;
  std::map<int, uint64_t> by_stream;
  for (const proto::TaskDefProto& task : tasks.tasks()) {
    ++by_type[task.type()];
    ++by_stream[task.stream()];
  }
  r->Add("tasks", static_cast<uint64_t>(tasks.tasks_size()));
  std::string types = "{";
  bool first = true;
  for (auto [type, n] : by_type) {
    types += (first ? "" : ",") + Quote(proto::TaskDefProto::Type_Name(static_cast<proto::TaskDefProto::Type>(type))) +
             ":" + std::to_string(n);
    first = false;
  }
  r->Add("tasks_by_type", types + "}");
  std::string streams = "[";
  for (int s = 0; s < def.num_streams(); ++s) streams += (s ? "," : "") + std::to_string(by_stream[s]);
  r->Add("tasks_per_stream", streams + "]");
  std::map<std::string, uint64_t> ops;
  uint64_t prepacked = 0;  // nodes whose weights the compiler stored in their kernel's layout
  std::map<std::string, int> impls;  // the implementation the compiler chose per engine node
  std::map<std::string, int> tuned;  // `ge compile --tune`'s choices: variant names and thread counts
  std::map<std::string, uint64_t> weight_files;  // external weights: file_path (as recorded) -> bytes read from it
  uint64_t file_constants = 0;
  for (const proto::NodeProto& n : def.ir().graph().nodes()) {
    ++ops[n.op_type()];
    if (n.op_type() == "FileConstant" && n.domain() == "ge") {
      ++file_constants;
      std::string file;
      uint64_t length = 0;
      for (const proto::AttrProto& a : n.attrs()) {
        if (a.name() == om::kFileConstantPathAttr) file = a.s();
        if (a.name() == om::kFileConstantLengthAttr) length = static_cast<uint64_t>(a.i());
      }
      weight_files[file] += length;
    }
    for (const proto::AttrProto& a : n.attrs()) {
      prepacked += a.name() == exec::kPackedInputAttr ? 1 : 0;
      if (a.name() == compiler::kKernelImplAttr) ++impls[a.s()];
      if (a.name() == exec::kKernelVariantAttr) ++tuned[a.s()];
      if (a.name() == exec::kKernelThreadsAttr) ++tuned["threads=" + std::to_string(a.i())];
    }
  }
  r->Add("impls", CountsJson(impls));
  r->Add("tuned", CountsJson(tuned));
  r->Add("nodes", static_cast<uint64_t>(def.ir().graph().nodes_size()));
  r->Add("transdata_nodes", ops.count("TransData") ? ops["TransData"] : 0);
  r->Add("prepacked_weight_nodes", prepacked);
  r->Add("file_constant_nodes", file_constants);
  std::string files = "{", missing = "[";
  for (const auto& [file, bytes] : weight_files) {
    files += (files.size() > 1 ? "," : "") + Quote(file) + ":" + std::to_string(bytes);
    const size_t slash = reader.path().rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : reader.path().substr(0, slash);
    struct stat st {};
    if (::stat((file.empty() || file[0] == '/' ? file : dir + "/" + file).c_str(), &st) != 0) {
      missing += (missing.size() > 1 ? "," : "") + Quote(file);
    }
  }
  r->Add("external_weight_files", files + "}");  // file_path as recorded (relative to the .om's directory) -> bytes
  r->Add("missing_weight_files", missing + "]");
  std::string op_json = "{";
  first = true;
  for (auto& [op, n] : ops) {
    op_json += (first ? "" : ",") + Quote(op) + ":" + std::to_string(n);
    first = false;
  }
  r->Add("ops", op_json + "}");
  r->Add("inputs", IoJson(def.inputs(), def));
  r->Add("outputs", IoJson(def.outputs(), def));
}

}  // namespace

const CommandSpec& InspectCommandSpec() {
  static const CommandSpec spec = {
      "inspect",
      "M.om",
      "describe an offline model: header, partitions, memory plan, streams, events, tasks, IO, ops and engines",
      {{"model", "M.om", "the model (or give it as the first argument)"},
       {"json", "", "print the description as one line of JSON"},
       {"graph", "FILE.svg|.png|.pdf|.dot", "draw the compiled graph with Graphviz (a .dot is written without dot)"}}};
  return spec;
}

int InspectCommand(int argc, char** argv) {
  auto flags_or = ParseFlags(argc, argv, 2, InspectCommandSpec());
  if (!flags_or.ok()) return Fail(flags_or.status());
  const Flags& flags = *flags_or;
  std::string path = flags.Get("model");
  if (path.empty() && !flags.positional.empty()) path = flags.positional[0];
  if (path.empty()) return Fail(InvalidArgument("usage: ge inspect M.om [--json]"));
  om::VerifyOptions vo;
  vo.check_isa = false;  // inspecting a model built for another CPU is fine; the ISA is reported
  auto reader_or = om::OmReader::Open(path, vo);
  if (!reader_or.ok()) return Fail(reader_or.status());
  const om::OmReader& reader = **reader_or;
  const om::OmHeader& h = reader.header();
  if (flags.Has("graph")) {  // --graph=FILE.svg|.png|.pdf|.dot: a Graphviz picture (graph_picture.h)
    Status drawn = DrawGraph(path, nullptr, flags.Get("graph"), "ge inspect");
    if (!drawn.ok()) return Fail(drawn);
  }
  Report r;
  r.AddStr("model", h.name);
  r.Add("format_version", static_cast<uint64_t>(h.format_version));
  r.AddStr("model_type", h.model_type == om::OmModelType::kStandard  ? "compiled"
                         : h.model_type == om::OmModelType::kLowered ? "lowered"
                                                                      : "ir");
  r.Add("dynamic", h.dynamic ? "true" : "false");
  r.Add("file_bytes", h.total_length);
  r.AddStr("isa", IsaFeatureNames(h.isa.features));
  r.AddStr("cpu_vendor", h.isa.vendor);
  std::string parts = "[";
  for (size_t i = 0; i < h.partitions.size(); ++i) {
    const om::PartitionInfo& p = h.partitions[i];
    parts += (i ? "," : "") + std::string("{\"type\":") + Quote(om::PartitionTypeName(p.type)) +
             ",\"offset\":" + std::to_string(p.offset) + ",\"size\":" + std::to_string(p.size) + "}";
  }
  r.Add("partitions", parts + "]");
  Status status;
  if (h.model_type == om::OmModelType::kStandard) {
    AddCompiled(reader, &r, &status);
  } else {
    auto m = om::ReadIrOm(reader);
    if (!m.ok()) return Fail(m.status());
    r.Add("nodes", static_cast<uint64_t>((*m)->graph->num_nodes()));
    std::map<std::string, int> ops, engines;  // top-level graph: op types, and the engine assigned to each node
    for (const ir::Node* n : (*m)->graph->nodes()) {
      ++ops[n->op_type()];
      ++engines[n->engine().empty() ? "(none)" : n->engine()];
    }
    r.Add("ops", CountsJson(ops));
    r.Add("engines", CountsJson(engines));
    // Runtime v2 lowers the IR at load (along the EXECUTE_PLAN of a lowered .om); lowering here the same way (no
    // Init, no execution) shows the three graphs' sizes and checks the plan.
    std::unique_ptr<runtime::v2::ExecutePlan> plan;
    if (h.model_type == om::OmModelType::kLowered) {
      if (!reader.has(om::PartitionType::kExecutePlan)) return Fail(DataLoss("the lowered .om has no EXECUTE_PLAN"));
      om::ByteSpan bytes = reader.partition(om::PartitionType::kExecutePlan);
      auto p = runtime::v2::ParseExecutePlan(bytes.data, bytes.size);
      if (!p.ok()) return Fail(p.status());
      plan = std::make_unique<runtime::v2::ExecutePlan>(std::move(*p));
    }
    r.AddStr("execute_plan", plan != nullptr ? "stored (EXECUTE_PLAN, checked)" : "made at load");
    std::unique_ptr<runtime::v2::StaticIslands> islands;
    if (reader.has(om::PartitionType::kStaticIslands)) {
      om::ByteSpan bytes = reader.partition(om::PartitionType::kStaticIslands);
      auto loaded = runtime::v2::LoadStaticIslands(bytes.data, bytes.size, nullptr);
      if (!loaded.ok()) return Fail(loaded.status());
      islands = std::move(*loaded);
    }
    auto lowered = SummarizeLowering(**m, plan.get(), islands.get());
    if (!lowered.ok()) return Fail(lowered.status().WithContext("lowering for runtime v2"));
    r.Add("lowered_init", LoweredGraphJson(lowered->init));
    r.Add("lowered_main", LoweredGraphJson(lowered->main));
    r.Add("lowered_deinit", LoweredGraphJson(lowered->deinit));
    r.Add("lowered_shape_derived_nodes", static_cast<uint64_t>(lowered->memo_nodes));
    r.Add("static_islands", static_cast<uint64_t>(lowered->static_islands));
    r.Add("static_island_nodes", static_cast<uint64_t>(lowered->static_island_nodes));
  }
  if (!status.ok()) return Fail(status);
  if (flags.GetBool("json")) {
    std::printf("%s\n", r.Json().c_str());
  } else {
    for (auto& [k, v] : r.fields) std::printf("%-30s %s\n", (k + ":").c_str(), v.c_str());
  }
  return 0;
}

}  // namespace ge::cli
