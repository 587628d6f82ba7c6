#pragma once
// A test-only patch a target applies to every tree it builds (a target's
// `tree-patch:`, kernel/target.h), in memory with libgit2: the files the
// patch makes of a commit's tree, so a checkout can write exactly those
// (and nothing when a file already holds its patched content: make's
// incremental build stays incremental).

#include <git2.h>

#include <optional>
#include <string>
#include <vector>

#include "git/store.h"

namespace kseries::git {

struct PatchedFile {
  std::string path;                    // relative to the tree's root
  std::optional<std::string> content;  // nullopt: the patch deletes it
};

// PATCH (a unified diff, `git diff` form) applied onto COMMIT's tree. Throws
// Error(k_usage) naming WHAT when it does not parse or does not apply.
std::vector<PatchedFile> patch_tree(Store& store, const git_oid& commit, const std::string& patch,
                                    const std::string& what);

// PATH's content at COMMIT; nullopt when the tree has no such file.
std::optional<std::string> file_at(Store& store, const git_oid& commit, const std::string& path);

}  // namespace kseries::git
