// Einsum equation parsing, shared by Einsum's inference and its reference kernel (header-only, see
// reduce_common.h). Labels are ints: 'A'..'Z' -> 0..25, 'a'..'z' -> 26..51 (so numeric order is ASCII order,
// which implicit mode uses to sort the output), and the dims covered by "..." get ids 52, 53, ... right-aligned
// across inputs (numpy broadcasting of the ellipsis dims).
#pragma once
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge::ops::reduce {

constexpr int kEinsumLetterLabels = 52;

struct EinsumPlan {
  int num_labels = 0;                        // kEinsumLetterLabels + number of ellipsis dims
  std::vector<std::vector<int>> in_labels;   // per input, the label of each dim (repeats mean diagonals)
  std::vector<int> out_labels;               // the label of each output dim
};

namespace einsum_detail {

constexpr int kEllipsis = -1;

inline Status ParseTerm(const std::string& term, bool allow_ellipsis, std::vector<int>* labels) {
  labels->clear();
  bool seen_ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    char c = term[i];
    if (c == '.') {
      if (!allow_ellipsis || term.compare(i, 3, "...") != 0 || seen_ellipsis) {
        return InvalidArgument("malformed ellipsis in einsum term '" + term + "'");
      }
      seen_ellipsis = true;
      labels->push_back(kEllipsis);
      i += 2;
    } else if (c >= 'A' && c <= 'Z') {
      labels->push_back(c - 'A');
    } else if (c >= 'a' && c <= 'z') {
      labels->push_back(26 + (c - 'a'));
    } else {
      return InvalidArgument(std::string("invalid character '") + c + "' in einsum equation");
    }
  }
  return Status::Ok();
}

}  // namespace einsum_detail

// Parses `equation` for inputs of the given ranks.
inline Status ParseEinsum(const std::string& equation, const std::vector<int>& ranks, EinsumPlan* plan) {
  using einsum_detail::kEllipsis;
  std::string eq;
  for (char c : equation) {
    if (!std::isspace(static_cast<unsigned char>(c))) eq.push_back(c);
  }
  std::string lhs = eq, rhs;
  const size_t arrow = eq.find("->");
  const bool explicit_out = arrow != std::string::npos;
  if (explicit_out) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
    if (rhs.find("->") != std::string::npos) return InvalidArgument("einsum equation has more than one '->'");
  }
  std::vector<std::string> terms;
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size()) {
    return InvalidArgument("einsum equation '" + equation + "' has " + std::to_string(terms.size()) +
                           " input terms for " + std::to_string(ranks.size()) + " inputs");
  }
  // Pass 1: letters per term and the ellipsis rank of each input.
  std::vector<std::vector<int>> raw(terms.size());
  std::vector<int> ell_rank(terms.size(), 0);
  int num_ell = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    GE_RETURN_IF_ERROR(einsum_detail::ParseTerm(terms[i], true, &raw[i]));
    int letters = 0;
    bool has_ell = false;
    for (int l : raw[i]) {
      if (l == kEllipsis) {
        has_ell = true;
      } else {
        ++letters;
      }
    }
    if (has_ell ? letters > ranks[i] : letters != ranks[i]) {
      return InvalidArgument("einsum term '" + terms[i] + "' does not match input " + std::to_string(i) +
                             " of rank " + std::to_string(ranks[i]));
    }
    ell_rank[i] = has_ell ? ranks[i] - letters : 0;
    num_ell = std::max(num_ell, ell_rank[i]);
  }
  plan->num_labels = kEinsumLetterLabels + num_ell;
  plan->in_labels.assign(terms.size(), {});
  std::vector<int> count(plan->num_labels, 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    for (int l : raw[i]) {
      if (l == kEllipsis) {
        for (int j = 0; j < ell_rank[i]; ++j) {
          plan->in_labels[i].push_back(kEinsumLetterLabels + num_ell - ell_rank[i] + j);
        }
      } else {
        plan->in_labels[i].push_back(l);
        ++count[l];
      }
    }
  }
  plan->out_labels.clear();
  if (explicit_out) {
    std::vector<int> out_raw;
    GE_RETURN_IF_ERROR(einsum_detail::ParseTerm(rhs, true, &out_raw));
    std::vector<bool> used(plan->num_labels, false);
    for (int l : out_raw) {
      if (l == kEllipsis) {
        for (int j = 0; j < num_ell; ++j) plan->out_labels.push_back(kEinsumLetterLabels + j);
        continue;
      }
      if (count[l] == 0) return InvalidArgument("einsum output label '" + rhs + "' does not appear in any input");
      if (used[l]) return InvalidArgument("einsum output '" + rhs + "' repeats a label");
      used[l] = true;
      plan->out_labels.push_back(l);
    }
  } else {
    for (int j = 0; j < num_ell; ++j) plan->out_labels.push_back(kEinsumLetterLabels + j);
    for (int l = 0; l < kEinsumLetterLabels; ++l) {
      if (count[l] == 1) plan->out_labels.push_back(l);
    }
  }
  return Status::Ok();
}

}  // namespace ge::ops::reduce
