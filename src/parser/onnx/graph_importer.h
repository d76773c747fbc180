// GraphProto → ir::Graph, shared by the main graph, nested subgraphs and the training graphs. Internal to the
// ONNX parser.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "ir/graph.h"
#include "parser/onnx/onnx_parser.h"

namespace onnx {
class AttributeProto;
class GraphProto;
class NodeProto;
}  // namespace onnx

namespace ge::onnx_parser {

// Looks up a value that lives outside every graph being imported (for a training graph: a value of the main
// graph). Its desc; nullopt when there is no such value.
using OuterValueLookup = std::function<StatusOr<std::optional<TensorDesc>>(const std::string& name)>;

class GraphImporter {
 public:
  // A graph may read `outer_values` as captures (each one also becomes a capture of the outermost graph being
  // imported). Without it, every name must be defined by the graph or an enclosing one.
  explicit GraphImporter(const ParseOptions& options, OuterValueLookup outer_values = nullptr)
      : options_(options), outer_values_(std::move(outer_values)) {}

  // The name the imported graph gets ("graph" when the proto has none); errors call it "graph 'NAME'".
  static std::string GraphName(const onnx::GraphProto& gp);

  // scopes: enclosing graphs, outermost first (empty for a root graph).
  StatusOr<std::unique_ptr<ir::Graph>> Import(const onnx::GraphProto& gp, std::vector<ir::Graph*> scopes, int depth);

 private:
  static std::string NodeName(const onnx::NodeProto& np, int index);
  // The value `name` denotes inside scopes.back(), capturing it from an enclosing graph or the outer values
  // when needed; nullptr when nothing defines it.
  StatusOr<ir::Value*> Resolve(const std::string& name, const std::vector<ir::Graph*>& scopes);
  static ir::Value* FindInScopes(const std::string& name, const std::vector<ir::Graph*>& scopes);
  // Adds `name` to the outermost scope as a capture of an outer value; false when there is no such value.
  StatusOr<bool> CaptureOuterValue(const std::string& name, ir::Graph* outermost);
  Status ImportAttribute(const onnx::AttributeProto& ap, ir::Node* node, const std::vector<ir::Graph*>& scopes,
                         int depth, const std::string& where);

  const ParseOptions& options_;
  OuterValueLookup outer_values_;
};

}  // namespace ge::onnx_parser
