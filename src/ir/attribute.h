// Typed node attributes (ONNX AttributeProto minus graphs: subgraphs are owned by the Node, see node.h).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/tensor.h"

namespace ge::ir {

struct AttrValue {
  enum class Type { kUndefined, kInt, kFloat, kString, kTensor, kInts, kFloats, kStrings, kTensors, kGraph, kGraphs };
  Type type = Type::kUndefined;
  int64_t i = 0;
  float f = 0;
  std::string s;
  Tensor t;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;

  static AttrValue Int(int64_t v) { AttrValue a; a.type = Type::kInt; a.i = v; return a; }
  static AttrValue Float(float v) { AttrValue a; a.type = Type::kFloat; a.f = v; return a; }
  static AttrValue String(std::string v) { AttrValue a; a.type = Type::kString; a.s = std::move(v); return a; }
  static AttrValue TensorValue(Tensor v) { AttrValue a; a.type = Type::kTensor; a.t = std::move(v); return a; }
  static AttrValue Ints(std::vector<int64_t> v) { AttrValue a; a.type = Type::kInts; a.ints = std::move(v); return a; }
  static AttrValue Floats(std::vector<float> v) { AttrValue a; a.type = Type::kFloats; a.floats = std::move(v); return a; }
  static AttrValue Strings(std::vector<std::string> v) { AttrValue a; a.type = Type::kStrings; a.strings = std::move(v); return a; }
  static AttrValue Tensors(std::vector<Tensor> v) { AttrValue a; a.type = Type::kTensors; a.tensors = std::move(v); return a; }
  // Text form used by the IR dump: 3, 0.5, "s", [1,2], tensor(float32[2]{...}).
  std::string ToString() const;
};

const char* AttrTypeName(AttrValue::Type t);

// Name → attribute, ordered by name so dumps are stable.
class AttrMap {
 public:
  bool Has(const std::string& name) const { return map_.count(name) != 0; }
  const AttrValue* Find(const std::string& name) const;
  void Set(const std::string& name, AttrValue v) { map_[name] = std::move(v); }
  void Erase(const std::string& name) { map_.erase(name); }

  // Getters return the default when the attribute is absent (kernels validate the value they get).
  int64_t GetInt(const std::string& name, int64_t def) const;
  float GetFloat(const std::string& name, float def) const;
  std::string GetString(const std::string& name, const std::string& def) const;
  std::vector<int64_t> GetInts(const std::string& name, const std::vector<int64_t>& def = {}) const;
  std::vector<float> GetFloats(const std::string& name, const std::vector<float>& def = {}) const;
  std::vector<std::string> GetStrings(const std::string& name, const std::vector<std::string>& def = {}) const;
  const Tensor* GetTensor(const std::string& name) const;  // nullptr when absent

  const std::map<std::string, AttrValue>& all() const { return map_; }

 private:
  std::map<std::string, AttrValue> map_;
};

}  // namespace ge::ir
