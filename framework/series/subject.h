#pragma once
// The "[PATCH v6 3/8] mm: ..." subject prefix: revision, position, title.

#include <optional>
#include <string>
#include <string_view>

namespace kseries {

struct Subject {
  std::string title;               // what follows the bracketed prefixes
  int revision = 1;                // "v6" -> 6; none -> 1
  bool explicit_revision = false;  // a vN was there
  int index = 0;                   // "3/8" -> 3; none -> 0
  int total = 0;                   // "3/8" -> 8; none -> 0
  bool numbered = false;
  bool rfc = false;
  bool is_cover() const { return numbered && index == 0; }
};

// Bounds on the numbers of a prefix: no series has more patches or revisions.
inline constexpr int k_max_patches = 9999;
inline constexpr int k_max_revision = 999;

// The title is what `git am` commits: git mailinfo's cleanup_subject strips
// every leading "re:" (any case), blank, ':' and [...] group, then runs of
// white space become one space. PATCH/RFC, vN and m/n are read from the
// [...] groups. Throws Error(k_usage) starting with `where` ("file:line")
// when vN or m/n is out of range.
Subject parse_subject(std::string_view subject, const std::string& where);

}  // namespace kseries
