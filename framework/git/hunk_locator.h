#pragma once
// libgit2 applies with no offset and no fuzz. When a hunk fails, find where
// its context does sit in the file, so the user learns "the tree differs
// from the series' base" instead of a bare "hunk did not apply".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::git {

struct HunkLocation {
  bool matches_in_place = false;
  std::optional<int> found_at;  // 1-based line where the preimage sits, nearest first
  int offset = 0;               // found_at - expected line
  int candidates = 0;           // how many places match exactly
};

// `preimage` are the hunk's context and removed lines (without their ' '/'-'
// marker); `expected_line` is the hunk's old start (1-based).
HunkLocation locate_hunk(const std::vector<std::string>& file_lines,
                         const std::vector<std::string>& preimage, int expected_line);

// "context found 3 lines below (line 1033): the tree differs from the
// series' base", or "context not found anywhere in the file".
std::string describe_location(const HunkLocation& location, int expected_line);

}  // namespace kseries::git
