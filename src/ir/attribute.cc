#include "ir/attribute.h"

#include <sstream>

namespace ge::ir {

const char* AttrTypeName(AttrValue::Type t) {
  switch (t) {
    case AttrValue::Type::kUndefined: return "undefined";
    case AttrValue::Type::kInt: return "int";
    case AttrValue::Type::kFloat: return "float";
    case AttrValue::Type::kString: return "string";
    case AttrValue::Type::kTensor: return "tensor";
    case AttrValue::Type::kInts: return "ints";
    case AttrValue::Type::kFloats: return "floats";
    case AttrValue::Type::kStrings: return "strings";
    case AttrValue::Type::kTensors: return "tensors";
    case AttrValue::Type::kGraph: return "graph";
    case AttrValue::Type::kGraphs: return "graphs";
  }
  return "?";
}

std::string AttrValue::ToString() const {
  std::ostringstream os;
  os.precision(9);
  switch (type) {
    case Type::kUndefined: return "undefined";
    case Type::kInt: os << i; break;
    case Type::kFloat: os << f; break;
    case Type::kString: os << '"' << s << '"'; break;
    case Type::kTensor: os << "tensor(" << t.DebugString() << ")"; break;
    case Type::kInts:
      os << "[";
      for (size_t k = 0; k < ints.size(); ++k) os << (k ? "," : "") << ints[k];
      os << "]";
      break;
    case Type::kFloats:
      os << "[";
      for (size_t k = 0; k < floats.size(); ++k) os << (k ? "," : "") << floats[k];
      os << "]";
      break;
    case Type::kStrings:
      os << "[";
      for (size_t k = 0; k < strings.size(); ++k) os << (k ? "," : "") << '"' << strings[k] << '"';
      os << "]";
      break;
    case Type::kTensors:
      os << "[";
      for (size_t k = 0; k < tensors.size(); ++k) os << (k ? "," : "") << "tensor(" << tensors[k].DebugString() << ")";
      os << "]";
      break;
    case Type::kGraph: return "graph";
    case Type::kGraphs: return "graphs";
  }
  return os.str();
}

const AttrValue* AttrMap::Find(const std::string& name) const {
  auto it = map_.find(name);
  return it == map_.end() ? nullptr : &it->second;
}

int64_t AttrMap::GetInt(const std::string& name, int64_t def) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kInt ? a->i : def;
}

float AttrMap::GetFloat(const std::string& name, float def) const {
  const AttrValue* a = Find(name);
  if (!a) return def;
  if (a->type == AttrValue::Type::kFloat) return a->f;
  if (a->type == AttrValue::Type::kInt) return static_cast<float>(a->i);
  return def;
}

std::string AttrMap::GetString(const std::string& name, const std::string& def) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kString ? a->s : def;
}

std::vector<int64_t> AttrMap::GetInts(const std::string& name, const std::vector<int64_t>& def) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kInts ? a->ints : def;
}

std::vector<float> AttrMap::GetFloats(const std::string& name, const std::vector<float>& def) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kFloats ? a->floats : def;
}

std::vector<std::string> AttrMap::GetStrings(const std::string& name, const std::vector<std::string>& def) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kStrings ? a->strings : def;
}

const Tensor* AttrMap::GetTensor(const std::string& name) const {
  const AttrValue* a = Find(name);
  return a && a->type == AttrValue::Type::kTensor ? &a->t : nullptr;
}

}  // namespace ge::ir
