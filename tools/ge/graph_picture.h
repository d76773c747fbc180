// Pictures of a compiled graph (`ge inspect M.om --graph=FILE.svg`, `ge compile --dump_graph=FILE.svg`): Graphviz
// DOT written here, rendered by Graphviz's `dot` program when it is installed.
//
// The drawing: one box per node of the root graph (op type, name, kernel implementation), filled with the colour
// of its engine (a legend lists the engines present); TransData and other layout changes are hexagons, fused ops
// (ge's FusedConv, Attention, ...) have a double border, nodes on a reference implementation a dashed one. Edges
// carry the tensor's dtype, shape and layout ("float32[1,64,56,56]@NHWC"); constants (weights) are not drawn but
// counted in their consumer's label. Hovering (SVG tooltips) shows a node's engine, implementation, stream and
// the memory-plan placement (segment, offset, bytes) of each output, and an edge's value name and placement.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::cli {

// Where a value lives in a compiled model (om/model_def.proto PlacementProto).
struct ValuePlacement {
  std::string segment;  // "feature map", "constant", "graph input", "graph output", "variable", "file constant"
  uint64_t offset = 0, size = 0;
};

struct GraphPictureInfo {
  std::string title;                                      // the graph label; default: the graph's name
  std::map<const ir::Value*, ValuePlacement> placements;  // compiled models; empty: no memory plan shown
  std::map<const ir::Node*, int> streams;                 // compiled models: the stream of each node's tasks
};

// The DOT text of |graph| (its root level; subgraphs are noted on their owner).
std::string GraphToDot(const ir::Graph& graph, const GraphPictureInfo& info = {});

// The root graph of the .om at |om_path| as DOT: a compiled model with its memory plan and streams, an IR one as
// compiled (runtime v2 lowers it at load).
StatusOr<std::string> OmGraphToDot(const std::string& om_path);

// Writes |dot| to |path| by its extension: .dot or .gv as text; .svg, .png or .pdf rendered by |dot_program| (the
// path of Graphviz's dot). When |dot_program| is empty the DOT text goes to |path| with its extension replaced by
// .dot. Returns the file written and, when it is not |path|, why ("graphviz's dot is not installed ...").
struct PictureWritten {
  std::string path;
  std::string note;  // empty when |path| is what was asked for
};
StatusOr<PictureWritten> WriteGraphPicture(const std::string& dot, const std::string& path,
                                           const std::string& dot_program);
// The path of `dot` on $PATH, or "".
std::string FindDotProgram();

// Whether |path| names a picture by its extension (.svg, .png, .pdf, .dot, .gv).
bool IsGraphPicturePath(const std::string& path);
// The CLI's --graph / --dump_graph: draws the .om at |om_path| (or, when it is empty, |graph| without a memory plan)
// to |path| with the dot found on $PATH, and says on stderr (prefixed by |who|) where a .dot went instead.
Status DrawGraph(const std::string& om_path, const ir::Graph* graph, const std::string& path, const char* who);

}  // namespace ge::cli
