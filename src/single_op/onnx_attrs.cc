#include "single_op/onnx_attrs.h"

#include <onnx/defs/schema.h>

#include <exception>

namespace ge::single_op {
namespace {

using AP = onnx::AttributeProto;
using Kind = AttrValue::Kind;

// The registry fills itself on first use (a thread-safe static) and is only read afterwards. Its look-ups do not
// throw, but its registration could; a failure means "no schema", never an exception across the API.
const onnx::OpSchema* FindSchema(const std::string& domain, const std::string& op_type, int64_t opset) {
  try {
    if (domain.empty()) return onnx::OpSchemaRegistry::Schema(op_type, static_cast<int>(opset), "");
    return onnx::OpSchemaRegistry::Schema(op_type, domain);
  } catch (const std::exception&) {
    return nullptr;
  }
}

const char* OnnxTypeName(AP::AttributeType t) {
  switch (t) {
    case AP::FLOAT: return "a float";
    case AP::INT: return "an int";
    case AP::STRING: return "a string";
    case AP::TENSOR: return "a tensor";
    case AP::FLOATS: return "a list of floats";
    case AP::INTS: return "a list of ints";
    case AP::STRINGS: return "a list of strings";
    case AP::TENSORS: return "a list of tensors";
    case AP::GRAPH: return "a graph";
    case AP::GRAPHS: return "a list of graphs";
    default: return "a type single ops cannot pass";
  }
}

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kInt: return "an int";
    case Kind::kFloat: return "a float";
    case Kind::kString: return "a string";
    case Kind::kTensor: return "a tensor";
    case Kind::kInts: return "a list of ints";
    case Kind::kFloats: return "a list of floats";
    case Kind::kStrings: return "a list of strings";
  }
  return "?";
}

ir::AttrValue AsGiven(const AttrValue& a) {
  switch (a.kind()) {
    case Kind::kInt: return ir::AttrValue::Int(a.i());
    case Kind::kFloat: return ir::AttrValue::Float(a.f());
    case Kind::kString: return ir::AttrValue::String(a.s());
    case Kind::kTensor: return ir::AttrValue::TensorValue(a.t());
    case Kind::kInts: return ir::AttrValue::Ints(a.ints());
    case Kind::kFloats: return ir::AttrValue::Floats(a.floats());
    case Kind::kStrings: return ir::AttrValue::Strings(a.strings());
  }
  return ir::AttrValue();
}

// `a` as the schema's type `want`, widening an int to a float and a single value to a list; false when it is not.
bool Convert(const AttrValue& a, AP::AttributeType want, ir::AttrValue* out) {
  const Kind k = a.kind();
  switch (want) {
    case AP::INT:
      if (k == Kind::kInt) *out = ir::AttrValue::Int(a.i());
      return k == Kind::kInt;
    case AP::FLOAT:
      if (k == Kind::kInt) *out = ir::AttrValue::Float(static_cast<float>(a.i()));
      if (k == Kind::kFloat) *out = ir::AttrValue::Float(a.f());
      return k == Kind::kInt || k == Kind::kFloat;
    case AP::STRING:
      if (k == Kind::kString) *out = ir::AttrValue::String(a.s());
      return k == Kind::kString;
    case AP::TENSOR:
      if (k == Kind::kTensor) *out = ir::AttrValue::TensorValue(a.t());
      return k == Kind::kTensor;
    case AP::INTS:
      if (k == Kind::kInts) *out = ir::AttrValue::Ints(a.ints());
      if (k == Kind::kInt) *out = ir::AttrValue::Ints({a.i()});
      return k == Kind::kInts || k == Kind::kInt;
    case AP::FLOATS: {
      std::vector<float> v;
      if (k == Kind::kFloats) v = a.floats();
      if (k == Kind::kFloat) v = {a.f()};
      if (k == Kind::kInt) v = {static_cast<float>(a.i())};
      if (k == Kind::kInts) {
        for (int64_t x : a.ints()) v.push_back(static_cast<float>(x));
      }
      if (k != Kind::kFloats && k != Kind::kFloat && k != Kind::kInt && k != Kind::kInts) return false;
      *out = ir::AttrValue::Floats(std::move(v));
      return true;
    }
    case AP::STRINGS:
      if (k == Kind::kStrings) *out = ir::AttrValue::Strings(a.strings());
      if (k == Kind::kString) *out = ir::AttrValue::Strings({a.s()});
      return k == Kind::kStrings || k == Kind::kString;
    default:
      return false;
  }
}

std::string AcceptedNames(const onnx::OpSchema& schema) {
  std::string names;
  for (const auto& [name, attr] : schema.attributes()) names += (names.empty() ? "" : ", ") + name;
  return names.empty() ? "none" : names;
}

}  // namespace

StatusOr<ir::AttrMap> CheckAttributes(const std::string& label, const std::string& domain, const std::string& op_type,
                                      int64_t opset, const Attrs& attrs) {
  const onnx::OpSchema* schema = FindSchema(domain, op_type, opset);
  ir::AttrMap out;
  for (const auto& [name, value] : attrs) {
    if (schema == nullptr) {
      out.Set(name, AsGiven(value));
      continue;
    }
    auto it = schema->attributes().find(name);
    if (it == schema->attributes().end()) {
      return InvalidArgument(label + ": no attribute '" + name + "' (ONNX " + op_type + "-" +
                             std::to_string(schema->since_version()) + " accepts: " + AcceptedNames(*schema) + ")");
    }
    ir::AttrValue converted;
    if (!Convert(value, it->second.type, &converted)) {
      return InvalidArgument(label + ": attribute '" + name + "' must be " + OnnxTypeName(it->second.type) + ", got " +
                             KindName(value.kind()));
    }
    out.Set(name, std::move(converted));
  }
  if (schema != nullptr) {
    for (const auto& [name, attr] : schema->attributes()) {
      if (attr.required && (attr.type == AP::GRAPH || attr.type == AP::GRAPHS)) {
        return Unimplemented(label + ": takes subgraphs ('" + name + "'): it runs only inside a model");
      }
      if (attr.required && !out.Has(name)) {
        return InvalidArgument(label + ": attribute '" + name + "' (" + OnnxTypeName(attr.type) + ") is required");
      }
    }
  }
  return out;
}

int RequiredOutputs(const std::string& domain, const std::string& op_type, int64_t opset) {
  const onnx::OpSchema* schema = FindSchema(domain, op_type, opset);
  return schema != nullptr ? schema->min_output() : 0;
}

std::vector<std::string> OutputNames(const std::string& domain, const std::string& op_type, int64_t opset, int n) {
  const onnx::OpSchema* schema = FindSchema(domain, op_type, opset);
  std::vector<std::string> names;
  const auto* formal = schema != nullptr ? &schema->outputs() : nullptr;
  for (int i = 0; i < n; ++i) {
    if (formal == nullptr || formal->empty()) {
      names.push_back("output" + std::to_string(i));
      continue;
    }
    const size_t last = formal->size() - 1;
    const bool variadic_tail = (*formal)[last].GetOption() == onnx::OpSchema::Variadic;
    if (static_cast<size_t>(i) < last || (static_cast<size_t>(i) == last && !variadic_tail)) {
      names.push_back((*formal)[static_cast<size_t>(i)].GetName());
    } else if (variadic_tail) {
      names.push_back((*formal)[last].GetName() + std::to_string(static_cast<size_t>(i) - last));
    } else {
      names.push_back("output" + std::to_string(i));
    }
  }
  return names;
}

}  // namespace ge::single_op
