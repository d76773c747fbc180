#include "ir/text_lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace ge::ir::text {

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '/' || c == '+' ||
         c == '-';
}

bool IsBareWord(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!IsWordChar(c)) return false;
  return true;
}

std::string Quote(const std::string& s) {
  static const char kHex[] = "0123456789abcdef";
  std::string o = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          o += "\\x";
          o += kHex[u >> 4];
          o += kHex[u & 15];
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string NameText(const std::string& s) { return IsBareWord(s) ? s : Quote(s); }

bool ToInt64(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long long x = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *v = x;
  return true;
}

bool ToUint64(const std::string& s, uint64_t* v) {
  if (s.empty() || s[0] == '-') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long x = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *v = x;
  return true;
}

bool ToDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  double x = std::strtod(s.c_str(), &end);
  if (*end != '\0') return false;
  *v = x;
  return true;
}

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kEnd: return "end of input";
    case Tok::kWord: return "'" + t.text + "'";
    case Tok::kString: return "string " + Quote(t.text);
    case Tok::kRef: return "%" + NameText(t.text);
    case Tok::kCaret: return "^" + NameText(t.text);
    case Tok::kAt: return "@" + NameText(t.text);
    case Tok::kAngle: return "<" + t.text + ">";
    case Tok::kPunct: return "'" + t.text + "'";
  }
  return "?";
}

Status ErrorAt(int line, int col, const std::string& msg) {
  return InvalidArgument("line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + msg);
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  StatusOr<std::vector<Token>> Run() {
    std::vector<Token> out;
    for (;;) {
      SkipSpaceAndComments();
      Token t;
      t.line = line_;
      t.col = col_;
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[pos_];
      if (c == '"') {
        t.kind = Tok::kString;
        GE_RETURN_IF_ERROR(ReadString(&t.text));
      } else if (c == '%' || c == '^' || c == '@') {
        t.kind = c == '%' ? Tok::kRef : c == '^' ? Tok::kCaret : Tok::kAt;
        Advance();
        if (pos_ < s_.size() && s_[pos_] == '"') {
          GE_RETURN_IF_ERROR(ReadString(&t.text));
        } else {
          t.text = ReadWord();
          if (t.text.empty()) return ErrorAt(t.line, t.col, std::string("expected a name after '") + c + "'");
        }
      } else if (c == '<') {
        t.kind = Tok::kAngle;
        Advance();
        while (pos_ < s_.size() && s_[pos_] != '>' && s_[pos_] != '\n') t.text += Advance();
        if (pos_ >= s_.size() || s_[pos_] != '>') return ErrorAt(t.line, t.col, "'<' is not closed with '>'");
        Advance();
      } else if (c == ':' && pos_ + 1 < s_.size() && s_[pos_ + 1] == ':') {
        t.kind = Tok::kPunct;
        t.text = "::";
        Advance();
        Advance();
      } else if (std::strchr("()[]{},:=?*", c) != nullptr) {
        t.kind = Tok::kPunct;
        t.text = std::string(1, Advance());
      } else if (IsWordChar(c)) {
        t.kind = Tok::kWord;
        t.text = ReadWord();
      } else {
        std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : Quote(std::string(1, c));
        return ErrorAt(t.line, t.col, "unexpected character '" + shown + "'");
      }
      out.push_back(std::move(t));
    }
  }

 private:
  char Advance() {
    char c = s_[pos_++];
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    return c;
  }

  void SkipSpaceAndComments() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') Advance();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        Advance();
      } else {
        return;
      }
    }
  }

  std::string ReadWord() {
    std::string w;
    while (pos_ < s_.size() && IsWordChar(s_[pos_])) w += Advance();
    return w;
  }

  Status ReadString(std::string* out) {
    const int line = line_, col = col_;
    Advance();  // opening quote
    for (;;) {
      if (pos_ >= s_.size() || s_[pos_] == '\n') {
        return ErrorAt(line, col, "string is not closed with '\"' before the end of the line");
      }
      char c = Advance();
      if (c == '"') return Status::Ok();
      if (c != '\\') {
        *out += c;
        continue;
      }
      const int eline = line_, ecol = col_ - 1;
      char e = pos_ < s_.size() ? Advance() : '\0';
      switch (e) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case 'n': *out += '\n'; break;
        case 't': *out += '\t'; break;
        case 'r': *out += '\r'; break;
        case 'x': {
          int hi = pos_ < s_.size() ? HexDigit(s_[pos_]) : -1;
          int lo = pos_ + 1 < s_.size() ? HexDigit(s_[pos_ + 1]) : -1;
          if (hi < 0 || lo < 0) return ErrorAt(eline, ecol, "expected two hex digits after '\\x'");
          Advance();
          Advance();
          *out += static_cast<char>(hi * 16 + lo);
          break;
        }
        default:
          return ErrorAt(eline, ecol, "unknown escape '\\" + std::string(1, e) + "' (expected \\\" \\\\ \\n \\t \\r \\xHH)");
      }
    }
  }

  const std::string& s_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

StatusOr<std::vector<Token>> Lex(const std::string& text) { return Lexer(text).Run(); }

}  // namespace ge::ir::text
