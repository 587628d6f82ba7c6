#pragma once
// Directory/file conflicts: a patch that creates `a/b` where the tree has a
// file `a`, or a file `a` where the tree has a directory `a`. git am refuses
// both ("Not a directory"); git_apply_to_tree silently drops one side (the
// existing file, or the new one), so they are checked before applying.

#include <string>

#include "git/libgit2.h"

namespace kseries::git {

// One line per conflict, "  <path>: ..." naming the new path and the entry it
// collides with (a file the patch creates that exists already, too); empty
// when `diff` can be applied onto `tree` without one.
// A file the same patch deletes or renames away does not conflict.
std::string directory_file_conflicts(git_tree* tree, git_diff* diff);

}  // namespace kseries::git
