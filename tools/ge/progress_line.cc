#include "progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace ge::cli {

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool enabled)
    : active_(enabled && StderrIsTerminal()), start_(std::chrono::steady_clock::now()), last_() {}

ProgressLine::~ProgressLine() { Clear(); }

void ProgressLine::Update(const std::string& what, int64_t done, int64_t total, const char* unit) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = total > 0 && done >= total;
  if (shown_ && !last && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  if (total > 0) {
    std::fprintf(stderr, "\r\033[K%s %lld/%lld%s%s, %.0f s", what.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total), *unit ? " " : "", unit, seconds);
  } else {
    std::fprintf(stderr, "\r\033[K%s %lld%s%s, %.0f s", what.c_str(), static_cast<long long>(done), *unit ? " " : "",
                 unit, seconds);
  }
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace ge::cli
