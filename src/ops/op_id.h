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

// What an op is, for the code that treats ops by kind rather than by name. Flags of the table's traits column.
namespace OpTrait {
enum : uint32_t {
  // Element-wise math on one tensor (Relu, Neg, Exp, Clip ...): output 0 has input 0's dims and dtype and may
  // overwrite it (each element read, then written; nothing read after it is written).
  kUnaryElementwise = 1u << 0,
  // Element-wise arithmetic on two broadcast tensors (Add, Sub, Mul, Div, Max, Min): output 0 may overwrite an
  // input of the output's dims.
  kBinaryElementwise = 1u << 1,
  // Output 0 is input 0's bytes under other dims (Identity, Reshape, Flatten, Squeeze, Unsqueeze, Dropout at
  // inference): it may be input 0's buffer, and then nothing needs to run.
  kDataView = 1u << 2,
  // Draws random numbers: never folded, deduplicated or moved across runs.
  kRandom = 1u << 3,
  // Values that are sequences or optionals, or bodies run as subgraphs: runs on the host executor (runtime v2),
  // never as a prepared kernel.
  kHostOnly = 1u << 4,
  // Reads or writes session variables (seed 000): its value is not known at compile time.
  kStateful = 1u << 5,
  // Compute-heavy (convolutions, products, recurrences): where a pipeline splits a model into stages.
  kComputeHeavy = 1u << 6,
};
}  // namespace OpTrait

enum class OpId : uint16_t {
#define GE_OP(id, domain, name, family, traits) k##id,
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
// The table's OpTrait flags of the op; 0 for an id outside the table.
uint32_t TraitsOf(OpId id);
inline bool HasTrait(OpId id, uint32_t trait) { return (TraitsOf(id) & trait) != 0; }
// "Add", "ge::FusedConv"; "op id <n>" for an id outside the table (for messages).
std::string OpLabel(OpId id);

// Whether the node is the op `id` (its domain and name are the table's).
bool IsOp(const ir::Node& node, OpId id);
inline bool IsOp(const ir::Node* node, OpId id) { return node != nullptr && IsOp(*node, id); }

}  // namespace ge::ops
