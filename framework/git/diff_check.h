#pragma once
// Untrusted diffs as libgit2 reads them: the checks of series/diff_safety.h
// look at the text for a friendly early message; these look at what
// git_diff_from_buffer actually parsed, which is what git_apply_to_tree will
// write (libgit2 also reads "new mode 0120000", "new mode 120000 " and the
// mode of an "index a..b 120000" line).

#include <string>

#include "git/libgit2.h"

namespace kseries::git {

// Throws Error(k_usage) starting with `what` (e.g. "patch 3/8 'mm: ...'") and
// naming the path when a file of `diff` has an old or new mode other than a
// regular file (0100644, 0100755) or none (0) -- a symlink, a submodule, a
// tree --, an absolute path, a ".." component, a ".git" component in any
// letter case, or a hunk line holding a NUL byte.
void check_parsed_diff(git_diff* diff, const std::string& what);

}  // namespace kseries::git
