#include "base/edit_distance.h"

#include <algorithm>
#include <limits>

namespace ge {
namespace {

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

size_t EditDistance(std::string_view a_text, std::string_view b_text) {
  const std::string a = AsciiLower(a_text), b = AsciiLower(b_text);
  const size_t n = a.size(), m = b.size();
  // Three rows of the dynamic-programming table: two back for transpositions.
  std::vector<size_t> before(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const bool same = a[i - 1] == b[j - 1];
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], before[j - 2] + 1);
      }
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[m];
}

std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  size_t best = std::numeric_limits<size_t>::max();
  std::string closest;
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length: no need to compute it for a name that far.
    const size_t length_gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (length_gap > limit) continue;
    const size_t d = EditDistance(word, c);
    if (d <= limit && d < best) {
      best = d;
      closest = c;
    }
  }
  return closest;
}

}  // namespace ge
