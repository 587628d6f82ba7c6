#pragma once
// What to tell a user whose series does not apply about its base: the base
// the series names (its `base-commit:` trailer), whether this repository
// has that commit, and the nearest tag of it and of the base it was applied
// onto, so that "fetch X" or "--base vN" is the obvious next step.

#include <git2.h>

#include <optional>
#include <string>

namespace kseries::git {

// "v6.12-rc3-45-g1234abcd": the nearest tag reachable from `commit`, the
// commits above it and the abbreviated id, as `git describe --tags`;
// nullopt when no tag is reachable (an imported tarball has none).
std::optional<std::string> nearest_tag(git_repository* repo, const git_oid& commit);

struct BaseFacts {
  std::optional<std::string> named;        // the series' base-commit:, as written
  bool named_valid = false;                // a full or abbreviated hex object id
  bool named_here = false;                 // this repository (or its alternates) has it
  std::optional<std::string> named_tag;    // nearest_tag of the named base
  std::string applied;                     // the base applied onto, hex
  std::string applied_label;               // "linux-source-6.12", "v6.12"
  std::optional<std::string> applied_tag;  // nearest_tag of the applied base
};

BaseFacts base_facts(git_repository* repo, const std::optional<std::string>& named,
                     const git_oid& applied, const std::string& applied_label);

// Lines for a failed apply ("  base: ..."), each starting with two spaces.
std::string describe_base(const BaseFacts& facts);

}  // namespace kseries::git
