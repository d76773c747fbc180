// Test helpers of runtime/v1: a model in the IR text form compiled to an in-memory .om, and that image opened.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/model_compiler.h"
#include "ir/text_parser.h"
#include "om/om_reader.h"

namespace ge::runtime::testing {

struct Compiled {
  std::vector<uint8_t> bytes;
  compiler::CompileReport report;
};

// `options` carries the GE options; its other fields (variables, ...) are used as given.
inline Compiled CompileText(const std::string& text, compiler::CompileOptions options = {}) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  Compiled c;
  if (!m.ok()) return c;
  auto bytes = compiler::CompileToOm(**m, options, &c.report);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (bytes.ok()) c.bytes = std::move(*bytes);
  return c;
}

inline Compiled Compile(const std::string& text, std::map<std::string, std::string> ge_options = {}) {
  compiler::CompileOptions co;
  co.ge_options = std::move(ge_options);
  return CompileText(text, std::move(co));
}

// A reader over a copy of `bytes` (it keeps the copy alive); nullptr when the image does not verify.
inline std::shared_ptr<const om::OmReader> Open(const std::vector<uint8_t>& bytes) {
  auto copy = std::make_shared<std::vector<uint8_t>>(bytes);
  auto r = om::OmReader::FromMemory(copy->data(), copy->size(), copy);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::shared_ptr<const om::OmReader>(std::move(*r)) : nullptr;
}

}  // namespace ge::runtime::testing
