#pragma once
// The lines a series changes, per patch and at every prefix: each line a
// patch adds or modifies keeps one identity (the patch and its place in that
// patch's tree) and is followed through the later patches of the series to
// its line number in each later tree, the tip's among them. A line that a
// later patch moves (lines inserted above it) keeps its identity; a line a
// later patch removes or rewrites ends there (the rewrite is the later
// patch's own changed line).
//
// Cost: O((A + R) log(A + R)) time and O(A + R) memory for A added and R
// removed lines over the whole series (each file a balanced tree of runs
// of lines, edited hunk line by hunk line), whatever the number of patches:
// a line is never walked once per later patch, nor once per hunk above it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::coverage {

// One file of one patch, as libgit2 reads the diff (what git_apply_to_tree
// writes: no offset, no fuzz, so the numbers are those of the trees).
struct FileChange {
  std::string old_path;      // "" for a new file
  std::string new_path;      // "" for a deleted file
  std::vector<int> removed;  // old line numbers (1-based), ascending
  struct Added {
    int line = 0;  // new line number (1-based)
    std::string text;
    bool modifies = false;  // its change block also removes lines
  };
  std::vector<Added> added;  // ascending by line
};

using PatchChange = std::vector<FileChange>;

// Reads a patch's `diff --git` text. Throws Error(k_usage) naming `what` when
// libgit2 cannot parse it.
PatchChange read_patch_change(std::string_view diff, const std::string& what);

// Where a surviving old line of `file` lands in its new version, or nullopt
// when the patch removes it (or the file). O(log) in the file's hunk lines.
std::optional<int> map_line(const FileChange& file, int old_line);

struct Position {
  std::string path;
  int line = 0;
  bool operator==(const Position& other) const = default;
};

struct ChangedLine {
  std::size_t patch = 0;  // the patch that adds it (0-based in the series)
  std::string text;
  bool modifies = false;
  // Where it sits after the last patch given (nullopt: a later patch, or
  // its own file's deletion, removed it).
  std::optional<Position> at;
  const std::optional<Position>& tip() const { return at; }
};

// Every line the PATCHES (in apply order) add, followed to the tree after
// the last of them.
std::vector<ChangedLine> changed_lines(const std::vector<PatchChange>& patches);

// The changed lines still there after the last patch given, with their
// positions: what a build of that tree compiled.
std::vector<const ChangedLine*> present_lines(const std::vector<ChangedLine>& lines);

}  // namespace kseries::coverage
