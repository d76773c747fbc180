// CommonSubexpressionElimination: identical constants (same dtype, dims and bytes) become one; then, in
// topological order, a deterministic node with the same op, domain, attributes, inputs and control inputs as an
// earlier one is replaced by it. Graph outputs keep their names: the survivor is the node whose outputs are graph
// outputs, and two nodes that both produce graph outputs are left alone.
#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "ir/dump.h"

namespace ge::compiler {
namespace {

bool SameTensor(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.dims() != b.dims()) return false;
  if (a.dtype() == DataType::kString) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.data<std::string>()[i] != b.data<std::string>()[i]) return false;
    return true;
  }
  return a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

std::string NodeKey(const ir::Node& n) {
  std::string key = n.domain() + "::" + n.op_type() + "|" + std::to_string(n.num_outputs()) + "|";
  for (const auto& [name, attr] : n.attrs().all()) key += name + "=" + ir::AttrText(attr) + ";";
  key += "|";
  for (const ir::Value* in : n.inputs()) key += std::to_string(reinterpret_cast<uintptr_t>(in)) + ",";
  key += "|";
  std::set<const ir::Node*> ctl(n.control_inputs().begin(), n.control_inputs().end());
  for (const ir::Node* c : ctl) key += std::to_string(reinterpret_cast<uintptr_t>(c)) + ",";
  for (const ir::Value* o : n.outputs()) key += o ? "o" : "_";
  return key;
}

bool ProducesGraphOutput(const ir::Graph& g, const ir::Node& n) {
  for (const ir::Value* o : n.outputs())
    if (o && g.IsGraphOutput(o)) return true;
  return false;
}

bool OutputCaptured(const ir::Node& n, const std::set<std::string>& captured) {
  for (const ir::Value* o : n.outputs())
    if (o && captured.count(o->name())) return true;
  return false;
}

class CsePass : public GraphLevelPass {
 public:
  const char* name() const override { return "CommonSubexpressionElimination"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    std::set<std::string> captured = CapturedNames(g);
    bool changed = MergeConstants(g, captured);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::map<std::string, ir::Node*> seen;
    for (ir::Node* n : order) {
      if (!n->subgraphs().empty() || IsNondeterministic(*n, ctx)) continue;
      std::string key = NodeKey(*n);
      auto it = seen.find(key);
      if (it == seen.end()) {
        seen.emplace(key, n);
        continue;
      }
      ir::Node* keep = it->second;
      ir::Node* drop = n;
      if (OutputCaptured(*drop, captured) || OutputCaptured(*keep, captured)) continue;
      if (ProducesGraphOutput(g, *drop)) {
        if (ProducesGraphOutput(g, *keep)) continue;
        std::swap(keep, drop);
        it->second = keep;
      }
      for (int i = 0; i < drop->num_outputs(); ++i)
        if (drop->output(i)) g.ReplaceAllUses(drop->output(i), keep->output(i));
      for (ir::Node* other : g.nodes()) {
        const auto& ci = other->control_inputs();
        if (std::find(ci.begin(), ci.end(), drop) != ci.end()) other->AddControlInput(keep);
      }
      g.RemoveNode(drop);
      changed = true;
    }
    if (changed) RemoveDeadValuesKeepingCaptured(g);
    return changed;
  }

 private:
  static bool MergeConstants(ir::Graph& g, const std::set<std::string>& captured) {
    std::map<std::string, std::vector<ir::Value*>> kept;  // desc + content hash -> distinct constants
    bool changed = false;
    for (ir::Value* c : g.constants()) {
      if (c->is_graph_input() || captured.count(c->name())) continue;
      const Tensor& t = *c->const_value();
      size_t hash = 0;
      if (t.dtype() == DataType::kString) {
        for (int64_t i = 0; i < t.numel(); ++i) hash = hash * 31 + std::hash<std::string>()(t.data<std::string>()[i]);
      } else {
        hash = std::hash<std::string_view>()(std::string_view(static_cast<const char*>(t.raw_data()), t.nbytes()));
      }
      auto& bucket = kept[ir::DescText(c->desc()) + "#" + std::to_string(hash)];
      ir::Value* same = nullptr;
      for (ir::Value* k : bucket) {
        if (SameTensor(*k->const_value(), t)) {
          same = k;
          break;
        }
      }
      if (!same) {
        bucket.push_back(c);
        continue;
      }
      if (g.IsGraphOutput(c) || c->uses().empty()) continue;
      g.ReplaceAllUses(c, same);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateCommonSubexpressionEliminationPass() { return std::make_unique<CsePass>(); }

}  // namespace ge::compiler
