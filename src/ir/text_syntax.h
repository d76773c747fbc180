// The IR text form as a syntax tree: what the text says, before names are resolved into a Graph (text_parser.cc
// does that, so values may be used before the line that defines them). The grammar is in text_parser.h.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ir/attribute.h"
#include "ir/graph.h"
#include "ir/text_lexer.h"

namespace ge::ir::text {

struct Loc {
  int line = 0;
  int col = 0;
};

struct DefAst {  // a value a statement defines
  std::string name;
  Loc loc;
  TensorDesc desc;
  bool has_desc = false;
  bool omitted = false;  // '_'
};

struct RefAst {  // a value (or, after '^', a node) a statement uses
  std::string name;
  Loc loc;
  bool omitted = false;  // '_'
};

struct ConstAst {
  DefAst def;
  Tensor value;
};

struct GraphAst;

struct NodeAst {
  std::string name;
  Loc loc;
  std::vector<DefAst> outputs;
  std::string domain, op_type;
  std::vector<RefAst> inputs;
  AttrMap attrs;
  std::string engine;
  std::vector<RefAst> control;
  std::vector<std::pair<std::string, std::unique_ptr<GraphAst>>> subgraphs;
};

struct GraphAst {
  std::string name;
  Loc loc;
  std::vector<DefAst> inputs;
  std::vector<ConstAst> consts;
  std::vector<DefAst> captures;
  std::vector<NodeAst> nodes;
  std::vector<RefAst> outputs;
};

class SyntaxParser {
 public:
  explicit SyntaxParser(std::vector<Token> tokens) : t_(std::move(tokens)) {}
  // Model header lines (ir_version, producer, opset) into m; the graph is left to ParseGraph.
  Status ParseHeader(Model* m);
  StatusOr<std::unique_ptr<GraphAst>> ParseGraph(int depth = 0);
  Status ExpectEnd() const;

 private:
  const Token& Peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  const Token& Next();
  bool IsPunct(const char* s, size_t k = 0) const;
  bool IsWord(const char* s, size_t k = 0) const;
  bool IsName(size_t k = 0) const;
  bool Accept(const char* punct);
  Status Expected(const std::string& what) const;
  Status Expect(const char* punct, const std::string& context);
  StatusOr<std::string> ParseName(const std::string& what);
  StatusOr<int64_t> ParseInt(const std::string& what);
  StatusOr<DataType> ParseDataType();
  StatusOr<Shape> ParseShape();
  StatusOr<TensorDesc> ParseDesc();
  StatusOr<DefAst> ParseDef(bool allow_omitted);
  StatusOr<RefAst> ParseRef();
  StatusOr<Tensor> ParseTypedTensor();
  StatusOr<Tensor> ParseBody(DataType dt, const Dims& dims, const Token& where);
  Status ParseElement(Tensor* t, int64_t i);
  StatusOr<AttrValue> ParseAttr();
  StatusOr<AttrValue> ParseAttrList();
  Status ParseNode(GraphAst* g);
  Status ParseConst(GraphAst* g);
  Status ParseStatements(GraphAst* g, int depth);

  std::vector<Token> t_;
  size_t p_ = 0;
};

}  // namespace ge::ir::text
