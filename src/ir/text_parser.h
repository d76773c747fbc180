// Reads the text form that DumpText writes back into a Graph, so compiler passes can be tested on small graphs
// written by hand: parse, run one pass, compare DumpText with the expected text. ParseGraphText(DumpText(g))
// dumps exactly as g does.
//
//   model    := { 'ir_version' INT | 'producer' STRING | 'opset' STRING INT } graph
//   graph    := 'graph' NAME '(' [def {',' def}] ')' '{' {stmt} 'return' [ref {',' ref}] '}'
//   stmt     := 'const' def '=' (body | tensor)         # body alone when def's desc gives dtype and dims
//             | 'capture' def                           # a value of an enclosing graph, by name
//             | NAME ':' [def {',' def}] '=' [NAME '::'] NAME '(' [ref {',' ref}] ')'
//                   ['{' [NAME '=' attr {',' NAME '=' attr}] '}'] ['@' ENGINE] {'^' NODE}
//             | NAME '=' graph                          # a subgraph of the node just above
//   def      := '%' NAME [':' desc] | '_'               # '_': an omitted optional output
//   ref      := '%' NAME | '_'                          # '_': an omitted optional input
//   desc     := '?' | 'seq' '(' tdesc ')' | 'optional' '(' (tdesc | 'seq' '(' tdesc ')') ')' | tdesc
//   tdesc    := DTYPE shape ['@' FORMAT]                # float32[batch,?,3]@NCHW
//   shape    := '[' '*' ']' | '[' [dim {',' dim}] ']'   # dim: INT, '?' or a symbol (word or string)
//   tensor   := DTYPE '[' [INT {',' INT}] ']' body
//   body     := '[' [elem {',' elem}] ']' | '<elided N elements>' | '<null>'
//   elem     := NUMBER | 'true' | 'false' | 'inf' | 'nan' | STRING | '(' NUMBER ',' NUMBER ')'   # complex
//   attr     := INT | FLOAT | STRING | tensor | '[' ... ']' | 'ints[]' | 'floats[]' | 'strings[]' | 'tensors[]'
//             | '<graph>' | '<graphs>' | '<undefined>'  # a list holds ints, floats (any element with '.', 'e',
//                                                       # inf or nan), strings or tensors
// NAME is a word (letters, digits, _ . $ / + -) or a "quoted string" (\" \\ \n \t \r \xHH); '#' starts a comment.
// A node output omits `: desc` when nothing is known about it. Values may be used before the line defining them;
// a name a subgraph does not define resolves to a value of an enclosing graph and becomes a capture. A subgraph
// also sets a graph-typed attribute of its name on its node (as the ONNX importer does). `<elided N elements>`
// reads back as N zeros: texts that do not care about weights may elide them.
// Errors say "line L, column C: " and what was expected.
#pragma once
#include <memory>
#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::ir {

StatusOr<std::unique_ptr<Graph>> ParseGraphText(const std::string& text);
StatusOr<std::unique_ptr<Model>> ParseModelText(const std::string& text);

}  // namespace ge::ir
