// The ge command line's flag parsing: --name=value and bare --name, repeated flags, unknown flags, and integer flags
// held to their range with a message that names the flag, the value and the range.
#include "flags.h"
#include "ge_option_flags.h"

#include "base/option_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace ge::cli {
namespace {

CommandSpec Declaring(const std::vector<std::string>& known) {
  static std::vector<std::string> names;  // keeps the declared names alive for the spec's const char*
  names.insert(names.end(), known.begin(), known.end());
  CommandSpec spec{"test", "", "a command for the test", {}};
  for (const std::string& n : known) {
    auto it = std::find(names.rbegin(), names.rend(), n);
    spec.flags.push_back({it->c_str(), "", "a flag"});
  }
  return spec;
}

StatusOr<Flags> Parse(std::vector<std::string> args, const std::vector<std::string>& known) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return ParseFlags(static_cast<int>(argv.size()), argv.data(), 0, Declaring(known));
}

Flags With(const std::string& name, const std::string& value) {
  Flags f;
  f.values[name].push_back(value);
  return f;
}

TEST(Flags, ValuesBareFlagsRepeatsAndPositionals) {
  auto f = Parse({"--model=m.onnx", "--json", "--input=a.npy", "--input=b.npy", "file.om"}, {"model", "json", "input"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->Get("model"), "m.onnx");
  EXPECT_TRUE(f->GetBool("json"));
  EXPECT_EQ(f->GetAll("input"), (std::vector<std::string>{"a.npy", "b.npy"}));
  EXPECT_EQ(f->positional, (std::vector<std::string>{"file.om"}));
  EXPECT_EQ(f->Get("absent", "def"), "def");
}

TEST(Flags, UnknownFlagIsRefusedByName) {
  auto f = Parse({"--model=m.onnx", "--thread=4"}, {"model", "threads"});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(f.status().message().find("--thread"), std::string::npos) << f.status().message();
}

TEST(Flags, IntegerFlagAbsentTakesTheDefault) {
  auto v = Flags().GetInt("threads", 7, 1, 1024);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
}

// Both ends of the range are accepted; one past either end is refused naming the flag, its value and the range.
TEST(Flags, IntegerFlagOutsideItsRangeIsRefusedNamingFlagAndRange) {
  struct Case {
    std::string value;
    bool ok;
  };
  for (const Case& c : std::vector<Case>{{"0", false}, {"1", true}, {"1024", true}, {"1025", false}}) {
    auto v = With("threads", c.value).GetInt("threads", 1, 1, 1024);
    if (c.ok) {
      ASSERT_TRUE(v.ok()) << c.value << ": " << v.status().ToString();
      EXPECT_EQ(*v, std::stoll(c.value));
      continue;
    }
    ASSERT_FALSE(v.ok()) << c.value << " accepted as " << *v;
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(v.status().message().find("--threads=" + c.value), std::string::npos) << v.status().message();
    EXPECT_NE(v.status().message().find("[1, 1024]"), std::string::npos) << v.status().message();
  }
  // A range that includes negative numbers, and values far outside (strtoll saturates) are refused too.
  EXPECT_EQ(*With("delta", "-5").GetInt("delta", 0, -5, 5), -5);
  EXPECT_FALSE(With("delta", "-6").GetInt("delta", 0, -5, 5).ok());
  EXPECT_FALSE(With("delta", "6").GetInt("delta", 0, -5, 5).ok());
  EXPECT_FALSE(With("threads", "99999999999999999999").GetInt("threads", 1, 1, 1024).ok());
  EXPECT_FALSE(With("threads", "-99999999999999999999").GetInt("threads", 1, 1, 1024).ok());
}

TEST(Flags, IntegerFlagThatIsNotAnIntegerIsRefusedByName) {
  for (const std::string value : {"", "abc", "12x", "1.5", "0x10", "4 "}) {
    auto v = With("loop", value).GetInt("loop", 1, 1, 1000000);
    ASSERT_FALSE(v.ok()) << "'" << value << "' accepted as " << *v;
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(v.status().message().find("--loop=" + value + " is not an integer"), std::string::npos)
        << v.status().message();
  }
}

// What `ge run --threads=5000 --external_weight=3` meets: the parsed flags, held to the commands' ranges.
// strtoll saturates beyond int64 and skips leading blanks and '+': none of that passes for a flag's value.
TEST(Flags, IntegerBeyondInt64OrWithBlanksIsRefusedEvenWithoutAnUpperBound) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(*With("seed", "9223372036854775807").GetInt("seed", 0, 0, max), max);
  auto v = With("seed", "99999999999999999999").GetInt("seed", 0, 0, max);
  ASSERT_FALSE(v.ok()) << "accepted as " << *v;
  EXPECT_NE(v.status().message().find("out of range"), std::string::npos) << v.status().message();
  for (const std::string value : {" 5", "+5", "\t5"}) {
    EXPECT_FALSE(With("seed", value).GetInt("seed", 0, 0, max).ok()) << "'" << value << "'";
  }
}

TEST(Flags, AbsurdValuesThroughParseFlagsAreRefused) {
  auto f = Parse({"--threads=5000", "--external_weight=3"}, {"threads", "external_weight"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  auto threads = f->GetInt("threads", 1, 1, 1024);
  ASSERT_FALSE(threads.ok());
  EXPECT_NE(threads.status().message().find("--threads=5000 is out of range [1, 1024]"), std::string::npos)
      << threads.status().message();
  auto external = f->GetInt("external_weight", 0, 0, 2);
  ASSERT_FALSE(external.ok());
  EXPECT_NE(external.status().message().find("--external_weight=3 is out of range [0, 2]"), std::string::npos)
      << external.status().message();
}

TEST(Flags, UnknownFlagNamesTheClosestDeclaredOne) {
  auto f = Parse({"--dump-graph=x"}, {"model", "dump_graph", "json"});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(),
            "unknown flag --dump-graph for ge test; did you mean --dump_graph? (ge test --help lists its flags)");
  f = Parse({"--zzzzzzzz"}, {"model", "json"});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message().find("did you mean"), std::string::npos) << f.status().message();
}

TEST(Flags, HelpListsEveryDeclaredFlagWithItsDescription) {
  const CommandSpec spec{"demo",
                         "--model=M.om",
                         "does a demonstration",
                         {{"model", "M.om", "the model"},
                          {"json", "", "one line of JSON"},
                          {"a_flag_with_a_long_value", "NAME:AXIS:LO~HI,NAME:AXIS:LO~HI", "on the next line"}}};
  const std::string help = CommandHelp(spec);
  EXPECT_EQ(help.rfind("usage: ge demo --model=M.om [flags]\n  does a demonstration\n", 0), 0u) << help;
  EXPECT_NE(help.find("  --model=M.om  the model\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --json        one line of JSON\n"), std::string::npos) << help;
  EXPECT_NE(help.find("--a_flag_with_a_long_value=NAME:AXIS:LO~HI,NAME:AXIS:LO~HI\n"), std::string::npos) << help;
}

TEST(Flags, GeOptionsAreCheckedAgainstTheOptionTable) {
  auto options = GeOptionsFromFlags(With("option", "ge.exec.disableReuseMemory=1"), kReaderCompiler);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->at("ge.exec.disableReuseMemory"), "1");
  options = GeOptionsFromFlags(With("option", "ge.exec.disableReuseMemry=1"), kReaderCompiler);
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().message(),
            "--option: option 'ge.exec.disableReuseMemry' is not an option ge knows; did you mean "
            "'ge.exec.disableReuseMemory'?");
  options = GeOptionsFromFlags(With("option", "ge.exec.v2Executor=priority"), kReaderCompiler);
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.status().message().find("read by runtime v2"), std::string::npos);
  for (const char* bad : {"ge.fusion", "=1"}) {
    options = GeOptionsFromFlags(With("option", bad), kReaderCompiler);
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_NE(options.status().message().find("KEY=VALUE"), std::string::npos) << options.status().message();
  }
  EXPECT_TRUE(GeOptionsFromFlags(Flags(), kReaderCompiler).ok());
}

}  // namespace
}  // namespace ge::cli
