// FileConstantPrepare (seed 000 "FileConstant 外置权重"): a ge::FileConstant node of the input graph (built in code
// or read from IR text) becomes a constant whose bytes are the file's, mapped (om::WeightFileCache) rather than
// copied, and whose ir::Value::const_source says where they lie: the model is planned with it like any weight, and
// ExternalWeights turns it back into a FileConstant reading the same file in place (by file_id again when the node
// named its file by id), so the loaded model maps it once per process and runs no task for it. The file must be
// readable when compiling: file_path (relative to the current directory), or file_id resolved through
// ge.exec.value_bins.
#include <filesystem>
#include <system_error>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "om/value_bins.h"
#include "om/weight_file.h"
#include "om/weight_file_cache.h"

namespace ge::compiler {
namespace {

class FileConstantPreparePass : public GraphPass {
 public:
  const char* name() const override { return "FileConstantPrepare"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    ir::Graph& g = *model.graph;
    std::map<std::string, std::string> bins;
    const std::string json = ctx.Option("ge.exec.value_bins", "");
    if (!json.empty()) {
      GE_ASSIGN_OR_RETURN(bins, om::ParseValueBins(json));
    }
    bool changed = false;
    for (ir::Node* n : g.nodes()) {
      if (!ops::IsOp(*n, OpId::kGeFileConstant) || n->num_outputs() != 1 || n->output(0) == nullptr) continue;
      const std::string what = "FileConstant '" + n->name() + "'";
      GE_ASSIGN_OR_RETURN(om::FileConstantRef ref, om::ReadFileConstantRef(*n));
      std::string path = ref.file_path;
      if (path.empty()) {
        auto bin = bins.find(ref.file_id);
        if (bin == bins.end()) {
          return NotFound(what + " reads file_id '" + ref.file_id + "', which option ge.exec.value_bins does not "
                          "name (the compiler needs the file to plan the constant)");
        }
        path = bin->second;
      }
      std::error_code ec;
      const std::string abs = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec).string();
      if (ec) return InvalidArgument(what + ": file '" + path + "': " + ec.message());
      auto file = om::WeightFileCache::Global().Open(abs);
      if (!file.ok()) return file.status().WithContext(what);
      GE_ASSIGN_OR_RETURN(Tensor t, (*file)->Read(ref, what));
      ir::Value* v = n->output(0);
      const TensorDesc& d = v->desc();
      if (d.shape.IsFullyKnown() && (d.dtype != ref.dtype || d.shape.dims() != ref.dims)) {
        return InvalidArgument(what + " reads a " + std::string(DataTypeName(ref.dtype)) + DimsToString(ref.dims) +
                               " tensor, but its output is declared " + d.ToString());
      }
      g.RemoveNode(n);
      v->set_const_value(std::move(t));
      v->desc() = TensorDesc(ref.dtype, Shape(ref.dims));
      v->set_const_source(ir::ConstSource{abs, ref.offset, ref.length, ref.file_id});
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateFileConstantPreparePass() { return std::make_unique<FileConstantPreparePass>(); }

}  // namespace ge::compiler
