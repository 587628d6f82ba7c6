#pragma once
// Untrusted diffs: the paths and modes a patch may touch before it gets near
// the object database.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kseries {

struct DiffFile {
  std::string old_path;  // empty for a new file
  std::string new_path;  // empty for a deleted file
};

// The files a diff touches, from its "diff --git"/"---"/"+++"/rename/copy
// header lines (hunk bodies are skipped). Quoted paths are unquoted; a
// malformed one throws Error(k_usage).
std::vector<DiffFile> diff_files(std::string_view diff);

// A path as git writes it in a diff header, unquoted when quoted C-style
// ("\"a/t\303\251st\""); a malformed escape throws Error(k_usage) starting
// with `what`.
std::string unquote_git_path(std::string_view text, const std::string& what);

// What is wrong with PATH as a path a patch may touch, "" for nothing: an
// empty or absolute path, a ".." component, anything inside ".git" (any
// case), a name longer than NAME_MAX or a path longer than PATH_MAX. The
// one hostile-path rule, for the diff text (below) and for the paths
// libgit2 parsed from it (git/diff_check.h).
std::string path_problem(std::string_view path);

// Throws Error(k_usage) starting with `what` (e.g. "patch 3/8 'mm: ...'")
// when the diff touches an absolute path, a ".." component, anything inside
// ".git", a symlink (mode 120000) or submodule (160000), quotes a path with a
// malformed escape (libgit2's reading of the path would differ), holds a NUL
// byte, or is larger than max_bytes.
void check_diff_safety(std::string_view diff, const std::string& what, std::size_t max_bytes);

}  // namespace kseries
