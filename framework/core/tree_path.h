#pragma once
// Whether a path a patch names may be written into a work tree: the one
// check both readers of a diff (the text before libgit2 parses it, and what
// libgit2 parsed) apply, so that they cannot drift apart.

#include <string>
#include <string_view>

namespace kseries {

// Whether one component of a path is git's own directory as some file
// system would see it, by git's rules (path.c is_hfs_dotgit and
// is_ntfs_dotgit, which `git fsck` warns about): ".git" in any case, with
// the code points HFS+ ignores anywhere in it (a zero-width joiner, a
// byte-order mark), and as NTFS reads it: trailing dots and spaces
// (".git. "), its 8.3 short name ("git~1"), or before a backslash.
bool is_dotgit_name(std::string_view component);

// What is wrong with PATH (relative to the tree root, '/'-separated) as a
// file a patch touches, or "" when nothing is: empty, absolute, an empty,
// '.' or '..' component, a component that is .git (is_dotgit_name), a
// component over 255 bytes (NAME_MAX), over 4095 bytes in all (PATH_MAX).
std::string tree_path_problem(std::string_view path);

}  // namespace kseries
