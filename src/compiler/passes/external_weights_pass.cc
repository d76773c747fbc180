// ExternalWeights: constants leave the model for files. A root-graph constant whose bytes lie unchanged in a file
// the model came with (ONNX external data, ir::Value::const_source) becomes the output of a ge::FileConstant node
// (no inputs; attributes in om/weight_file.h) reading them in place, with their CRC32C so a changed file is caught
// at load. With ge.externalWeight=1|2 each other constant of at least ExternalWeightsOptions::min_bytes that a node
// or a graph output reads becomes one whose bytes go to files the pass writes (om/weight_file_writer.h). The value itself stays (same name, same desc: a prepacked weight keeps its format and
// its readers keep their packed_* attributes), so the loader, once it has mapped the bytes, prepares every kernel
// exactly as with the embedded constant. The graph changes only after every file is written.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "om/checksum.h"
#include "om/weight_file.h"
#include "om/weight_file_writer.h"

namespace ge::compiler {
namespace {

namespace fs = std::filesystem;

// Constants whose tensor is what their desc says (a FileConstant's attributes describe the tensor; the loader
// checks them against the desc).
bool Externalizable(const ir::Graph& g, const ir::Value& v, uint64_t min_bytes) {
  if (!v.is_constant() || v.producer() != nullptr || v.is_graph_input() || v.is_capture()) return false;
  const Tensor& t = *v.const_value();
  if (!t.valid() || t.dtype() == DataType::kString || t.nbytes() == 0 || t.nbytes() < min_bytes) return false;
  if (v.desc().dtype != t.dtype() || v.desc().shape.unknown_rank() || v.desc().shape.dims() != t.dims()) return false;
  return !v.uses().empty() || g.IsGraphOutput(&v);
}

class ExternalWeightsPass : public GraphPass {
 public:
  ExternalWeightsPass(ExternalWeightsOptions options, ExternalWeightsReport* report)
      : options_(std::move(options)), report_(report) {}
  const char* name() const override { return "ExternalWeights"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext&) override {
    ExternalWeightsReport local;
    ExternalWeightsReport& r = report_ != nullptr ? *report_ : local;
    r = ExternalWeightsReport();
    r.directory = options_.directory;
    ir::Graph& g = *model.graph;
    std::vector<ir::Value*> sourced, chosen;
    for (ir::Value* v : g.values()) {
      if (!options_.embed_sources && v->const_source() != nullptr && Externalizable(g, *v, 1) &&
          v->const_source()->length == v->const_value()->nbytes()) {
        sourced.push_back(v);
      } else if (options_.mode != 0 && Externalizable(g, *v, options_.min_bytes)) {
        chosen.push_back(v);
      }
    }
    if (sourced.empty() && chosen.empty()) return false;

    std::vector<om::FileConstantRef> refs;
    for (ir::Value* v : sourced) {
      const Tensor& t = *v->const_value();
      const ir::ConstSource& src = *v->const_source();
      om::FileConstantRef ref;
      ref.dtype = t.dtype();
      ref.dims = t.dims();
      if (src.file_id.empty()) {
        ref.file_path = RecordedPath(src.path);
      } else {
        ref.file_id = src.file_id;  // the loader resolves it through its own ge.exec.value_bins
      }
      ref.offset = src.offset;
      ref.length = src.length;
      ref.crc32c = om::Crc32c(0, t.raw_data(), t.nbytes());
      refs.push_back(std::move(ref));
      r.source_bytes += src.length;
      if (std::find(r.source_files.begin(), r.source_files.end(), src.path) == r.source_files.end()) {
        r.source_files.push_back(src.path);
      }
    }
    r.source_tensors = static_cast<int>(sourced.size());
    if (!chosen.empty()) GE_RETURN_IF_ERROR(WriteWeightFiles(chosen, &refs, &r));

    std::vector<ir::Value*> all = sourced;
    all.insert(all.end(), chosen.begin(), chosen.end());
    for (size_t i = 0; i < all.size(); ++i) {
      ir::Value* v = all[i];
      r.bytes += refs[i].length;
      v->clear_const_value();
      ir::Node* n = g.AddNode(ops::OpName(OpId::kGeFileConstant), v->name() + "_file_constant", {}, {v},
                              ops::OpDomain(OpId::kGeFileConstant));
      om::WriteFileConstantRef(refs[i], &n->attrs());
    }
    model.opsets.emplace(ops::OpDomain(OpId::kGeFileConstant), 1);
    r.tensors = static_cast<int>(all.size());
    return true;
  }

 private:
  // A source file's path as a FileConstant records it: relative to the .om's directory when the file lies below
  // it (the two can move together), else absolute.
  std::string RecordedPath(const std::string& path) const {
    if (options_.om_dir.empty()) return path;
    const std::string rel = fs::path(path).lexically_relative(options_.om_dir).string();
    if (rel.empty() || rel == "." || rel.compare(0, 2, "..") == 0) return path;
    return rel;
  }

  // Writes |chosen|'s bytes to the weight files of ge.externalWeight and appends their references to |refs|.
  Status WriteWeightFiles(const std::vector<ir::Value*>& chosen, std::vector<om::FileConstantRef>* refs,
                          ExternalWeightsReport* r) {
    std::error_code ec;
    fs::create_directories(options_.directory, ec);
    if (ec || !fs::is_directory(options_.directory)) {
      return InvalidArgument("external weight directory '" + options_.directory + "' cannot be created" +
                             (ec ? ": " + ec.message() : std::string(" (a file of that name exists)")));
    }
    const auto mode = options_.mode == 1 ? om::WeightFileWriter::Mode::kPerTensor
                                         : om::WeightFileWriter::Mode::kCombined;
    GE_ASSIGN_OR_RETURN(std::unique_ptr<om::WeightFileWriter> writer,
                        om::WeightFileWriter::Create(options_.directory, mode, options_.combined_file_name));
    for (ir::Value* v : chosen) {
      const Tensor& t = *v->const_value();
      auto placed = writer->Add(t);
      if (!placed.ok()) return placed.status().WithContext("constant '" + v->name() + "'");
      om::FileConstantRef ref;
      ref.dtype = t.dtype();
      ref.dims = t.dims();
      ref.file_path = options_.recorded_directory.empty() ? placed->file
                                                          : options_.recorded_directory + "/" + placed->file;
      ref.offset = placed->offset;
      ref.length = t.nbytes();
      ref.crc32c = placed->crc32c;
      refs->push_back(std::move(ref));
    }
    GE_RETURN_IF_ERROR(writer->Finish());
    r->bytes_written = writer->bytes_written();
    for (const std::string& f : writer->files()) r->files.push_back(options_.directory + "/" + f);
    return Status::Ok();
  }

  ExternalWeightsOptions options_;
  ExternalWeightsReport* report_;
};

// A file-name-safe form of |name| (letters, digits, '.', '_', '-'; others become '_').
std::string SafeFileName(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    out += ok ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") out = "model";
  return out;
}

}  // namespace

StatusOr<ExternalWeightsOptions> ExternalWeightsOptionsFor(const std::map<std::string, std::string>& ge_options,
                                                           const std::string& om_path,
                                                           const std::string& model_name) {
  ExternalWeightsOptions o;
  auto mode = ge_options.find("ge.externalWeight");
  const std::string m = mode == ge_options.end() ? "0" : mode->second;
  if (m != "0" && m != "1" && m != "2") {
    return InvalidArgument("option ge.externalWeight must be 0 (weights in the .om), 1 (a file per weight) or 2 "
                           "(one combined file), got '" + m + "'");
  }
  o.mode = m[0] - '0';
  std::error_code ec;
  if (!om_path.empty()) {
    const fs::path om_dir = fs::weakly_canonical(fs::absolute(om_path).parent_path(), ec);
    if (ec) return InvalidArgument("output path '" + om_path + "': " + ec.message());
    o.om_dir = om_dir.string();
  }
  if (o.mode == 0) return o;
  auto dir = ge_options.find("ge.externalWeightDir");
  std::string directory = dir == ge_options.end() ? "" : dir->second;
  if (directory.empty() && om_path.empty()) {
    return InvalidArgument("ge.externalWeight=" + m + " writes weight files, but this compilation writes no .om "
                           "file to put them next to: set ge.externalWeightDir");
  }
  std::string om_stem;
  if (!om_path.empty()) {
    om_stem = fs::path(om_path).filename().string();
    if (om_stem.size() > 3 && om_stem.compare(om_stem.size() - 3, 3, ".om") == 0) om_stem.resize(om_stem.size() - 3);
  }
  if (directory.empty()) {
    // Next to the .om: M.om -> M.weights/ (M.bin -> M.bin.weights/).
    directory = (fs::path(om_path).parent_path() / (om_stem + ".weights")).string();
  }
  const fs::path abs_dir = fs::weakly_canonical(fs::absolute(directory), ec);
  if (ec) return InvalidArgument("external weight directory '" + directory + "': " + ec.message());
  o.directory = abs_dir.string();
  o.recorded_directory = o.directory;
  if (!om_path.empty()) {
    // Inside the .om's directory: recorded relative to it, so the two can move together.
    const fs::path rel = abs_dir.lexically_relative(o.om_dir);
    const std::string rel_str = rel.string();
    if (!rel_str.empty() && rel_str != "." && rel_str.compare(0, 2, "..") != 0) o.recorded_directory = rel_str;
    if (rel_str == ".") o.recorded_directory = "";
  }
  o.combined_file_name = SafeFileName(om_stem.empty() ? model_name : om_stem) + "_weight_combined";
  return o;
}

std::unique_ptr<GraphPass> CreateExternalWeightsPass(ExternalWeightsOptions options, ExternalWeightsReport* report) {
  return std::make_unique<ExternalWeightsPass>(std::move(options), report);
}

}  // namespace ge::compiler
