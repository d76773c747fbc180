#include "base/option_table.h"

#include <sstream>

#include "base/edit_distance.h"

namespace ge {
namespace {

constexpr std::string_view kFamilyTail = ".<name>";

bool IsFamily(std::string_view name) {
  return name.size() > kFamilyTail.size() && name.substr(name.size() - kFamilyTail.size()) == kFamilyTail;
}

// "ge.engine." for "ge.engine.<name>".
std::string_view FamilyPrefix(std::string_view name) { return name.substr(0, name.size() - kFamilyTail.size() + 1); }

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// "a, b or c".
std::string Alternatives(std::string_view values) {
  const std::vector<std::string_view> parts = Split(values, '|');
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " or " : ", ";
    out += parts[i];
  }
  return out;
}

// Plain decimal digits (leading zeros allowed) within 0..UINT64_MAX; false otherwise.
bool ParseUnsigned(std::string_view text, unsigned long long* out) {
  if (text.empty() || text.size() > 40) return false;
  unsigned long long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (v > (~0ull - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = v;
  return true;
}

std::vector<std::string> SuggestionCandidates(std::string_view key) {
  std::vector<std::string> names;
  for (const OptionInfo& o : AllOptions()) {
    if (!IsFamily(o.name)) {
      names.emplace_back(o.name);
      continue;
    }
    // A family member is compared with the family's prefix and the key's last part: ge.engin.dnnl ~ ge.engine.dnnl.
    const size_t dot = key.rfind('.');
    if (dot != std::string_view::npos && dot + 1 < key.size()) {
      names.push_back(std::string(FamilyPrefix(o.name)) + std::string(key.substr(dot + 1)));
    }
  }
  return names;
}

struct ReaderName {
  OptionReader bit;
  const char* key;     // in JSON
  const char* phrase;  // in messages
};
constexpr ReaderName kReaderNames[] = {{kReaderInit, "init", "GEInitialize"},
                                       {kReaderSession, "session", "the session"},
                                       {kReaderCompiler, "compiler", "the compiler"},
                                       {kReaderRuntimeV2, "runtime_v2", "runtime v2"},
                                       {kReaderSingleOp, "single_op", "single op"}};

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

const std::vector<OptionInfo>& AllOptions() {
  static const std::vector<OptionInfo> table = {
#define GE_OPTION(name, type, values, default_value, readers, effect_on_cpu, description) \
  {name, OptionType::type, values, default_value, readers, effect_on_cpu, description},
#include "base/option_table.def"
#undef GE_OPTION
  };
  return table;
}

const OptionInfo* FindOption(std::string_view key) {
  for (const OptionInfo& o : AllOptions()) {
    if (IsFamily(o.name)) {
      const std::string_view prefix = FamilyPrefix(o.name);
      if (key.size() > prefix.size() && key.substr(0, prefix.size()) == prefix) return &o;
    } else if (key == o.name) {
      return &o;
    }
  }
  return nullptr;
}

Status CheckOptionValue(const OptionInfo& info, std::string_view key, std::string_view value) {
  const std::string got = ", got '" + std::string(value) + "'";
  switch (info.type) {
    case OptionType::kBool:
    case OptionType::kEnum:
      for (std::string_view allowed : Split(info.values, '|')) {
        if (value == allowed) return Status::Ok();
      }
      return InvalidArgument("option " + std::string(key) + " must be " + Alternatives(info.values) + got);
    case OptionType::kInt: {
      const std::vector<std::string_view> range = Split(info.values, '.');  // "MIN..MAX" splits as MIN, "", MAX
      unsigned long long v = 0, min = 0, max = 0;
      const bool ok = ParseUnsigned(value, &v) && ParseUnsigned(range.front(), &min) &&
                      ParseUnsigned(range.back(), &max) && v >= min && v <= max;
      if (ok) return Status::Ok();
      return InvalidArgument("option " + std::string(key) + " must be an integer in " + info.values + got);
    }
    case OptionType::kString:
    case OptionType::kPath:
    case OptionType::kJson:  // its reader parses it (om/value_bins.h for ge.exec.value_bins)
      return Status::Ok();
  }
  return Status::Ok();
}

Status CheckOptionsAgainstTable(const std::map<std::string, std::string>& options, uint32_t accepted,
                                const std::string& where) {
  const std::string prefix = where.empty() ? "" : where + ": ";
  for (const auto& [key, value] : options) {
    const OptionInfo* info = FindOption(key);
    if (info == nullptr) {
      const std::string closest = ClosestName(key, SuggestionCandidates(key));
      return InvalidArgument(prefix + "option '" + key + "' is not an option ge knows" +
                             (closest.empty() ? " (`ge options` lists them)" : "; did you mean '" + closest + "'?"));
    }
    if ((info->readers & accepted) == 0) {
      return InvalidArgument(prefix + "option '" + key + "' is read by " + ReaderNames(info->readers) +
                             ", not here: options given here are read by " + ReaderNames(accepted));
    }
    Status s = CheckOptionValue(*info, key, value);
    if (!s.ok()) return InvalidArgument(prefix + s.message());
  }
  return Status::Ok();
}

std::string ReaderNames(uint32_t readers) {
  std::string out;
  for (const ReaderName& r : kReaderNames) {
    if ((readers & r.bit) != 0) out += (out.empty() ? "" : ", ") + std::string(r.phrase);
  }
  return out.empty() ? "nothing" : out;
}

const char* OptionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kEnum:
      return "enum";
    case OptionType::kInt:
      return "int";
    case OptionType::kString:
      return "string";
    case OptionType::kPath:
      return "path";
    case OptionType::kJson:
      return "json";
  }
  return "?";
}

std::string FormatOptionTable() {
  std::ostringstream os;
  for (const OptionInfo& o : AllOptions()) {
    os << o.name << " = " << (*o.values != '\0' ? o.values : OptionTypeName(o.type));
    if (*o.default_value != '\0') os << "  (default " << o.default_value << ")";
    os << "\n    read by " << ReaderNames(o.readers) << (o.effect_on_cpu ? "" : "; no effect on this device") << ": "
       << o.description << "\n";
  }
  return os.str();
}

std::string OptionTableJson() {
  std::ostringstream os;
  os << "[";
  const char* sep = "";
  for (const OptionInfo& o : AllOptions()) {
    os << sep << "{\"name\":" << JsonString(o.name) << ",\"type\":\"" << OptionTypeName(o.type)
       << "\",\"values\":" << JsonString(o.values) << ",\"default\":" << JsonString(o.default_value)
       << ",\"read_by\":[";
    const char* rsep = "";
    for (const ReaderName& r : kReaderNames) {
      if ((o.readers & r.bit) == 0) continue;
      os << rsep << JsonString(r.key);
      rsep = ",";
    }
    os << "],\"effect_on_cpu\":" << (o.effect_on_cpu ? "true" : "false")
       << ",\"description\":" << JsonString(o.description) << "}";
    sep = ",";
  }
  os << "]\n";
  return os.str();
}

}  // namespace ge
