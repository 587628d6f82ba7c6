#pragma once
// A series that is commits in the user's own repository, written out as the
// `git format-patch` directory kseries reads (`<name>/vN/` with a `series`
// file), so that every command takes it as it takes a directory:
//   A..B       the commits of B not in A, base A (A must be an ancestor of
//              B); a merge among them is one patch of what it changed
//              against its first parent (its conflict resolution too), so
//              that the patches applied on A give B's tree, and A must then
//              be on B's first-parent line;
//   a branch   a `b4 prep` branch: its cover-letter commit (the empty commit
//              whose message holds b4's tracking JSON) becomes the 0/N cover
//              letter with `base-commit:` (its parent) and `change-id:`;
//              the commits above it are the patches.
// The repository is only read (git format-patch, rev-parse, log), with the
// user's global and system git configuration shut out; the commits keep
// their own authorship, dates and messages.

#include <filesystem>
#include <optional>
#include <string>

#include "series/series_spec.h"
#include "sys/process.h"

namespace kseries::git {

// No series has more commits; a range that has is refused.
inline constexpr int k_max_branch_commits = 1000;

struct BranchSeries {
  std::filesystem::path dir;  // <out_root>/<key>/<name>/v<N>
  std::string base;           // the base commit, full hex
  int revision = 1;
  std::optional<std::string> change_id;
  std::size_t patches = 0;
  std::size_t merges = 0;  // merge commits, each one patch of its first-parent diff
};

// Writes the directory below OUT_ROOT (one subdirectory per top commit and
// base, reused when it is complete). Throws Error(k_usage) for a revision
// the repository does not have, an empty range, a branch with no b4 cover
// commit below its tip, or more than k_max_branch_commits commits;
// Error(k_infrastructure) when git cannot run.
BranchSeries write_branch_series(ProcessRunner& runner, const std::filesystem::path& repo,
                                 const SeriesSpec& spec, const std::filesystem::path& out_root);

}  // namespace kseries::git
