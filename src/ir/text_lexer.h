// Tokens of the IR text form (see text_parser.h for the grammar). Shared by the dump, which must quote exactly
// what the lexer would not read back as one word.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge::ir::text {

enum class Tok {
  kEnd,
  kWord,    // a run of word chars: names, numbers, dtypes ("relu_1", "-2.5e-3", "float32", "_")
  kString,  // "..." with escapes decoded
  kRef,     // %name or %"name": a value
  kCaret,   // ^name: a control input
  kAt,      // @name: an engine or a format
  kAngle,   // <...>: elided tensors and bodiless attributes; text is what is between the brackets
  kPunct,   // ( ) [ ] { } , : :: = ? *
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  int line = 0;
  int col = 0;
};

// Word chars: letters, digits and _ . $ / + -
bool IsWordChar(char c);
// Whether s reads back as a single word token.
bool IsBareWord(const std::string& s);
// "..." with \\ \" \n \t \r and \xHH for other control bytes; bytes >= 0x80 are kept as they are.
std::string Quote(const std::string& s);
// s bare when it is a word, quoted otherwise.
std::string NameText(const std::string& s);
// Whole-word conversions: false unless all of s is one number in range (base 10; doubles also inf and nan).
bool ToInt64(const std::string& s, int64_t* v);
bool ToUint64(const std::string& s, uint64_t* v);
bool ToDouble(const std::string& s, double* v);
// How a token is named in error messages: 'relu', "abc", %x, end of input.
std::string Describe(const Token& t);
Status ErrorAt(int line, int col, const std::string& msg);

// Splits text into tokens, ending with one kEnd token. '#' starts a comment that runs to the end of the line.
StatusOr<std::vector<Token>> Lex(const std::string& text);

}  // namespace ge::ir::text
