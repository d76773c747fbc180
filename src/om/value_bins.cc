#include "om/value_bins.h"

#include <cctype>

namespace ge::om {
namespace {


// A recursive-descent reader of the JSON subset the option uses: objects, arrays and strings.
class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}

  Status Error(const std::string& what) const {
    return InvalidArgument("option ge.exec.value_bins: " + what + " at byte " + std::to_string(pos_) +
                           " (want {\"value_bins\":[{\"value_bin_id\":\"ID\",\"value_bin_file\":\"PATH\"}, ...]})");
  }
  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Take(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == s_.size();
  }

  StatusOr<std::string> String() {
    if (!Take('"')) return Error("expected a string");
    std::string out;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) return Error("short \\u escape");
          unsigned v = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = s_[pos_++];
            if (!std::isxdigit(static_cast<unsigned char>(h))) return Error("bad \\u escape");
            v = v * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0'
                                                                                             : (std::tolower(h) - 'a' + 10));
          }
          if (v == 0 || v > 0x7F) return Error("only ASCII \\u escapes (and no NUL) are accepted");
          out += static_cast<char>(v);
          break;
        }
        default: return Error("bad escape");
      }
    }
    return Error("unterminated string");
  }

  // One {"value_bin_id":..., "value_bin_file":...} object.
  Status Bin(std::map<std::string, std::string>* out) {
    if (!Take('{')) return Error("expected an object");
    std::string id, file;
    bool has_id = false, has_file = false;
    if (!Take('}')) {
      do {
        GE_ASSIGN_OR_RETURN(std::string key, String());
        if (!Take(':')) return Error("expected ':'");
        GE_ASSIGN_OR_RETURN(std::string value, String());
        if (key == "value_bin_id" && !has_id) {
          id = std::move(value);
          has_id = true;
        } else if (key == "value_bin_file" && !has_file) {
          file = std::move(value);
          has_file = true;
        } else {
          return Error("unexpected or repeated key '" + key + "'");
        }
      } while (Take(','));
      if (!Take('}')) return Error("expected '}'");
    }
    if (id.empty() || file.empty()) return Error("an entry needs a non-empty value_bin_id and value_bin_file");
    if (!out->emplace(id, file).second) return Error("value_bin_id '" + id + "' appears twice");
    return Status::Ok();
  }

  StatusOr<std::map<std::string, std::string>> Document() {
    std::map<std::string, std::string> out;
    if (!Take('{')) return Error("expected an object");
    GE_ASSIGN_OR_RETURN(std::string key, String());
    if (key != "value_bins") return Error("expected the key \"value_bins\", got '" + key + "'");
    if (!Take(':') || !Take('[')) return Error("expected ':' and an array");
    if (!Take(']')) {
      do {
        GE_RETURN_IF_ERROR(Bin(&out));
      } while (Take(','));
      if (!Take(']')) return Error("expected ']'");
    }
    if (!Take('}')) return Error("expected '}'");
    if (!AtEnd()) return Error("unexpected bytes after the object");
    return out;
  }

 private:
  const std::string& s_;
  size_t pos_ = 0;
};

}  // namespace

StatusOr<std::map<std::string, std::string>> ParseValueBins(const std::string& json) {
  if (json.size() > (1u << 20)) return InvalidArgument("option ge.exec.value_bins is larger than 1 MB");
  return Reader(json).Document();
}

}  // namespace ge::om
