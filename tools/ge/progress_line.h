// One line of progress on a terminal for long CLI work ("tune 37/120 nodes, 12 s"): redrawn in place on stderr at
// most every 100 ms and erased when done. Silent when stderr is not a terminal or when the command prints JSON, so
// logs and scripts see only results. Not thread-safe: one owner updates it.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace ge::cli {

class ProgressLine {
 public:
  // enabled: false keeps it silent whatever stderr is (e.g. --json); true shows it only on a terminal.
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // "WHAT DONE/TOTAL UNIT, ELAPSED"; total <= 0 prints DONE alone.
  void Update(const std::string& what, int64_t done, int64_t total, const char* unit = "");
  // Erases the line (the next output starts on a clean line).
  void Clear();
  bool shown() const { return shown_; }

 private:
  bool active_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// Whether stderr is a terminal (progress lines are drawn only there).
bool StderrIsTerminal();

}  // namespace ge::cli
