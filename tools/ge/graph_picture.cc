#include "graph_picture.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <vector>

#include "om/ir_om.h"
#include "om/ir_proto.h"
#include "om/model_def.pb.h"
#include "om/om_reader.h"

extern char** environ;

namespace ge::cli {

namespace {

// The node attribute the compiler's kernel selection records (compiler/passes/passes.h kKernelImplAttr).
constexpr char kKernelImplAttr[] = "kernel_impl";

// Text inside a DOT double-quoted string: quotes and backslashes escaped, line breaks as DOT's "\n", other
// control characters as spaces (a node name may hold anything).
std::string Esc(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c == '\n') {
      o += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      o += ' ';
    } else {
      o += static_cast<char>(c);
    }
  }
  return o;
}

struct EngineStyle {
  const char* engine;
  const char* fill;
  const char* what;
};
constexpr EngineStyle kEngineStyles[] = {
    {"dnnl", "#9ecae1", "oneDNN"},      {"ge", "#a1d99b", "ge's fast kernels"},
    {"ref", "#d9d9d9", "reference"},    {"host", "#fdd0a2", "host"},
    {"comm", "#dadaeb", "collectives"}, {"", "#ffffff", "no engine (runs no kernel)"},
};
constexpr const char* kOtherFill = "#fcbba1";

const char* FillFor(const std::string& engine) {
  for (const EngineStyle& s : kEngineStyles) {
    if (engine == s.engine) return s.fill;
  }
  return kOtherFill;
}

bool IsLayoutChange(const ir::Node& n) { return n.op_type() == "TransData" || n.op_type() == "ReFormat"; }

// ge's own ops that the compiler's fusions make out of several ONNX ops (ops/op_table.def, family kFused).
bool IsFused(const ir::Node& n) {
  static const std::set<std::string> kFused = {
      "FusedConv",      "FusedGemm",     "FusedMatMul",      "FusedBatchNormalization",
      "ChannelShuffle", "SqueezeExcite", "ConcatScaleShift", "LayerNormalization",
      "Attention",      "Gelu"};
  return n.domain() == "ge" && kFused.count(n.op_type()) != 0;
}

std::string Impl(const ir::Node& n) { return n.attrs().GetString(kKernelImplAttr, ""); }

bool OnReference(const std::string& impl) {
  return impl == "ref" || impl.rfind("ref.", 0) == 0 || impl.find(":ref") != std::string::npos ||
         impl.find("(ref") != std::string::npos;
}

std::string PlacementText(const ValuePlacement& p) {
  return p.segment + " @ " + std::to_string(p.offset) + ", " + std::to_string(p.size) + " bytes";
}

}  // namespace

std::string GraphToDot(const ir::Graph& graph, const GraphPictureInfo& info) {
  std::ostringstream os;
  const std::string title = info.title.empty() ? graph.name() : info.title;
  os << "digraph \"" << Esc(title) << "\" {\n"
     << "  graph [rankdir=TB, label=\"" << Esc(title) << "\", labelloc=t, fontname=\"Helvetica\"];\n"
     << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  // Ids are generated ("n3", "in0", "out1"): only labels and tooltips carry names, escaped.
  const std::vector<ir::Node*> nodes = graph.nodes();
  std::map<const ir::Node*, std::string> node_id;
  for (size_t i = 0; i < nodes.size(); ++i) node_id[nodes[i]] = "n" + std::to_string(i);
  std::map<const ir::Value*, std::string> input_id;
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    const ir::Value* v = graph.inputs()[i];
    input_id[v] = "in" + std::to_string(i);
    os << "  in" << i << " [shape=ellipse, style=filled, fillcolor=\"#ffffff\", label=\"input " << Esc(v->name())
       << "\\n"
       << Esc(v->desc().ToString()) << "\"];\n";
  }
  auto placement_of = [&info](const ir::Value* v) -> const ValuePlacement* {
    auto it = info.placements.find(v);
    return it == info.placements.end() ? nullptr : &it->second;
  };
  std::set<std::string> engines;
  bool any_layout = false, any_fused = false, any_reference = false;
  for (const ir::Node* n : nodes) {
    const std::string impl = Impl(*n);
    engines.insert(n->engine());
    int constants = 0;
    for (const ir::Value* in : n->inputs()) constants += in != nullptr && in->is_constant() ? 1 : 0;
    std::string label = n->op_type() + "\n" + n->name();
    if (!impl.empty()) label += "\n" + impl;
    if (constants > 0) label += "\n+" + std::to_string(constants) + (constants == 1 ? " constant" : " constants");
    if (!n->subgraphs().empty()) label += "\n(" + std::to_string(n->subgraphs().size()) + " subgraphs)";
    std::string tooltip = n->op_type() + " " + n->name() + "\nengine: " + (n->engine().empty() ? "none" : n->engine());
    if (!impl.empty()) tooltip += "\nimplementation: " + impl;
    auto stream = info.streams.find(n);
    if (stream != info.streams.end()) tooltip += "\nstream " + std::to_string(stream->second);
    for (const ir::Value* out : n->outputs()) {
      if (out == nullptr) continue;
      tooltip += "\nout " + out->name() + ": " + out->desc().ToString();
      if (const ValuePlacement* p = placement_of(out)) tooltip += ", " + PlacementText(*p);
    }
    std::string style = "rounded,filled";
    const bool layout = IsLayoutChange(*n), fused = IsFused(*n), reference = OnReference(impl);
    if (reference) style += ",dashed";
    any_layout = any_layout || layout;
    any_fused = any_fused || fused;
    any_reference = any_reference || reference;
    os << "  " << node_id[n] << " [label=\"" << Esc(label) << "\", tooltip=\"" << Esc(tooltip) << "\", fillcolor=\""
       << FillFor(n->engine()) << "\", style=\"" << style << "\"";
    if (layout) os << ", shape=hexagon, penwidth=2";
    if (fused) os << ", peripheries=2";
    os << "];\n";
  }
  auto edge = [&](const std::string& from, const ir::Value* v, const std::string& to) {
    std::string tooltip = v->name() + ": " + v->desc().ToString();
    if (const ValuePlacement* p = placement_of(v)) tooltip += "\n" + PlacementText(*p);
    os << "  " << from << " -> " << to << " [label=\"" << Esc(v->desc().ToString()) << "\", tooltip=\"" << Esc(tooltip)
       << "\"];\n";
  };
  auto source_of = [&](const ir::Value* v) -> std::string {
    if (v->producer() != nullptr && node_id.count(v->producer())) return node_id[v->producer()];
    auto it = input_id.find(v);
    return it != input_id.end() ? it->second : "";
  };
  for (const ir::Node* n : nodes) {
    for (const ir::Value* in : n->inputs()) {
      if (in == nullptr || in->is_constant()) continue;
      const std::string from = source_of(in);
      if (!from.empty()) edge(from, in, node_id[n]);
    }
    for (const ir::Node* c : n->control_inputs()) {
      if (node_id.count(c))
        os << "  " << node_id[c] << " -> " << node_id[n] << " [style=dashed, tooltip=\"control\"];\n";
    }
  }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const ir::Value* v = graph.outputs()[i];
    if (v == nullptr) continue;
    os << "  out" << i << " [shape=ellipse, style=filled, fillcolor=\"#ffffff\", label=\"output " << Esc(v->name())
       << "\"];\n";
    const std::string from = source_of(v);
    if (!from.empty()) edge(from, v, "out" + std::to_string(i));
  }
  // The legend: the engines present, then the shapes used.
  os << "  subgraph cluster_legend {\n    label=\"legend\"; fontsize=10; style=dashed;\n";
  int k = 0;
  for (const std::string& e : engines) {
    const char* what = "other engine";
    for (const EngineStyle& s : kEngineStyles) {
      if (e == s.engine) what = s.what;
    }
    os << "    legend" << k++ << " [label=\"" << Esc(e.empty() ? "(none)" : e) << ": " << what << "\", fillcolor=\""
       << FillFor(e) << "\"];\n";
  }
  if (any_layout) os << "    legend" << k++ << " [label=\"layout change (TransData)\", shape=hexagon, penwidth=2, fillcolor=\"#ffffff\"];\n";
  if (any_fused) os << "    legend" << k++ << " [label=\"fused op\", peripheries=2, fillcolor=\"#ffffff\"];\n";
  if (any_reference) os << "    legend" << k++ << " [label=\"reference implementation\", style=\"rounded,dashed\"];\n";
  for (int i = 1; i < k; ++i) os << "    legend" << i - 1 << " -> legend" << i << " [style=invis];\n";
  os << "  }\n}\n";
  return os.str();
}

namespace {

const char* SegmentName(int segment) {
  switch (segment) {
    case proto::SEG_FEATURE_MAP:
      return "feature map";
    case proto::SEG_CONSTANT:
      return "constant";
    case proto::SEG_INPUT:
      return "graph input";
    case proto::SEG_OUTPUT:
      return "graph output";
    case proto::SEG_VARIABLE:
      return "variable";
    case proto::SEG_FILE_CONSTANT:
      return "file constant";
    default:
      return "none";
  }
}

}  // namespace

StatusOr<std::string> OmGraphToDot(const std::string& om_path) {
  om::VerifyOptions vo;
  vo.check_isa = false;  // a model built for another CPU can be drawn
  GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader, om::OmReader::Open(om_path, vo));
  GraphPictureInfo info;
  info.title = reader->header().name + " (" + om_path + ")";
  if (reader->header().model_type != om::OmModelType::kStandard) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, om::ReadIrOm(*reader));
    if (model->graph == nullptr) return DataLoss(om_path + ": the IR model has no graph");
    info.title += ", runtime v2";
    return GraphToDot(*model->graph, info);
  }
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  const om::ByteSpan d = reader->partition(om::PartitionType::kModelDef);
  const om::ByteSpan t = reader->partition(om::PartitionType::kTaskInfo);
  if (!def.ParseFromArray(d.data, static_cast<int>(d.size)) ||
      !tasks.ParseFromArray(t.data, static_cast<int>(t.size))) {
    return DataLoss(om_path + ": MODEL_DEF or TASK_INFO does not parse");
  }
  auto weights = reader->weights();
  auto model = om::ModelFromProto(def.ir(), weights.get());
  if (!model.ok()) return model.status().WithContext(om_path + ": MODEL_DEF");
  if ((*model)->graph == nullptr) return DataLoss(om_path + ": MODEL_DEF has no graph");
  const ir::Graph& g = *(*model)->graph;
  const std::vector<ir::Value*> values = g.values();
  for (const proto::PlacementProto& p : def.placements()) {
    if (p.value() < 0 || static_cast<size_t>(p.value()) >= values.size()) continue;  // the runtime rejects these
    info.placements[values[p.value()]] = ValuePlacement{SegmentName(p.segment()), p.offset(), p.size()};
  }
  const std::vector<ir::Node*> nodes = g.nodes();
  for (const proto::TaskDefProto& task : tasks.tasks()) {
    if (task.type() == proto::TaskDefProto::KERNEL && task.node() >= 0 &&
        static_cast<size_t>(task.node()) < nodes.size()) {
      info.streams[nodes[task.node()]] = task.stream();
    }
  }
  info.title += ", sink runtime: " + std::to_string(def.num_streams()) + " stream(s), feature map " +
                std::to_string(def.memory().feature_map_bytes()) + " bytes";
  return GraphToDot(g, info);
}

std::string FindDotProgram() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/dot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

namespace {

std::string Extension(const std::string& path) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

Status WriteText(const std::string& text, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return InvalidArgument("cannot write '" + path + "': " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) return Internal("writing '" + path + "' failed");
  return Status::Ok();
}

// Runs `dot_program -T<format> -o <out> <in>` and waits; its stderr goes to ours.
Status RunDot(const std::string& dot_program, const std::string& format, const std::string& in,
              const std::string& out) {
  const std::string t = "-T" + format, o = "-o" + out;
  std::vector<char*> argv = {const_cast<char*>(dot_program.c_str()), const_cast<char*>(t.c_str()),
                             const_cast<char*>(o.c_str()), const_cast<char*>(in.c_str()), nullptr};
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, dot_program.c_str(), nullptr, nullptr, argv.data(), environ);
  if (err != 0) return Internal("cannot run " + dot_program + ": " + std::strerror(err));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Internal("waiting for " + dot_program + ": " + std::strerror(errno));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Internal(dot_program + " " + t + " failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
  }
  return Status::Ok();
}

}  // namespace

bool IsGraphPicturePath(const std::string& path) {
  const std::string ext = Extension(path);
  return ext == "svg" || ext == "png" || ext == "pdf" || ext == "dot" || ext == "gv";
}

Status DrawGraph(const std::string& om_path, const ir::Graph* graph, const std::string& path, const char* who) {
  std::string dot;
  if (!om_path.empty()) {
    GE_ASSIGN_OR_RETURN(dot, OmGraphToDot(om_path));
  } else if (graph != nullptr) {
    dot = GraphToDot(*graph);
  } else {
    return InvalidArgument("no graph to draw");
  }
  GE_ASSIGN_OR_RETURN(PictureWritten written, WriteGraphPicture(dot, path, FindDotProgram()));
  if (!written.note.empty()) std::fprintf(stderr, "%s: %s\n", who, written.note.c_str());
  return Status::Ok();
}

StatusOr<PictureWritten> WriteGraphPicture(const std::string& dot, const std::string& path,
                                           const std::string& dot_program) {
  const std::string ext = Extension(path);
  if (ext == "dot" || ext == "gv") {
    GE_RETURN_IF_ERROR(WriteText(dot, path));
    return PictureWritten{path, ""};
  }
  if (ext != "svg" && ext != "png" && ext != "pdf") {
    return InvalidArgument("'" + path + "': a graph picture is .svg, .png, .pdf (rendered by Graphviz) or .dot");
  }
  const std::string dot_path = path.substr(0, path.size() - ext.size()) + "dot";
  if (dot_program.empty()) {
    GE_RETURN_IF_ERROR(WriteText(dot, dot_path));
    return PictureWritten{dot_path, "Graphviz's dot is not installed (Debian package graphviz): wrote " + dot_path +
                                        " instead; render it with dot -T" + ext + " " + dot_path + " -o " + path};
  }
  // dot reads the text from a file beside the picture, removed afterwards.
  const std::string tmp = path + ".tmp.dot";
  GE_RETURN_IF_ERROR(WriteText(dot, tmp));
  Status s = RunDot(dot_program, ext, tmp, path);
  std::remove(tmp.c_str());
  if (!s.ok()) return s.WithContext("rendering " + path);
  return PictureWritten{path, ""};
}

}  // namespace ge::cli
