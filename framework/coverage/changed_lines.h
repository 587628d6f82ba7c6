#pragma once
// The lines a series changes, per patch and at every prefix: each line a
// patch adds or modifies keeps one identity (the patch and its place in that
// patch's tree) and is followed through the later patches of the series to
// its line number in each later tree, the tip's among them. A line that a
// later patch moves (lines inserted above it) keeps its identity; a line a
// later patch removes or rewrites ends there (the rewrite is the later
// patch's own changed line).

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
// when the patch removes it (or the file).
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
  // at[k]: where it sits after patch k (nullopt before `patch`, and from the
  // patch that removes it on). at.back() is the tip.
  std::vector<std::optional<Position>> at;
  const std::optional<Position>& tip() const { return at.back(); }
};

// Every line every patch adds, followed to the tip. PATCHES in apply order.
std::vector<ChangedLine> changed_lines(const std::vector<PatchChange>& patches);

// The changed lines present after the first K patches (K >= 1), with their
// positions in that tree: what a per-patch build of prefix K compiled.
std::vector<const ChangedLine*> lines_at_prefix(const std::vector<ChangedLine>& lines,
                                                std::size_t k);

}  // namespace kseries::coverage
