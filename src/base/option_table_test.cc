#include "base/option_table.h"

#include <gtest/gtest.h>

#include <set>

namespace ge {
namespace {

std::string Message(const std::map<std::string, std::string>& options, uint32_t accepted, const std::string& where) {
  Status s = CheckOptionsAgainstTable(options, accepted, where);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  return s.message();
}

constexpr uint32_t kEveryReader = kReaderInit | kReaderSession | kReaderCompiler | kReaderRuntimeV2 | kReaderSingleOp;

TEST(OptionTable, EveryRowIsWellFormed) {
  std::set<std::string> names;
  for (const OptionInfo& o : AllOptions()) {
    const std::string name = o.name;
    SCOPED_TRACE(name);
    EXPECT_TRUE(names.insert(name).second) << "listed twice";
    EXPECT_EQ(name.rfind("ge.", 0), 0u);
    EXPECT_NE(o.readers, 0u);
    EXPECT_EQ(o.readers & ~kEveryReader, 0u);
    EXPECT_GT(std::string(o.description).size(), 10u);
    if (o.type == OptionType::kBool) {
      EXPECT_STREQ(o.values, "0|1");
    }
    if (o.type == OptionType::kEnum || o.type == OptionType::kInt) {
      EXPECT_STRNE(o.values, "");
    }
    if (o.type == OptionType::kInt) {
      // The range's own bounds pass the check, one past its end does not.
      const std::string range = o.values;
      const std::string min = range.substr(0, range.find(".."));
      EXPECT_TRUE(CheckOptionValue(o, name, min).ok());
      const std::string max = range.substr(range.find("..") + 2);
      EXPECT_TRUE(CheckOptionValue(o, name, max).ok());
      EXPECT_LE(std::stoull(min), std::stoull(max));
      EXPECT_FALSE(CheckOptionValue(o, name, std::to_string(std::stoull(max) + 1)).ok());
    }
    // A default, where the table gives one, is a value the option accepts.
    if (*o.default_value != '\0') {
      EXPECT_TRUE(CheckOptionValue(o, name, o.default_value).ok()) << o.default_value;
    }
  }
  EXPECT_GE(names.size(), 20u);
}

TEST(OptionTable, FindsKeysAndFamilyMembers) {
  ASSERT_NE(FindOption("ge.exec.disableReuseMemory"), nullptr);
  EXPECT_EQ(FindOption("ge.exec.disableReuseMemory")->readers, kReaderCompiler);
  const OptionInfo* engine = FindOption("ge.engine.dnnl");
  ASSERT_NE(engine, nullptr);
  EXPECT_STREQ(engine->name, "ge.engine.<name>");
  EXPECT_EQ(FindOption("ge.engine."), nullptr);  // a family member needs a name
  EXPECT_EQ(FindOption("ge.engine"), nullptr);
  EXPECT_EQ(FindOption("ge.Fusion"), nullptr);  // keys are case-sensitive; the suggestion fixes the case
  EXPECT_EQ(FindOption(""), nullptr);
}

TEST(OptionTable, MisspelledKeyNamesTheClosest) {
  EXPECT_EQ(Message({{"ge.exec.disableReuseMemry", "1"}}, kReaderCompiler, ""),
            "option 'ge.exec.disableReuseMemry' is not an option ge knows; did you mean "
            "'ge.exec.disableReuseMemory'?");
  EXPECT_EQ(Message({{"ge.Fusion", "0"}}, kReaderCompiler, "session"),
            "session: option 'ge.Fusion' is not an option ge knows; did you mean 'ge.fusion'?");
  EXPECT_NE(Message({{"ge.engin.dnnl", "0"}}, kReaderCompiler, "").find("did you mean 'ge.engine.dnnl'?"),
            std::string::npos);
  EXPECT_NE(Message({{"ge.exec.v2Exectuor", "priority"}}, kReaderRuntimeV2, "").find("'ge.exec.v2Executor'"),
            std::string::npos);
}

TEST(OptionTable, FarKeyPointsAtTheList) {
  EXPECT_EQ(Message({{"ge.noSuchOption", "1"}}, kReaderSession, "session"),
            "session: option 'ge.noSuchOption' is not an option ge knows (`ge options` lists them)");
  EXPECT_NE(Message({{"", "1"}}, kReaderSession, "").find("is not an option ge knows"), std::string::npos);
}

TEST(OptionTable, KeyGivenWhereNoReaderListens) {
  const std::string m = Message({{"ge.exec.v2Executor", "priority"}}, kReaderCompiler, "ge compile");
  EXPECT_EQ(m,
            "ge compile: option 'ge.exec.v2Executor' is read by runtime v2, not here: options given here are read "
            "by the compiler");
  EXPECT_NE(Message({{"ge.graphRunMode", "1"}}, kReaderSingleOp, "").find("read by the session"), std::string::npos);
  EXPECT_TRUE(CheckOptionsAgainstTable({{"ge.exec.v2StaticIslandMinNodes", "3"}}, kReaderRuntimeV2, "").ok());
  EXPECT_TRUE(CheckOptionsAgainstTable({{"ge.exec.v2StaticIslandMinNodes", "3"}}, kReaderCompiler, "").ok());
}

TEST(OptionTable, BadValuesNameTheAllowedOnes) {
  EXPECT_EQ(Message({{"ge.exec.variable_acc", "maybe"}}, kReaderCompiler, ""),
            "option ge.exec.variable_acc must be 0 or 1, got 'maybe'");
  EXPECT_EQ(Message({{"ge.exec.v2Executor", "fast"}}, kReaderRuntimeV2, "ge run"),
            "ge run: option ge.exec.v2Executor must be sequential, topological, priority or multi_thread, got 'fast'");
  EXPECT_EQ(Message({{"ge.exec.v2KernelCacheCapacity", "0"}}, kReaderRuntimeV2, ""),
            "option ge.exec.v2KernelCacheCapacity must be an integer in 1..4096, got '0'");
  for (const char* bad : {"", "+5", " 5", "5 ", "1.5", "-1", "4097", "99999999999999999999999"}) {
    EXPECT_FALSE(CheckOptionsAgainstTable({{"ge.exec.v2KernelCacheCapacity", bad}}, kReaderRuntimeV2, "").ok()) << bad;
  }
  EXPECT_TRUE(CheckOptionsAgainstTable({{"ge.exec.v2KernelCacheCapacity", "0004"}}, kReaderRuntimeV2, "").ok());
  EXPECT_FALSE(CheckOptionsAgainstTable({{"ge.engine.dnnl", "off"}}, kReaderCompiler, "").ok());
  EXPECT_TRUE(CheckOptionsAgainstTable({{"ge.engine.dnnl", "0"}, {"ge.fusion", "0"}}, kReaderCompiler, "").ok());
  EXPECT_TRUE(CheckOptionsAgainstTable({{"ge.externalWeightDir", "/any/where"}}, kReaderCompiler, "").ok());
  EXPECT_TRUE(CheckOptionsAgainstTable({}, 0, "").ok());
}

TEST(OptionTable, PrintsEveryOptionAsTextAndJson) {
  const std::string text = FormatOptionTable();
  const std::string json = OptionTableJson();
  for (const OptionInfo& o : AllOptions()) {
    EXPECT_NE(text.find(std::string(o.name) + " = "), std::string::npos) << o.name;
    EXPECT_NE(json.find("{\"name\":\"" + std::string(o.name) + "\""), std::string::npos) << o.name;
  }
  EXPECT_NE(text.find("ge.exec.disableReuseMemory = 0|1  (default 0)\n    read by the compiler: "), std::string::npos);
  EXPECT_NE(text.find("no effect on this device"), std::string::npos);
  EXPECT_NE(json.find("\"read_by\":[\"compiler\",\"single_op\"]"), std::string::npos);
  EXPECT_NE(json.find("{\\\"value_bins\\\""), std::string::npos);  // quotes in a description are escaped
  EXPECT_EQ(json.front(), '[');
}

TEST(OptionTable, ReaderNames) {
  EXPECT_EQ(ReaderNames(kReaderCompiler | kReaderRuntimeV2), "the compiler, runtime v2");
  EXPECT_EQ(ReaderNames(0), "nothing");
}

}  // namespace
}  // namespace ge
