// Edit distance between names, to suggest the name a user meant ("did you mean ...?").
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ge {

// Insertions, deletions, substitutions and transpositions of adjacent characters (optimal string alignment),
// ignoring ASCII case: "disableReuseMemry" is 1 from "disableReuseMemory", "ge.Fusion" 0 from "ge.fusion".
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest to `word`, or "" when none is within max(2, |word| / 3) edits (too far to be a typo).
// Ties go to the earlier candidate.
std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ge
