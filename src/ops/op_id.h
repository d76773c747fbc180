// Op ids: one enumerator per line of ops/op_table.def. Registries, engine tables and passes name ops by id; the strings
// (domain, name) live only in the table. Domain "" is ai.onnx ("ai.onnx" is accepted as its alias).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ge::ir {
class Node;
}

namespace ge::ops {

enum class OpFamily : uint8_t { kElementwise, kReduce, kNn, kShape, kIndex, kMath, kControl, kMisc, kFused, kVariable };

enum class OpId : uint16_t {
#define GE_OP(id, domain, name, family) k##id,
#include "ops/op_table.def"
#undef GE_OP
  kNumOps,
  kUnknown = UINT16_MAX,  // what OpIdOf returns for a (domain, name) the table does not hold
};

constexpr int kNumOpIds = static_cast<int>(OpId::kNumOps);

constexpr bool IsKnownOp(OpId id) { return static_cast<int>(id) < kNumOpIds; }

// OpId::kUnknown when the table has no such op.
OpId OpIdOf(std::string_view domain, std::string_view name);
OpId OpIdOf(const ir::Node& node);

// "" (ai.onnx), "ge" or another domain; "" for an id outside the table.
const char* OpDomain(OpId id);
// The op's name within its domain, e.g. "FusedConv"; "" for an id outside the table.
const char* OpName(OpId id);
OpFamily FamilyOf(OpId id);
// "Add", "ge::FusedConv"; "op id <n>" for an id outside the table (for messages).
std::string OpLabel(OpId id);

// Whether the node is the op `id` (its domain and name are the table's).
bool IsOp(const ir::Node& node, OpId id);
inline bool IsOp(const ir::Node* node, OpId id) { return node != nullptr && IsOp(*node, id); }

}  // namespace ge::ops
