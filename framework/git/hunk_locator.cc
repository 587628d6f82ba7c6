#include "git/hunk_locator.h"

#include <cstdlib>

namespace kseries::git {

namespace {

bool matches_at(const std::vector<std::string>& file_lines,
                const std::vector<std::string>& preimage, size_t start) {
  if (start + preimage.size() > file_lines.size()) {
    return false;
  }
  for (size_t i = 0; i < preimage.size(); ++i) {
    if (file_lines[start + i] != preimage[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

HunkLocation locate_hunk(const std::vector<std::string>& file_lines,
                         const std::vector<std::string>& preimage, int expected_line) {
  HunkLocation location;
  const long expected = expected_line - 1;
  if (preimage.empty()) {
    location.matches_in_place = true;
    return location;
  }
  if (expected >= 0 && matches_at(file_lines, preimage, static_cast<size_t>(expected))) {
    location.matches_in_place = true;
    location.found_at = expected_line;
    location.candidates = 1;
    return location;
  }
  long best = -1;
  for (size_t start = 0; start + preimage.size() <= file_lines.size(); ++start) {
    if (!matches_at(file_lines, preimage, start)) {
      continue;
    }
    ++location.candidates;
    const long distance = std::labs(static_cast<long>(start) - expected);
    if (best < 0 || distance < std::labs(best - expected)) {
      best = static_cast<long>(start);
    }
  }
  if (best >= 0) {
    location.found_at = static_cast<int>(best + 1);
    location.offset = static_cast<int>(best - expected);
  }
  return location;
}

std::string describe_location(const HunkLocation& location, int expected_line) {
  if (location.matches_in_place) {
    return "context matches at line " + std::to_string(expected_line);
  }
  if (!location.found_at) {
    return "context not found anywhere in the file: the file differs from the series' base";
  }
  const int n = std::abs(location.offset);
  std::string text = "context found " + std::to_string(n) + " line" + (n == 1 ? "" : "s") +
                     (location.offset > 0 ? " below" : " above") + " (at line " +
                     std::to_string(*location.found_at) + ")";
  if (location.candidates > 1) {
    text += ", one of " + std::to_string(location.candidates) + " places it matches";
  }
  return text + ": the tree differs from the series' base (git am would apply it with an offset)";
}

}  // namespace kseries::git
