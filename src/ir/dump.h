// Stable text and Graphviz DOT dumps of a Graph. The text form lists nodes in topological order (ties broken by
// creation order) so the same graph always prints the same text: compiler pass tests compare against it.
// ParseGraphText (text_parser.h) reads the text form back; text_parser.h has the grammar.
#pragma once
#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace ge::ir {

struct DumpOptions {
  // Tensors (constants and tensor attributes) with more elements print as `<elided N elements>`; -1 prints all.
  int64_t max_tensor_elements = -1;
};

//   graph NAME(%in: float32[batch,3]) {
//     const %w: float32[3] = [1, 2.5, -3]
//     capture %outer: float32[2]
//     NODE_NAME: %out: float32[batch,3], %aux = com.x::OpType(%in, %w, _) {alpha=0.5, axes=[0,1]} @dnnl ^ctl_dep
//       body = graph body_graph(%i: int64[]) {
//         ...
//         return %r
//       }
//     return %out
//   }
std::string DumpText(const Graph& g, const DumpOptions& options = {});
// Header lines (`ir_version 8`, `producer "x"`, `opset "" 17`, ...) then the graph.
std::string DumpModelText(const Model& m, const DumpOptions& options = {});
std::string DumpDot(const Graph& g);

// Pieces of the text form, for messages and tests.
std::string DescText(const TensorDesc& d);  // "float32[batch,?,3]", "seq(float32[*])", "?" (unknown kind)
std::string AttrText(const AttrValue& a, const DumpOptions& options = {});
std::string TensorText(const Tensor& t, const DumpOptions& options = {});  // "float32[2] [1, 2]"

}  // namespace ge::ir
