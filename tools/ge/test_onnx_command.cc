// ge test-onnx DIR...: runs ONNX backend node-test cases, each in a child process so that a crash or a hang in one
// case is reported as that case's failure. Prints a line per failure, a line counting the cases each engine ran
// ("ran on: S sink, V v2, I interpreter, F none"), then "N passed, M failed".
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>

#include "base/option_table.h"
#include "commands.h"
#include "flags.h"
#include "ge_option_flags.h"
#include "progress_line.h"
#include "onnx_test_case.h"

namespace ge::cli {

namespace {

std::string CaseName(const std::string& dir) {
  size_t s = dir.find_last_of('/');
  return s == std::string::npos ? dir : dir.substr(s + 1);
}

struct CaseResult {
  std::string why;     // "" on success, else the failure reason
  std::string engine;  // who ran it ("sink", "interpreter"), "" when none was reached
};

// Runs one case in a forked child. The child writes the engine on the first line of the pipe, then the failure.
CaseResult RunIsolated(const std::string& dir, int timeout_s, const OnnxCaseOptions& options) {
  int fds[2];
  if (::pipe(fds) != 0) return {"pipe failed", ""};
  pid_t pid = ::fork();
  if (pid < 0) return {"fork failed", ""};
  if (pid == 0) {
    ::close(fds[0]);
    std::string engine;
    Status s = RunOnnxTestCase(dir, options, &engine);
    std::string msg = engine + "\n" + (s.ok() ? "" : s.ToString());
    ssize_t w = ::write(fds[1], msg.data(), msg.size());
    (void)w;
    ::close(fds[1]);
    ::_exit(s.ok() ? 0 : 1);
  }
  ::close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  bool done = false;
  while (!done) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      done = true;
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ::close(fds[0]);
      return {"timed out after " + std::to_string(timeout_s) + " s", ""};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::string msg;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) msg.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  CaseResult r;
  const size_t nl = msg.find('\n');
  if (nl != std::string::npos) {
    r.engine = msg.substr(0, nl);
    msg = msg.substr(nl + 1);
  }
  if (WIFSIGNALED(status)) {
    r.why = "crashed with signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    r.why = msg.empty() ? "failed with exit code " + std::to_string(WEXITSTATUS(status)) : msg;
  }
  return r;
}

}  // namespace

const CommandSpec& TestOnnxCommandSpec() {
  static const CommandSpec spec = {
      "test-onnx",
      "DIR...",
      "run ONNX backend node-test cases: one line per failure, the last line \"N passed, M failed\"",
      {{"om", "", "compile each case to an .om (input shapes from its data) and run that"},
       {"v2", "", "compile each case to a lowered .om (declared dims) and run it on runtime v2"},
       {"option", "KEY=VALUE", "a ge.* option for the compiler or runtime v2 (repeatable; `ge options` lists them)"},
       {"timeout", "SECONDS", "a case running longer fails (default 60)"},
       {"no_fork", "", "run the cases in this process instead of one child each (a crash ends the run)"}}};
  return spec;
}

int TestOnnxCommand(int argc, char** argv) {
  auto flags = ParseFlags(argc, argv, 2, TestOnnxCommandSpec());
  if (!flags.ok()) {
    std::fprintf(stderr, "ge test-onnx: %s\n", flags.status().ToString().c_str());
    return 2;
  }
  if (flags->positional.empty()) {
    std::fprintf(stderr, "%s", CommandHelp(TestOnnxCommandSpec()).c_str());
    return 2;
  }
  auto timeout = flags->GetInt("timeout", 60, 1, 86400);
  if (!timeout.ok()) {
    std::fprintf(stderr, "ge test-onnx: %s\n", timeout.status().ToString().c_str());
    return 2;
  }
  const bool fork_each = !flags->GetBool("no_fork");
  OnnxCaseOptions options;
  options.via_om = flags->GetBool("om");  // compile each case to an .om in memory and run that
  options.via_v2 = flags->GetBool("v2");  // compile each case to an IR .om and run it on runtime v2
  if (options.via_om && options.via_v2) {
    std::fprintf(stderr, "ge test-onnx: --om and --v2 exclude each other\n");
    return 2;
  }
  auto ge_options = GeOptionsFromFlags(*flags, kReaderCompiler | kReaderRuntimeV2);
  if (!ge_options.ok()) {
    std::fprintf(stderr, "ge test-onnx: %s\n", ge_options.status().ToString().c_str());
    return 2;
  }
  options.ge_options = *ge_options;
  std::vector<std::string> cases = FindOnnxTestCases(flags->positional);
  int passed = 0, failed = 0;
  std::map<std::string, int> engines;
  ProgressLine progress(true);  // on a terminal: cases done so far, erased before each FAIL line and the summary
  for (const std::string& dir : cases) {
    progress.Update("test-onnx", passed + failed, static_cast<int64_t>(cases.size()), "cases");
    CaseResult r;
    if (fork_each) {
      r = RunIsolated(dir, static_cast<int>(*timeout), options);
    } else {
      Status s = RunOnnxTestCase(dir, options, &r.engine);
      if (!s.ok()) r.why = s.ToString();
    }
    ++engines[r.engine];
    std::string& why = r.why;
    if (why.empty()) {
      ++passed;
    } else {
      ++failed;
      for (char& c : why)
        if (c == '\n') c = ' ';
      progress.Clear();
      std::printf("FAIL %s: %s\n", CaseName(dir).c_str(), why.c_str());
      std::fflush(stdout);
    }
  }
  progress.Clear();
  std::printf("ran on: %d sink, %d v2, %d interpreter, %d none (failed before an engine ran)\n", engines["sink"],
              engines["v2"], engines["interpreter"], engines[""]);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && !cases.empty() ? 0 : 1;
}

}  // namespace ge::cli
