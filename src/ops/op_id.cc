#include "ops/op_id.h"

#include <algorithm>
#include <array>
#include <tuple>

#include "ir/graph.h"

namespace ge::ops {
namespace {

struct OpRow {
  const char* domain;
  const char* name;
  OpFamily family;
  uint32_t traits;
};

constexpr OpRow kRows[] = {
#define GE_OP(id, domain, name, family, traits) {domain, name, OpFamily::family, traits},
#include "ops/op_table.def"
#undef GE_OP
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == kNumOpIds, "one row per op id");

std::string_view CanonicalDomain(std::string_view domain) { return domain == "ai.onnx" ? std::string_view() : domain; }

struct ByKey {
  std::string_view domain;
  std::string_view name;
  OpId id;
  bool operator<(const ByKey& o) const { return std::tie(domain, name) < std::tie(o.domain, o.name); }
};

// The table sorted by (domain, name), built once.
const std::array<ByKey, kNumOpIds>& SortedKeys() {
  static const std::array<ByKey, kNumOpIds> keys = [] {
    std::array<ByKey, kNumOpIds> k{};
    for (int i = 0; i < kNumOpIds; ++i) k[i] = {kRows[i].domain, kRows[i].name, static_cast<OpId>(i)};
    std::sort(k.begin(), k.end());
    return k;
  }();
  return keys;
}

}  // namespace

OpId OpIdOf(std::string_view domain, std::string_view name) {
  const ByKey key{CanonicalDomain(domain), name, OpId::kUnknown};
  const auto& keys = SortedKeys();
  auto it = std::lower_bound(keys.begin(), keys.end(), key);
  if (it == keys.end() || it->domain != key.domain || it->name != key.name) return OpId::kUnknown;
  return it->id;
}

OpId OpIdOf(const ir::Node& node) { return OpIdOf(node.domain(), node.op_type()); }

const char* OpDomain(OpId id) { return IsKnownOp(id) ? kRows[static_cast<int>(id)].domain : ""; }

const char* OpName(OpId id) { return IsKnownOp(id) ? kRows[static_cast<int>(id)].name : ""; }

uint32_t TraitsOf(OpId id) { return IsKnownOp(id) ? kRows[static_cast<int>(id)].traits : 0; }

OpFamily FamilyOf(OpId id) { return IsKnownOp(id) ? kRows[static_cast<int>(id)].family : OpFamily::kMisc; }

std::string OpLabel(OpId id) {
  if (!IsKnownOp(id)) return "op id " + std::to_string(static_cast<int>(id));
  const OpRow& row = kRows[static_cast<int>(id)];
  return row.domain[0] == '\0' ? std::string(row.name) : std::string(row.domain) + "::" + row.name;
}

bool IsOp(const ir::Node& node, OpId id) {
  return IsKnownOp(id) && node.op_type() == OpName(id) && CanonicalDomain(node.domain()) == OpDomain(id);
}

}  // namespace ge::ops
